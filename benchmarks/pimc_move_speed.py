"""Rollouts a second of a whole ``pimc`` move (dealing the worlds, the reading and the compiled
rollouts together), for several bot specs on the same positions, in alternating rounds.

``benchmarks/pimc_threads.py`` times the compiled rollouts alone; a move also reads the other
hands and deals every world in Python. Each round times every spec once on every position at a fixed rollout budget (so each spec does the
same work) and prints rollouts per second of wall clock; the machine may be shared, so compare
the specs within a round and read the spread across rounds.

    nice -n 5 .venv/bin/python benchmarks/pimc_move_speed.py --rounds 3 --simulations 1000 \\
        --bots "pimc(reading=8, margin=0, jack_weights=(2.2, 2.8))" "pimc(threads=2)"

Run it again with ``PYTHONPATH`` set to an older tree's ``src`` to compare commits.
"""

from __future__ import annotations

import argparse
import json
import time

from sequence_game import GameConfig, GameState, new_game
from sequence_game.bots import Limit, make_bot
from sequence_game.bots.heuristic import HeuristicBot
from sequence_game.bots.tournament import next_actor


def positions(count: int, seed: int, players: int) -> list[GameState]:
    """Positions of heuristic games at turns 4, 14, 24, ... (the middle of typical games)."""
    out: list[GameState] = []
    game = 0
    while len(out) < count:
        state = new_game(GameConfig(players=players), seed=seed + game)
        bots = [HeuristicBot(seed=seed + game * 10 + s) for s in range(players)]
        while not state.is_terminal() and len(out) < count:
            seat = next_actor(state)
            if state.turn % 10 == 4 and seat == state.current_seat:
                out.append(state.copy())
            state.apply(bots[seat].select_action(state.view(seat), None), seat)
            if state.turn > 44:
                break
        game += 1
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bots", nargs="+", default=["pimc()", "pimc(threads=2)"])
    p.add_argument("--positions", type=int, default=8)
    p.add_argument("--simulations", type=int, default=1000)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--seed", type=int, default=7)
    args = p.parse_args()
    states = positions(args.positions, args.seed, args.players)
    bots = {spec: make_bot(spec, seed=1) for spec in args.bots}
    for bot in bots.values():  # compile and warm the kernels outside the timing
        bot.select_action(states[0].view(states[0].current_seat), Limit(simulations=40))
    for r in range(args.rounds):
        row: dict[str, float] = {}
        for spec, bot in bots.items():
            rollouts = 0
            began = time.perf_counter()
            for state in states:
                bot.select_action(state.view(state.current_seat), Limit(simulations=args.simulations))
                rollouts += getattr(bot, "last_simulations", 0)
            row[spec] = round(rollouts / (time.perf_counter() - began))
        print(json.dumps({"round": r, "rollouts_per_second": row}), flush=True)


if __name__ == "__main__":
    main()
