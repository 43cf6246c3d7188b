"""Luck taken out of the result: does the luck-adjusted result show skill in 50 games?

    for seed in 1000 60000 120000; do
        python experiments/analysis_skill.py --games 400 --seed $seed --workers 2 --repeat 0 \\
            --dump games_$seed.jsonl
    done
    python experiments/skill_luck.py games_1000.jsonl games_60000.jsonl games_120000.jsonl \\
        --json experiments/results/skill_luck.json

No way of reading the decisions' losses shows that ``heuristic`` plays better than ``greedy``
(docs/analysis.md, "Which figure could show skill"); the result does, but with much noise. Most
of that noise is luck, and the analysis measures the luck of every draw: the drawn card's chance
against the average card of the same pile. That luck has mean zero whatever the players do (the
card is drawn at random from the pile, R5.2), so *any* multiple of it can be taken from the result
without moving its mean: ``result - b * luck`` is as fair a figure of play as the result, and the
``b`` that leaves the least variance is the slope of the result on the luck (a control variate).
The same holds for the deal: the chance of the hand dealt, ``start`` (each seat's own mean
subtracted: the first mover's hand is worth more).

Figures, per side of a game (luck = the side's draws' luck minus the other side's):

- ``result``: the result alone (1 won, 0.5 drawn, 0 lost);
- ``adjusted``: the analysis' luck-adjusted result, ``result - luck + luck_against`` (each draw at
  face value);
- ``adjusted_and_deal``: the same less the deal's luck at face value, ``start`` less the seat's mean;
- ``draws``: ``result - b * luck``, ``b`` fitted;
- ``draws_and_deal``: ``result - b * luck - c * (start - the seat's mean start)``, both fitted;
- two figures of the decisions alone (``skill_figures.py``): ``added``, the mean per decision of
  the chance after the play (the draw averaged) less the mover's own-view chance before it (what
  `hard`, which the evaluator assumes, would have kept), and ``loss_vs_best``, minus the mean loss
  per decision against the evaluator's best play;
- ``added_clipped``: ``added`` with each decision cut at +-0.05 (:data:`CLIP`), and
  ``agreement``, the share of decisions within 0.01 of the evaluator's best play: where in the
  decisions the skill shows;
- ``combined``: ``draws_and_deal`` and ``added`` weighed together by the weights that give the
  largest signal on the other dumps' games of the two bots (``inverse(covariance) @ means``): the
  most a straight line of the two figures can show.

The weights of each dump are fitted on the other dumps (other deals and seeds), so they carry no
knowledge of the games they judge. Per game the first bot's figure minus the second's; in the
mirror match (one bot on both seats) the seat-0 player's minus the seat-1 player's in even games
and the reverse in odd ones, as the two bots alternate seats in their match (seat 0 moves first,
which is worth a few points: a mirror read seat 0 minus seat 1 measures that, not noise). For each
figure: the mean and 95% interval over all games, the signal per game (mean over standard
deviation; above about 0.28 a figure separates 50 games at 95%), and the share of ``--samples``
random samples of ``--sample`` games whose 95% interval leaves out zero.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
from pathlib import Path
from typing import Any, Final

import numpy as np
from skill_figures import side_figures  # the decisions' figures of one side
from skill_kinds import summary  # mean, interval, signal, disjoint samples

from sequence_game.analysis.scores import t_critical

FIGURES = (
    "result",
    "adjusted",
    "adjusted_and_deal",
    "draws",
    "draws_and_deal",
    "added",
    "added_clipped",
    "loss_vs_best",
    "agreement",
)
CLIP: Final = 0.05
"""Where ``added_clipped`` cuts each decision's chance added (either way): does skill show in the
many small decisions, or in the few large ones?"""
NEAR_BEST: Final = 0.01
"""``agreement``: the share of a side's decisions whose loss against the evaluator's best is at most this."""
COMBINED = ("draws_and_deal", "added")
"""The two figures ``combined`` weighs together: the luck-taken result and the decisions' figure."""


def load(path: Path) -> list[dict[str, Any]]:
    """A dump of ``analysis_skill.py``: the two bots' games and the mirror's."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def is_mirror(game: dict[str, Any]) -> bool:
    return bool(game["bots"][0] == game["bots"][1])


def seat_starts(games: list[dict[str, Any]]) -> tuple[float, float]:
    """Each seat's mean start: the chance of its hand before its first decision."""
    first, second = (statistics.fmean(g["seats"][k]["summary"]["start"] for g in games) for k in (0, 1))
    return first, second


def terms(game: dict[str, Any], seat: int, starts: tuple[float, float]) -> tuple[float, float, float]:
    """One side's result less a half, its net luck and its start less the seat's mean."""
    s = game["seats"][seat]["summary"]
    return s["result"] - 0.5, s["luck"] - s["luck_against"], s["start"] - starts[seat]


