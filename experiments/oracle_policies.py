#!/usr/bin/env python3
"""The planner's rollout policies as players: each plays the TRUE state (it sees every hand and
the draw order: oracle, a measurement) against the ``heuristic`` bot on paired deals, to show how
strong the policy that plays out a candidate's future is on its own.

    nice -n 10 .venv/bin/python experiments/oracle_policies.py --policy informed --games 100
"""

from __future__ import annotations

import argparse
import random
import sys

from sequence_game import GameConfig, new_game
from sequence_game.bots import make_bot
from sequence_game.bots.mcts import greedy_policy
from sequence_game.bots.planner import informed_policy, tactical_policy
from sequence_game.bots.ratings import wilson_interval
from sequence_game.bots.tournament import schedule

POLICIES = {"greedy": greedy_policy, "tactical": tactical_policy, "informed": informed_policy}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--policy", choices=sorted(POLICIES), default="informed")
    p.add_argument("--opponent", default="heuristic")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    policy = POLICIES[args.policy]
    # the same deals and seats as `sequence tournament --seed S` (and experiments/oracle_strength.py)
    specs = schedule(["policy", args.opponent], GameConfig(players=2), args.games, seed=args.seed)
    wins = 0
    for spec in specs:
        state = new_game(spec.config, seed=spec.deal_seed, dealer=spec.config.players - 1)
        me = spec.bots.index("policy")
        opponent = make_bot(args.opponent, seed=spec.bot_seeds[1 - me])
        rng = random.Random(spec.bot_seeds[me])
        while not state.is_terminal() and state.turn < spec.max_turns:
            seat = state.current_seat
            view = state.view(seat)
            action = policy(state.copy(), rng) if seat == me else opponent.select_action(view)
            state.apply(action, seat)
        outcome = state.outcome()
        wins += outcome is not None and outcome.winner == me
    lo, hi = wilson_interval(wins, len(specs))
    print(
        f"{args.policy} (oracle) vs {args.opponent}: {wins}/{len(specs)} "
        f"{100 * wins / len(specs):.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
