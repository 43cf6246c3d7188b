"""Each game's uncertainty: weighing games by how surely the analysis judged them.

    # the 2,400 games of the skill dumps (skill_luck.py's docstring), then fresh games
    for seed in 1000 60000 120000; do
        python experiments/skill_weighted.py play --dump games_$seed.jsonl --out weighted_$seed.jsonl --workers 2
    done
    python experiments/skill_weighted.py play --bots heuristic,greedy --games 1200 --seed 800000 --out fresh_hg.jsonl --workers 2
    python experiments/skill_weighted.py play --bots heuristic,heuristic --games 1200 --seed 900000 --out fresh_hh.jsonl --workers 2
    python experiments/skill_weighted.py fit weighted_*.jsonl
    python experiments/skill_weighted.py misses --games 150 --seed 900000
    python experiments/skill_weighted.py report --set dumps weighted_*.jsonl --set fresh fresh_*.jsonl \\
        --set all weighted_*.jsonl fresh_*.jsonl --json experiments/results/skill_weighted.json

At 2 players the luck-adjusted result is what the moves changed with every hand known
(``decision_known``, summed: the deal's and every draw's luck are out). When two players play
alike, as ``hard`` against itself, a perfect judge of "``hard`` from here" would see every move
change nothing, so what the moves change there is the judge's own error, and it is the whole of
the luck-adjusted result's spread. That error is larger in long games and in games full of
surprises to the judge: its squares, summed over the game's moves (``S``), tell how far off a
game's luck-adjusted result may be. ``fit`` finds the variance of the two sides' difference as
``a + b * S`` on mirror games (a gamma model with an identity link, fitted by iteratively
reweighted least squares: the squared difference is the variance's unbiased measure);
``analysis.game.ERROR_FLOOR`` and ``ERROR_SLOPE`` hold the values it gave on the dumps' 1,200
mirror games. ``report`` compares, for each set of games, the share of random samples of 50 games
whose 95% interval leaves out zero: the plain mean against the mean weighed by each game's inverse
variance (``analysis.scores.weighted_interval``: the sandwich variance, Student's t on the weights'
effective number of games). The
weights depend only on the game, not on which side a bot played, so in a mirror match the weighted
mean is still zero on average and the test keeps its 5%.

``misses`` prints how much a move changes in games of ``hard`` against itself, by moves left to
the end (docs/evaluator.md, "The whole-position judge": the judge's misses).

``play`` replays each game of a dump (``analysis_skill.py --dump``; deterministic from its bots and
seed) or plays ``--games`` new ones (seed ``--seed + i``, the bots' seats swapped every other game)
and analyses each as ``sequence analyze`` does, without the labels' rollouts (``Budget(check=0)``:
they change no figure used here).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import numpy as np
from analysis_skill import play as play_record  # a dump's game, move for move
from skill_kinds import print_json

from sequence_game.analysis import Budget, analyze_record
from sequence_game.analysis.game import ERROR_FLOOR, ERROR_SLOPE
from sequence_game.analysis.scores import t_critical
from sequence_game.evaluator import whole
from sequence_game.evaluator.whole import WholeJudge

# -- play ------------------------------------------------------------------------------------------


def use_judge(path: str | None) -> None:
    """Judge with the whole-position judge of ``path`` instead of the shipped one (in this
    process: the analysis loads its judge through this cache)."""
    if path:
        judge = WholeJudge.load(path)
        whole._shipped = lambda: judge  # type: ignore[assignment]


def judge_game(job: tuple[list[str], int]) -> dict[str, Any]:
    """One game: per seat its bot, result, luck-adjusted result and that result's standard error,
    and the game's sum of squares of what the moves changed with every hand known."""
    bots, seed = job
    analysis = analyze_record(play_record((bots[0], bots[1]), seed), Budget(check=0))
    squares = sum((m.decision_known or 0.0) ** 2 for m in analysis.moves)
    seats = [
        {"bot": bots[s.side], "result": s.result, "adjusted": s.adjusted, "error": s.adjusted_error}
        for s in analysis.sides_summary
    ]
    return {"bots": bots, "seed": seed, "moves": len(analysis.moves), "squares": squares, "seats": seats}