def fit(games: list[dict[str, Any]]) -> dict[str, Any]:
    """Least squares of the result on the centred terms, one row a side, no intercept."""
    starts = seat_starts(games)
    data = np.array([terms(g, k, starts) for g in games for k in (0, 1)])
    y = data[:, 0]
    alone = np.linalg.lstsq(data[:, 1:2], y, rcond=None)[0]
    both = np.linalg.lstsq(data[:, 1:3], y, rcond=None)[0]
    return {"seat_starts": starts, "draws": float(alone[0]), "draws_and_deal": [float(v) for v in both]}


def figures(game: dict[str, Any], seat: int, weights: dict[str, Any]) -> dict[str, float]:
    s = game["seats"][seat]["summary"]
    _, luck, start = terms(game, seat, weights["seat_starts"])
    b, c = weights["draws_and_deal"]
    return {
        "result": s["result"],
        "adjusted": s["result"] - s["luck"] + s["luck_against"],
        "adjusted_and_deal": s["result"] - s["luck"] + s["luck_against"] - start,
        "draws": s["result"] - weights["draws"] * luck,
        "draws_and_deal": s["result"] - b * luck - c * start,
        **{
            f: v
            for f, v in side_figures(game["seats"][seat], seat, 2).items()
            if f in ("added", "loss_vs_best")
        },
        **decision_shapes(game["seats"][seat]["moves"]),
    }


def decision_shapes(moves: list[list[Any]]) -> dict[str, float]:
    """Two figures of the decisions' shape: the chance added with each decision cut at
    :data:`CLIP`, and the share of decisions within :data:`NEAR_BEST` of the evaluator's best."""
    added = [max(-CLIP, min(CLIP, m[3] - m[4])) for m in moves if m[5] is not None]
    near = [m[0] <= NEAR_BEST for m in moves]
    return {
        "added_clipped": statistics.fmean(added) if added else 0.0,
        "agreement": statistics.fmean(near) if near else 0.0,
    }


def difference(game: dict[str, Any], number: int, first: str, weights: dict[str, Any]) -> dict[str, float]:
    """The first bot's figures minus the second's (in a mirror, alternating seats by game)."""
    a = number % 2 if is_mirror(game) else [s["bot"] for s in game["seats"]].index(first)
    fa, fb = figures(game, a, weights), figures(game, 1 - a, weights)
    return {f: fa[f] - fb[f] for f in FIGURES}


def combination(rows: list[dict[str, float]]) -> list[float]:
    """The weights of :data:`COMBINED` with the largest mean over standard deviation on ``rows``
    (per game differences of the two bots): ``inverse(covariance) @ means``, scaled to sum 1."""
    data = np.array([[r[f] for f in COMBINED] for r in rows])
    w = np.linalg.solve(np.cov(data, rowvar=False), data.mean(axis=0))
    return [float(v) for v in w / w.sum()]


def sampled_share(values: list[float], size: int, samples: int, seed: int) -> float:
    """The share of random samples of ``size`` games (without replacement) whose 95% interval
    (Student's t) leaves out zero."""
    rng = random.Random(seed)
    hits = 0
    t = t_critical(size - 1)
    for _ in range(samples):
        part = rng.sample(values, size)
        mean, half = statistics.fmean(part), t * statistics.stdev(part) / math.sqrt(size)
        hits += not mean - half <= 0.0 <= mean + half
    return hits / samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dumps", type=Path, nargs="+", help="analysis_skill.py --dump outputs, two or more")
    parser.add_argument("--sample", type=int, default=50)
    parser.add_argument("--samples", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    dumps = [load(p) for p in args.dumps]
    if len(dumps) < 2:
        parser.error("give two dumps or more: each dump's weights are fitted on the others")
    first = next(g["bots"][0] for g in dumps[0] if not is_mirror(g))
    rows: dict[str, dict[str, list[float]]] = {"bots": {}, "mirror": {}}
    weights_out = []
    for i, games in enumerate(dumps):
        others = [g for j, other in enumerate(dumps) if j != i for g in other]
        weights = fit(others)
        mixed = combination([difference(g, 0, first, weights) for g in others if not is_mirror(g)])
        weights_out.append({"dump": args.dumps[i].name, **weights, "combined": mixed})
        matches = [g for g in games if not is_mirror(g)]
        mirrors = [g for g in games if is_mirror(g)]
        for name, chosen in (("bots", matches), ("mirror", mirrors)):
            for number, g in enumerate(chosen):
                d = difference(g, number, first, weights)
                d["combined"] = sum(w * d[f] for w, f in zip(mixed, COMBINED, strict=True))
                for f, v in d.items():
                    rows[name].setdefault(f, []).append(v)
    out: dict[str, Any] = {"first": first, "weights": weights_out}
    for name, figs in rows.items():
        out[name] = {
            f: {
                **summary(v, args.sample),
                "games": len(v),
                "random_samples_separating": sampled_share(v, args.sample, args.samples, args.seed),
            }
            for f, v in figs.items()
        }
        # how much the two figures ``combined`` weighs share, game by game
        out[name]["combined"]["correlation_of_its_figures"] = round(
            float(np.corrcoef(figs[COMBINED[0]], figs[COMBINED[1]])[0, 1]), 3
        )
    text = json.dumps(out, indent=1)
    print(text)
    if args.json:
        args.json.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
