#!/usr/bin/env python3
"""Why a fair search gains less than the oracle: on the same positions, how often planners that
see less agree with the oracle planner's choice (sampled worlds against the true
world, and a short horizon against a rollout to the end).

Positions come from ``heuristic`` self-play on the deals of ``--seed``; at every ``--every``-th
decision each planner chooses at a fixed budget. Prints the share of positions where the oracle
departs from the heuristic's play, and each planner's agreement with the oracle, with 95%
Wilson intervals.

    nice -n 10 .venv/bin/python experiments/oracle_agreement.py --games 4 --every 3
"""

from __future__ import annotations

import argparse
import sys

from sequence_game import GameConfig, new_game
from sequence_game.bots import Limit, make_bot
from sequence_game.bots.base import forced_action, reveal_truth
from sequence_game.bots.ratings import wilson_interval

ORACLE = "planner(oracle=True, model=1, width=4, max_width=4)"
OTHERS = {
    "heuristic (its first candidate)": ("heuristic", None),
    "oracle, heuristic rollouts cut at 10 turns": (
        "planner(oracle=True, model=1, width=4, max_width=4, horizon=10)",
        8,
    ),
    "fair PIMC, 4 sampled worlds, 10 turns": ("planner(model=1, width=4, horizon=10, confidence=0)", 16),
    "fair PIMC, 4 sampled worlds, to the end": ("planner(model=1, width=4, confidence=0)", 16),
}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=4)
    p.add_argument("--every", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    agree = dict.fromkeys(OTHERS, 0)
    positions = 0
    for game in range(args.games):
        state = new_game(GameConfig(players=2), seed=args.seed * 1_000_003 + game, dealer=1)
        players = [make_bot("heuristic", seed=s) for s in range(2)]
        decisions = 0
        while not state.is_terminal() and state.turn < 2000:
            seat = state.current_seat
            view = state.view(seat)
            if forced_action(view) is None:
                decisions += 1
                if decisions % args.every == 0:
                    oracle = make_bot(ORACLE, seed=game, allow_oracle=True)
                    reveal_truth(oracle, state)
                    best = oracle.select_action(view, Limit(simulations=8))
                    positions += 1
                    for label, (spec, sims) in OTHERS.items():
                        bot = make_bot(spec, seed=game, allow_oracle=True)
                        reveal_truth(bot, state)
                        limit = Limit(simulations=sims) if sims else None
                        agree[label] += bot.select_action(view, limit) == best
            state.apply(players[seat].select_action(view), seat)
    print(f"{positions} positions ({args.games} games of heuristic self-play, seed {args.seed})")
    for label, n in agree.items():
        lo, hi = wilson_interval(n, positions)
        print(
            f"  {label}: agrees with the oracle {n}/{positions}, {100 * n / positions:.0f}% [{100 * lo:.0f}, {100 * hi:.0f}]"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
