"""Luck judged with every hand known: does the whole-position judge let skill show in 50 games?

    for seed in 1000 60000 120000; do   # the dumps skill_luck.py reads (its docstring)
        python experiments/skill_omniscient.py luck games_$seed.jsonl --out games_$seed.whole.jsonl --workers 2
    done
    python experiments/skill_omniscient.py report games_*.whole.jsonl --json experiments/results/skill_omniscient.json

The analysis used to take each draw's luck from the drawer's own view: the drawn card's chance
against the pile's average card, judged by the evaluator, which sees one hand. What it cannot know
(the other hand) stayed in the luck-adjusted result as noise: a good draw against a hand that held
the answer is judged good. The analyst of a finished game knows every hand, and the only chance
left is the order of the draw pile (R5.2). The whole-position judge (``evaluator.whole``, trained
by ``scripts/train_evaluator.py --part whole``) reads both hands; with it the result splits as
backgammon's analysers split it: the deal, each draw's luck against the pile's average card, and
the decisions.

1. ``luck``: replays every game of an ``analysis_skill.py --dump`` (the games are deterministic
   from their bots and seed), analyses it as ``sequence analyze`` does, and adds to each seat what
   the analysis now reports at 2 players: the deal's luck and the draws' luck with both hands known
   (the sum, and each draw's ``(turn, luck)``) and the luck-adjusted result.
2. ``report``: as ``skill_luck.py``, each dump's weights fitted on the others:

   - ``result`` and ``draws_and_deal`` (the one-view luck taken out by fitted weights, the best
     figure before: ``skill_luck.py``);
   - ``whole_face``: the analysis' luck-adjusted result at 2 players now, ``result - deal's luck -
     own luck + the other's``, every term at face value;
   - ``whole_fitted``: the same terms by fitted weights (a control variate);
   - ``whole_by_thirds``: the draws' luck by thirds of the game (turns 0-15, 16-31, 32 on), each
     its own weight;
   - ``whole_and_one_view``: both judges' terms together.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import numpy as np
from analysis_skill import play  # the dump's games, move for move
from skill_kinds import print_json, summary
from skill_luck import fit as fit_one_view
from skill_luck import is_mirror, load, sampled_share
from skill_luck import terms as one_view_terms

from sequence_game.analysis import analyze_record

THIRDS = ((0, 16), (16, 32), (32, 10_000))
"""``whole_by_thirds``: the turns of each third of a typical 2-player game."""
FIGURES = ("result", "draws_and_deal", "whole_face", "whole_fitted", "whole_by_thirds", "whole_and_one_view")


# -- luck ------------------------------------------------------------------------------------------


def game_luck(bots: tuple[str, str], seed: int) -> list[dict[str, Any]]:
    """Per seat, from the analysis of the game (``analyze_record``, as a user gets it): its deal's
    luck and its draws' luck with both hands known, each draw's ``(turn, luck)``, and its
    luck-adjusted result."""
    analysis = analyze_record(play(bots, seed))
    out = []
    for side in analysis.sides_summary:
        each = [
            (m.turn, m.luck_known) for m in analysis.moves if m.side == side.side and m.luck_known is not None
        ]
        out.append(
            {"deal": side.deal_known, "luck": side.luck_known, "each": each, "adjusted": side.adjusted}
        )
    return out


def _luck_job(job: tuple[list[str], int]) -> list[dict[str, Any]]:
    bots, seed = job
    return game_luck((bots[0], bots[1]), seed)


def luck(args: argparse.Namespace) -> None:
    games = load(Path(args.dump))
    jobs = [(g["bots"], g["seed"]) for g in games]
    t = time.time()
    with ProcessPoolExecutor(args.workers) as pool:
        found = list(pool.map(_luck_job, jobs, chunksize=20))
    with open(args.out, "w", encoding="utf-8") as f:
        for g, seats in zip(games, found, strict=True):
            for s in (0, 1):
                g["seats"][s]["whole"] = seats[s]
            f.write(json.dumps(g) + "\n")
    print(f"{len(games)} games in {time.time() - t:.0f} s", file=sys.stderr)


# -- report ----------------------------------------------------------------------------------------


def whole_terms(game: dict[str, Any], seat: int) -> dict[str, float]:
    """The side's result less a half, its deal's luck (its chance after the deal less a half), its
    net draws' luck (its own less the other side's) and the same by thirds of the game."""
    mine, theirs = game["seats"][seat]["whole"], game["seats"][1 - seat]["whole"]
    out = {
        "y": game["seats"][seat]["summary"]["result"] - 0.5,
        "deal": mine["deal"],
        "luck": mine["luck"] - theirs["luck"],
    }
    for i, (low, high) in enumerate(THIRDS):
        out[f"third{i}"] = sum(v for t, v in mine["each"] if low <= t < high) - sum(
            v for t, v in theirs["each"] if low <= t < high
        )
    return out


FITTED = {
    "whole_fitted": ("luck", "deal"),
    "whole_by_thirds": ("third0", "third1", "third2", "deal"),
    "whole_and_one_view": ("luck", "deal", "one_luck", "one_start"),
}


def rows_of(game: dict[str, Any], seat: int, one_starts: tuple[float, float]) -> dict[str, float]:
    row = whole_terms(game, seat)
    _, row["one_luck"], row["one_start"] = one_view_terms(game, seat, one_starts)
    return row


def fit(games: list[dict[str, Any]]) -> dict[str, Any]:
    """Least squares of the result on each figure's terms, one row a side, no intercept."""
    one = fit_one_view(games)
    rows = [rows_of(g, k, one["seat_starts"]) for g in games for k in (0, 1)]
    y = np.array([r["y"] for r in rows])
    out: dict[str, Any] = {"one_view": one}
    for name, terms in FITTED.items():
        x = np.array([[r[t] for t in terms] for r in rows])
        out[name] = [float(v) for v in np.linalg.lstsq(x, y, rcond=None)[0]]
    return out


