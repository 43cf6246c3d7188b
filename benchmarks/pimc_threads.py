"""Rollouts a second of the ``pimc`` bot's compiled rollouts with the worlds split among threads
(``candidate_values(..., threads=N)``): what a second a move buys on a machine with several cores.

    .venv/bin/python benchmarks/pimc_threads.py --positions 6 --worlds 64 --threads 1 2

Prints, per thread count, rollouts a second over the same positions, worlds and seeds (the values
are the same whatever the split: tests/bots/test_pimc.py), and the machine's load average: the
figure means something only on otherwise idle cores.
"""

from __future__ import annotations

import argparse
import os
import random
import time

from sequence_game import GameConfig, new_game
from sequence_game.bots import make_bot
from sequence_game.bots.mcts import Determinizer
from sequence_game.fast.pimc import INFERRING, candidate_values, world_rows


def positions(count: int, seed: int) -> list:
    """Mid-game positions of heuristic games (turn 16 of each)."""
    out = []
    for g in range(count):
        state = new_game(GameConfig(players=2), seed=seed + g)
        bots = [make_bot("heuristic", seed=s) for s in range(2)]
        while state.turn < 16 and not state.is_terminal():
            seat = state.current_seat
            state.apply(bots[seat].select_action(state.view(seat)), seat)
        out.append(state)
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--positions", type=int, default=6)
    p.add_argument("--worlds", type=int, default=64, help="worlds a call (the bot's largest batch)")
    p.add_argument("--candidates", type=int, default=4)
    p.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    p.add_argument("--seed", type=int, default=40)
    args = p.parse_args()
    rng = random.Random(args.seed)
    jobs = []
    for state in positions(args.positions, args.seed):
        view = state.view(state.current_seat)
        dealer = Determinizer(view, rng, True)
        rows = world_rows([dealer.sample() for _ in range(args.worlds)])
        seeds = [rng.getrandbits(63) for _ in range(args.worlds)]
        plays = [a for a in view.legal_actions if a < 200][: args.candidates]
        jobs.append((rows, seeds, plays, view.side))
    candidate_values(*jobs[0][:3], jobs[0][3], INFERRING)  # compiled and warm
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for threads in args.threads:
        began = time.perf_counter()
        rollouts = 0
        for rows, seeds, plays, side in jobs:
            candidate_values(rows, seeds, plays, side, INFERRING, threads=threads)
            rollouts += len(plays) * len(seeds)
        spent = time.perf_counter() - began
        print(f"threads={threads}: {rollouts} rollouts in {spent:.2f} s, {rollouts / spent:.0f} a second")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
