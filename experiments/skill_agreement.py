"""How often a player's play is the expert ranking's first choice: does that show skill, or kinship?

    python experiments/skill_agreement.py --games 400 --seed 1000 --workers 2 \\
        --pairs heuristic,greedy policy,greedy --json experiments/results/skill_agreement.json

Judged by rollouts of ``hard`` (``skill_search.py``), ``heuristic``'s and ``greedy``'s decisions lose
about the same chance, yet ``heuristic`` wins 60% of their games. One figure that the same games
do separate is how often the play made is the one the expert's ranking (the tuned heuristic's
numbers, ``rank='table'``) puts first: chess sites call the like "top engine move" agreement. But
``heuristic`` is the same kind of player as that ranking (its numbers before tuning), so agreement
may show kinship with the judge rather than skill. This script measures it on pairs of bots, each
deal twice with the seats swapped, and a mirror match of the first pair's first bot (seat 0 minus
seat 1), per game the first bot's share of agreeing decisions minus the second's:

- ``heuristic,greedy``: the pair the issue names;
- ``policy,greedy``: the trained network (``policy``, stronger than ``greedy``: 56.8% in the
  tournament of issue 15) is no kin of the ranking, so a figure of skill should still put it first.

Decisions are the moves where the player had a choice (not a draw, a dead card's discard or a
forced move) and did not win at once. The result is reported beside each, with the signal per game
(mean over standard deviation; above about 0.28 a figure separates 50 games at 95%) and how many
disjoint samples of ``--sample`` games separate.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

from analysis_skill import play  # two bots on one deal, a record
from skill_kinds import summary  # mean, interval, signal, samples
from skill_search import choices, plays  # a record's decisions, the plays the expert ranks

from sequence_game.bots import EXPERT, make_bot
from sequence_game.bots.heuristic import WIN
from sequence_game.bots.pimc import PimcBot


def agreements(job: tuple[tuple[str, str], int]) -> dict[str, Any]:
    """One game: for each decision, the mover and whether its play was the ranking's first."""
    bots, seed = job
    record = play(bots, seed)
    ranker = make_bot(EXPERT, seed=seed)
    assert isinstance(ranker, PimcBot)
    rows = []
    decisions, final = choices(record)
    for step, view in decisions:
        order, net = ranker.ranked(view, plays(view))
        first = order[0]
        if net[first] >= WIN / 2:
            continue  # a win now: no judgement in taking it
        rows.append((step.seat, step.action == first))
    outcome = final.outcome()
    return {"bots": bots, "seed": seed, "winner": outcome.winner if outcome else None, "rows": rows}


def side(game: dict[str, Any], seat: int) -> tuple[float, float]:
    """The seat's result and its share of decisions that agree with the ranking."""
    mine = [agree for s, agree in game["rows"] if s == seat]
    winner = game["winner"]
    result = 0.5 if winner is None else float(winner == seat)
    return result, statistics.fmean(mine) if mine else 0.0


def compare(games: list[dict[str, Any]], first: str | None, sample: int) -> dict[str, Any]:
    """First bot minus second (seat 0 minus seat 1 with ``first`` None): result and agreement."""
    result: list[float] = []
    agree: list[float] = []
    shares: dict[int, list[float]] = {0: [], 1: []}
    for g in games:
        a = 0 if first is None else g["bots"].index(first)
        (ra, fa), (rb, fb) = side(g, a), side(g, 1 - a)
        result.append(ra - rb)
        agree.append(fa - fb)
        shares[0].append(fa)
        shares[1].append(fb)
    return {
        "games": len(games),
        "agreement": [round(statistics.fmean(shares[0]), 4), round(statistics.fmean(shares[1]), 4)],
        "result": summary(result, sample),
        "agreement_difference": summary(agree, sample),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games of each pair (and of the mirror)")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--pairs", nargs="+", default=["heuristic,greedy", "policy,greedy"])
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--sample", type=int, default=50)
    parser.add_argument("--json", help="write the summary here too")
    args = parser.parse_args()
    deals = [args.seed + i for i in range((args.games + 1) // 2)]
    out: dict[str, Any] = {"seed": args.seed, "pairs": {}}
    mirror_bot = args.pairs[0].split(",")[0]
    with ProcessPoolExecutor(args.workers) as pool:
        for pair in args.pairs:
            a, b = pair.split(",")
            jobs = [((a, b) if k == 0 else (b, a), d) for d in deals for k in (0, 1)][: args.games]
            games = list(pool.map(agreements, jobs, chunksize=4))
            out["pairs"][pair] = compare(games, a, args.sample)
            print(pair, json.dumps(out["pairs"][pair]), flush=True)
        jobs = [((mirror_bot, mirror_bot), d + k * 100_000) for d in deals for k in (0, 1)][: args.games]
        games = list(pool.map(agreements, jobs, chunksize=4))
        out["mirror"] = {mirror_bot: compare(games, None, args.sample)}
        print("mirror", json.dumps(out["mirror"]), flush=True)
    text = json.dumps(out, indent=1)
    if args.json:
        Path(args.json).write_text(text + "\n")


if __name__ == "__main__":
    main()