def side_figures(game: dict[str, Any], seat: int, weights: dict[str, Any]) -> dict[str, float]:
    one = weights["one_view"]
    row = rows_of(game, seat, one["seat_starts"])
    result = row["y"] + 0.5
    b, c = one["draws_and_deal"]
    out = {
        "result": result,
        "draws_and_deal": result - b * row["one_luck"] - c * row["one_start"],
        "whole_face": game["seats"][seat]["whole"]["adjusted"],
    }
    for name, terms in FITTED.items():
        out[name] = result - sum(w * row[t] for w, t in zip(weights[name], terms, strict=True))
    return out


def report(args: argparse.Namespace) -> None:
    dumps = [load(Path(p)) for p in args.dumps]
    first = next(g["bots"][0] for g in dumps[0] if not is_mirror(g))
    rows: dict[str, dict[str, list[float]]] = {"bots": {}, "mirror": {}}
    fitted = []
    for i, games in enumerate(dumps):
        weights = fit([g for j, other in enumerate(dumps) if j != i for g in other])
        fitted.append(
            {"dump": Path(args.dumps[i]).name, **{k: v for k, v in weights.items() if k != "one_view"}}
        )
        matches = [g for g in games if not is_mirror(g)]
        mirrors = [g for g in games if is_mirror(g)]
        for name, chosen in (("bots", matches), ("mirror", mirrors)):
            for number, g in enumerate(chosen):
                a = number % 2 if is_mirror(g) else [s["bot"] for s in g["seats"]].index(first)
                fa, fb = side_figures(g, a, weights), side_figures(g, 1 - a, weights)
                for f in FIGURES:
                    rows[name].setdefault(f, []).append(fa[f] - fb[f])
    deals = [0.5 + g["seats"][0]["whole"]["deal"] for games in dumps for g in games]
    out: dict[str, Any] = {
        "first": first,
        "weights": fitted,
        "seat_0_mean_deal": round(statistics.fmean(deals), 4),
    }
    for name, figs in rows.items():
        out[name] = {
            f: {
                **summary(v, args.sample),
                "standard_deviation": round(statistics.stdev(v), 4),
                "games": len(v),
                "random_samples_separating": sampled_share(v, args.sample, args.samples, args.seed),
            }
            for f, v in figs.items()
        }
    print_json(out, args.json)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    lk = sub.add_parser("luck", help="add the whole-position judge's deal and luck to a dump's games")
    lk.add_argument("dump")
    lk.add_argument("--out", required=True)
    lk.add_argument("--workers", type=int, default=1)
    r = sub.add_parser("report", help="the figures, each dump's weights fitted on the others")
    r.add_argument("dumps", nargs="+")
    r.add_argument("--sample", type=int, default=50)
    r.add_argument("--samples", type=int, default=2000)
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--json")
    args = parser.parse_args()
    {"luck": luck, "report": report}[args.command](args)


if __name__ == "__main__":
    main()
