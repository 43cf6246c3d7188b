#!/usr/bin/env python3
"""How long a bot really takes a move under a time limit: mean, p50, p99 and max per move,
and how many moves ran past the limit by more than 5% (the honest clock), and, for a bot
that counts them (``pimc``: ``last_simulations``), the rollouts a move, and how many moves the
budget was too small for the 2-player width (``pimc``'s ``two_player_rollouts``: ``last_narrowed``).

The positions come from whole games of the bot against ``--opponent`` (2 players, paired deal
seeds); only the measured bot's moves that needed a decision (not a forced draw or dead-card
exchange) are timed, from the call to the answer, as the tournament times them.

    nice -n 10 .venv/bin/python experiments/move_times.py --bot mcts --seconds 0.3 --games 4
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from sequence_game import GameConfig, new_game
from sequence_game.actions import DRAW
from sequence_game.bots import Limit, make_bot
from sequence_game.bots.base import forced_action, reveal_truth
from sequence_game.bots.tournament import next_actor


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bot", default="mcts", help="bot spec (oracle mode allowed: a measurement)")
    p.add_argument("--opponent", default="heuristic")
    p.add_argument("--seconds", type=float, default=0.3)
    p.add_argument("--games", type=int, default=4)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    limit = Limit(seconds=args.seconds)
    times: list[float] = []
    cpus: list[float] = []
    rollouts: list[int] = []
    narrowed: list[bool] = []
    for game in range(args.games):
        state = new_game(GameConfig(players=args.players), seed=args.seed * 1000 + game // 2)
        bots = [
            make_bot(args.bot if (seat + game) % 2 == 0 else args.opponent, seed=seat, allow_oracle=True)
            for seat in range(args.players)
        ]
        measured = {seat for seat in range(args.players) if (seat + game) % 2 == 0}
        while not state.is_terminal() and state.turn < 2000:
            seat = next_actor(state)
            view = state.view(seat)
            reveal_truth(bots[seat], state)
            start = time.perf_counter()
            cpu = time.process_time()
            action = bots[seat].select_action(view, limit)
            spent = time.perf_counter() - start
            if seat in measured and action != DRAW and forced_action(view) is None:
                times.append(spent)
                cpus.append(time.process_time() - cpu)
                done = getattr(bots[seat], "last_simulations", None)
                if done is not None:
                    rollouts.append(done)
                if hasattr(bots[seat], "last_narrowed"):
                    narrowed.append(bots[seat].last_narrowed)
            state.apply(action, seat)
    if not times:
        print("no timed moves")
        return 1
    print(f"{args.bot} at {args.seconds:g} s, {len(times)} moves")
    for what, values in (("wall clock", times), ("CPU time of this process", cpus)):
        values.sort()
        p99 = values[min(len(values) - 1, int(0.99 * len(values)))]
        over = sum(t > 1.05 * args.seconds for t in values)
        print(
            f"  {what}: mean {1000 * statistics.fmean(values):.1f} ms, p50 {1000 * values[len(values) // 2]:.1f} ms, "
            f"p99 {1000 * p99:.1f} ms, max {1000 * values[-1]:.1f} ms; "
            f"{over} over the limit + 5% ({100 * over / len(values):.1f}%)"
        )
    if rollouts:  # a bot that counts its work (pimc: rollouts)
        print(
            f"  work: mean {statistics.fmean(rollouts):.0f} simulations a move "
            f"({statistics.fmean(rollouts) / statistics.fmean(times):.0f} a second of wall clock), "
            f"fewest {min(rollouts)}, p10 {sorted(rollouts)[len(rollouts) // 10]}"
        )
    if any(narrowed):
        print(f"  {sum(narrowed)} of {len(narrowed)} moves searched the narrower width (two_player_rollouts)")
    print("  (the wall clock counts the time other processes held the cores: compare it on an idle machine)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
