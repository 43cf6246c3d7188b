#!/usr/bin/env python3
"""CPU time of the ``heuristic`` bot's move, and a fingerprint of the moves it made, over whole
games of heuristic self-play (2 players by default). The fingerprint shows that a faster version
plays exactly the same moves: run it on two checkouts and compare, e.g.

    nice -n 5 .venv/bin/python experiments/heuristic_speed.py --games 6
    PYTHONPATH=/tmp/old/src nice -n 5 .venv/bin/python experiments/heuristic_speed.py --games 6

CPU time (``time.process_time``), so the figure depends little on the other processes' load.
``--rollouts N`` also times N rollouts to the end with the heuristic on every seat (the
planner's ``model=1``) from positions after 12-24 turns of heuristic self-play: what one
simulation of a heuristic-rollout search costs.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
import time

from sequence_game import GameConfig, new_game
from sequence_game.bots import make_bot
from sequence_game.bots.mcts import StaticEvaluator
from sequence_game.bots.planner import rollout_value


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bot", default="heuristic")
    p.add_argument("--games", type=int, default=6)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--rollouts", type=int, default=0, help="also time this many heuristic rollouts")
    args = p.parse_args()
    spent = 0.0
    moves = 0
    digest = hashlib.sha256()
    for game in range(args.games):
        state = new_game(GameConfig(players=args.players), seed=args.seed + game)
        bots = [make_bot(args.bot, seed=s) for s in range(args.players)]
        while not state.is_terminal():
            seat = state.current_seat
            view = state.view(seat)
            began = time.process_time()
            action = bots[seat].select_action(view)
            spent += time.process_time() - began
            moves += 1
            digest.update(action.to_bytes(4, "little"))
            state.apply(action, seat)
    print(
        f"{args.bot}: {moves} moves in {args.games} games, {1000 * spent / moves:.2f} ms CPU a move, "
        f"moves fingerprint {digest.hexdigest()[:16]}"
    )
    if args.rollouts:
        time_rollouts(args.rollouts, args.seed)
    return 0


def time_rollouts(count: int, seed: int) -> None:
    """CPU time of heuristic rollouts to the end, five from each of several mid-game positions."""
    spent = 0.0
    turns = 0
    done = 0
    game = 0
    while done < count:
        state = new_game(GameConfig(players=2), seed=100 + seed + game)
        bots = [make_bot("heuristic", seed=s) for s in range(2)]
        for _ in range(12 + 4 * (game % 4)):
            seat = state.current_seat
            state.apply(bots[seat].select_action(state.view(seat)), seat)
        for i in range(min(5, count - done)):
            world = state.copy()
            start_turn = world.turn
            began = time.process_time()
            rollout_value(world, 0, random.Random(i), 200, StaticEvaluator(), 0.0, 1)
            spent += time.process_time() - began
            turns += world.turn - start_turn
            done += 1
        game += 1
    print(
        f"{count} heuristic rollouts to the end: {1000 * spent / count:.0f} ms CPU each, {turns / count:.1f} turns each"
    )


if __name__ == "__main__":
    sys.exit(main())
