#!/usr/bin/env python3
"""How often a random two-player game ends drawn (R7.2), and how long it lasts: the pure engine's
``new_game(...).playout(rng)`` over seeds 0..N-1, with a 95% Wilson interval.

    .venv/bin/python experiments/draw_rate.py --games 10000

The figure of docs/performance.md ("0.93% of them end drawn").
"""

from __future__ import annotations

import argparse
import math
import random
import statistics

from sequence_game import GameConfig, new_game


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion ``k/n``."""
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0, help="first seed; game i uses seed + i")
    args = parser.parse_args()
    config = GameConfig(players=args.players)
    drawn, turns = 0, []
    for i in range(args.games):
        rng = random.Random(args.seed + i)
        state = new_game(config, rng=rng)
        state.playout(rng)
        outcome = state.outcome()
        assert outcome is not None
        drawn += outcome.winner is None
        turns.append(state.turn)
    low, high = wilson(drawn, args.games)
    print(
        f"{args.games} random {args.players}-player games (seeds {args.seed}..{args.seed + args.games - 1}): "
        f"{drawn} drawn = {100 * drawn / args.games:.2f}% [95% {100 * low:.2f}-{100 * high:.2f}%], "
        f"mean length {statistics.fmean(turns):.1f} turns"
    )


if __name__ == "__main__":
    main()