def play(args: argparse.Namespace) -> None:
    if args.dump:
        games = [
            json.loads(line) for line in Path(args.dump).read_text(encoding="utf-8").splitlines() if line
        ]
        jobs = [(list(g["bots"]), int(g["seed"])) for g in games]
    else:
        a, b = args.bots.split(",")
        jobs = [([a, b] if i % 2 == 0 else [b, a], args.seed + i) for i in range(args.games)]
    started = time.time()
    with (
        ProcessPoolExecutor(args.workers, initializer=use_judge, initargs=(args.whole,)) as pool,
        open(args.out, "w", encoding="utf-8") as out,
    ):
        out.writelines(json.dumps(row) + "\n" for row in pool.map(judge_game, jobs, chunksize=10))
    print(f"{len(jobs)} games in {time.time() - started:.0f} s", file=sys.stderr)


# -- fit and report --------------------------------------------------------------------------------


def load(paths: list[str]) -> list[dict[str, Any]]:
    return [
        json.loads(line) for p in paths for line in Path(p).read_text(encoding="utf-8").splitlines() if line
    ]


def differences(games: list[dict[str, Any]], first: str | None) -> np.ndarray:
    """Rows ``(adjusted difference, squares, result difference)``: the first bot's side less the
    other's; in a mirror match seat 0's in even games, seat 1's in odd ones."""
    rows = []
    for i, g in enumerate(games):
        mirror = g["bots"][0] == g["bots"][1]
        a = i % 2 if mirror or first is None else g["bots"].index(first)
        mine, theirs = g["seats"][a], g["seats"][1 - a]
        rows.append((mine["adjusted"] - theirs["adjusted"], g["squares"], mine["result"] - theirs["result"]))
    return np.array(rows)


def fit_variance(d: np.ndarray, rounds: int = 50) -> tuple[float, float]:
    """``(a, b)`` of the variance ``a + b * S`` of the differences, by iteratively reweighted
    least squares (a gamma model with an identity link)."""
    x = np.column_stack([np.ones(len(d)), d[:, 1]])
    y = d[:, 0] ** 2
    coef = np.array([0.1, 3.0])
    for _ in range(rounds):
        w = 1.0 / np.maximum(x @ coef, 1e-3)
        coef = np.linalg.lstsq(x * w[:, None], y * w, rcond=None)[0]
    return float(coef[0]), float(coef[1])


def separating(values: np.ndarray, weights: np.ndarray, size: int, samples: int, seed: int) -> float:
    """The share of random samples of ``size`` games whose weighted mean's 95% interval leaves out
    zero: ``analysis.scores.weighted_interval`` (the sandwich variance, Student's t on the
    effective number of games); with equal weights, Student's interval of the plain mean."""
    rng = random.Random(seed)
    index = list(range(len(values)))
    hits = 0
    for _ in range(samples):
        pick = rng.sample(index, size)
        v, w = values[pick], weights[pick] / weights[pick].sum()
        mean = float((w * v).sum())
        effective = 1.0 / float((w**2).sum())
        spread = float((w**2 * (v - mean) ** 2).sum()) * effective / (effective - 1)
        hits += abs(mean) > t_critical(max(1, round(effective - 1))) * math.sqrt(spread)
    return hits / samples


def figures(d: np.ndarray, a: float, b: float, args: argparse.Namespace) -> dict[str, Any]:
    weights = 1.0 / (a + b * d[:, 1])
    share = {
        "result": separating(d[:, 2], np.ones(len(d)), args.sample, args.samples, args.seed),
        "adjusted": separating(d[:, 0], np.ones(len(d)), args.sample, args.samples, args.seed),
        "adjusted_weighted": separating(d[:, 0], weights, args.sample, args.samples, args.seed),
    }
    sd = statistics.stdev(d[:, 0])
    return {
        "games": len(d),
        "result_mean": round(float(d[:, 2].mean()), 4),
        "adjusted_mean": round(float(d[:, 0].mean()), 4),
        "adjusted_weighted_mean": round(float((weights * d[:, 0]).sum() / weights.sum()), 4),
        "adjusted_sd": round(sd, 4),
        "adjusted_signal": round(float(d[:, 0].mean()) / sd, 3),
        f"samples_of_{args.sample}_separating": share,
    }


