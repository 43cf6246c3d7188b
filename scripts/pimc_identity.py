#!/usr/bin/env python3
"""A digest of what the ``pimc`` search computes, to show that a speed change changed nothing.

``worlds``: the worlds ``mcts.Determinizer`` deals (20 at every fifth turn of seeded heuristic
games at 2, 3 and 4 players, with the reading, with and without jack weights). ``moves``: the
values of every candidate in every world, the move chosen, the rollouts spent and the random
state after each move of seeded games between ``pimc`` variants at a fixed rollout budget.
Run it on two trees and compare the digests; the seconds are for information (the machine may
be shared):

    nice -n 5 .venv/bin/python scripts/pimc_identity.py moves
    mkdir -p /tmp/old && git archive HEAD~1 | tar -x -C /tmp/old
    PYTHONPATH=/tmp/old/src nice -n 5 .venv/bin/python scripts/pimc_identity.py moves
"""

from __future__ import annotations

import argparse
import hashlib
import random
import time

from sequence_game import GameConfig, new_game
from sequence_game.bots import Limit, make_bot
from sequence_game.bots.heuristic import HeuristicBot
from sequence_game.bots.mcts import Determinizer
from sequence_game.bots.pimc import PimcBot
from sequence_game.bots.reading import HandReader

VARIANTS = (
    "pimc(policy=3, width=4, reading=8, margin=0, jack_weights=(2.2, 2.8))",
    "pimc(policy=3, width=4)",
    "pimc(threads=2, width=3)",
)


def worlds_digest() -> tuple[str, float]:
    digest = hashlib.sha256()
    spent = 0.0
    for players in (2, 3, 4):
        for game in range(6):
            state = new_game(GameConfig(players=players), seed=100 + game)
            bots = [HeuristicBot(seed=s) for s in range(players)]
            reader = HandReader(8, 0.0)
            while not state.is_terminal() and state.turn < 60:
                seat = state.seats_to_act()[0]
                view = state.view(seat)
                if state.turn % 5 == 0:
                    held = reader.read(view)
                    for weights in ((1.0, 1.0), (2.2, 2.8)):
                        dealer = Determinizer(
                            view, random.Random(state.turn * 7 + players), True, held, weights
                        )
                        began = time.perf_counter()
                        worlds = [dealer.sample() for _ in range(20)]
                        spent += time.perf_counter() - began
                        for w in worlds:
                            digest.update(repr((w._hands, w._deck, w._reshuffle_seed)).encode())
                state.apply(bots[seat].select_action(view, None))
    return digest.hexdigest(), spent


def moves_digest(simulations: int) -> tuple[str, float]:
    seen: list[str] = []
    choose = PimcBot._choose

    def spy(values: list[list[float]], confidence: float) -> int:
        seen.append(repr(values))
        return choose(values, confidence)

    PimcBot._choose = staticmethod(spy)  # type: ignore[method-assign]
    digest = hashlib.sha256()
    spent = 0.0
    for players in (2, 3):
        for game in range(3):
            state = new_game(GameConfig(players=players), seed=200 + game)
            bots = [make_bot(VARIANTS[(game + s) % 3], seed=game * 10 + s) for s in range(players)]
            while not state.is_terminal() and state.turn < 40:
                seat = state.seats_to_act()[0]
                began = time.perf_counter()
                action = bots[seat].select_action(state.view(seat), Limit(simulations=simulations))
                spent += time.perf_counter() - began
                bot = bots[seat]
                assert isinstance(bot, PimcBot)
                digest.update(repr((action, bot.last_simulations, bot.rng.getstate()[1][:5])).encode())
                state.apply(action)
    digest.update("".join(seen).encode())
    return digest.hexdigest(), spent


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("what", choices=["worlds", "moves"])
    p.add_argument("--simulations", type=int, default=300)
    args = p.parse_args()
    digest, spent = worlds_digest() if args.what == "worlds" else moves_digest(args.simulations)
    print(f"{args.what}: {digest} ({spent:.2f} s)")


if __name__ == "__main__":
    main()