def misses(args: argparse.Namespace) -> None:
    """The judge's misses in games of ``hard`` against itself: the spread of what a move changed
    with every hand known (``decision_known``), over all moves and by moves left to the end."""
    rows = []  # (moves left, decision_known)
    for seed in range(args.seed, args.seed + args.games):
        moves = analyze_record(play_record(("heuristic", "heuristic"), seed), Budget(check=0)).moves
        rows += [(len(moves) - i, m.decision_known or 0.0) for i, m in enumerate(moves)]
    data = np.array(rows)
    total = float((data[:, 1] ** 2).sum())
    out: dict[str, Any] = {"games": args.games, "moves": len(data), "sd": round(float(data[:, 1].std()), 4)}
    for low, high in ((1, 1), (2, 2), (3, 3), (4, 6), (7, 12), (13, 24), (25, 10_000)):
        part = data[(data[:, 0] >= low) & (data[:, 0] <= high), 1]
        out[f"left_{low}_{high}"] = {
            "moves": len(part),
            "mean": round(float(part.mean()), 4),
            "sd": round(float(part.std()), 4),
            "share_of_squares": round(float((part**2).sum()) / total, 3),
        }
    print(json.dumps(out, indent=1))


def fit(args: argparse.Namespace) -> None:
    games = [g for g in load(args.files) if g["bots"][0] == g["bots"][1]]
    a, b = fit_variance(differences(games, None))
    print(json.dumps({"mirror_games": len(games), "floor": round(a, 4), "slope": round(b, 4)}))


def report(args: argparse.Namespace) -> None:
    out: dict[str, Any] = {"floor": ERROR_FLOOR, "slope": ERROR_SLOPE, "sets": {}}
    for name, *paths in args.set:
        games = load(paths)
        matches = [g for g in games if g["bots"][0] != g["bots"][1]]
        mirrors = [g for g in games if g["bots"][0] == g["bots"][1]]
        first = matches[0]["bots"][0] if matches else None
        out["sets"][name] = {
            "match": {"first": first, **figures(differences(matches, first), ERROR_FLOOR, ERROR_SLOPE, args)},
            "mirror": figures(differences(mirrors, None), ERROR_FLOOR, ERROR_SLOPE, args),
            "mirror_fit": dict(
                zip(("floor", "slope"), fit_variance(differences(mirrors, None)), strict=True)
            ),
        }
    print_json(out, args.json)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play", help="analyse a dump's games, or new ones")
    p.add_argument("--dump")
    p.add_argument("--bots", default="heuristic,greedy")
    p.add_argument("--games", type=int, default=1200)
    p.add_argument("--seed", type=int, default=800_000)
    p.add_argument("--out", required=True)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--whole", help="another whole-position judge's weights (experiments/whole_td.py)")
    m = sub.add_parser("misses", help="what the moves change in games of hard against itself")
    m.add_argument("--games", type=int, default=150)
    m.add_argument("--seed", type=int, default=900_000)
    f = sub.add_parser("fit", help="the variance model on the mirror games of the files")
    f.add_argument("files", nargs="+")
    r = sub.add_parser("report", help="plain and weighted separation, per set of games")
    r.add_argument("--set", nargs="+", action="append", required=True, metavar=("NAME", "FILE"))
    r.add_argument("--sample", type=int, default=50)
    r.add_argument("--samples", type=int, default=2000)
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--json")
    args = parser.parse_args()
    {"play": play, "misses": misses, "fit": fit, "report": report}[args.command](args)


if __name__ == "__main__":
    main()
