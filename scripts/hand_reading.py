#!/usr/bin/env python3
"""How close the search's sampled worlds come to the other hand, in games of ``heuristic``
against ``heuristic`` (2 players): per way of dealing the hidden cards, the jacks it deals the
other seat and how many cards of its true hand a sampled hand holds, on average over positions
(every third turn from the tenth) and ``--samples`` worlds each.

    nice -n 10 .venv/bin/python scripts/hand_reading.py --games 12 --seed 500

The dealers: ``uniform`` (the unseen cards at random), ``inference`` (what a four left open
showed, :mod:`sequence_game.bots.inference`), ``reading`` (:mod:`sequence_game.bots.reading`,
``--turns`` plays back, ``--margin``) and ``reading+jacks`` (the same with ``--jack-weights``).
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from collections.abc import Iterator

from sequence_game import GameConfig, GameState, new_game
from sequence_game.bots import make_bot
from sequence_game.bots.mcts import Determinizer
from sequence_game.bots.reading import HandReader
from sequence_game.cards import ONE_EYED, TWO_EYED


def heuristic_positions(first_seed: int, games: int) -> Iterator[tuple[int, GameState]]:
    """Every position of ``games`` 2-player games of ``heuristic`` against ``heuristic`` (deals
    ``first_seed`` on), before its move, with its turn (0 at each game's start). The caller reads
    the state and must not change it. The other calibration scripts share these games."""
    for game in range(games):
        state = new_game(GameConfig(players=2), seed=first_seed + game)
        bots = [make_bot("heuristic", seed=s) for s in range(2)]
        turn = 0
        while not state.is_terminal():
            yield turn, state
            seat = state.current_seat
            state.apply(bots[seat].select_action(state.view(seat)), seat)
            turn += 1


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=12)
    p.add_argument("--seed", type=int, default=500, help="first deal's seed")
    p.add_argument("--samples", type=int, default=10, help="worlds sampled a position per dealer")
    p.add_argument("--turns", type=int, default=8)
    p.add_argument("--margin", type=float, default=0.0)
    p.add_argument(
        "--jack-weights", type=float, nargs=2, default=(2.2, 2.8), metavar=("TWO_EYED", "ONE_EYED")
    )
    args = p.parse_args()
    rng = random.Random(args.seed)
    weights = (args.jack_weights[0], args.jack_weights[1])
    names = ("true hand", "uniform", "inference", "reading", "reading+jacks")
    two: Counter[str] = Counter()
    one: Counter[str] = Counter()
    overlap: Counter[str] = Counter()
    positions = 0
    for turn, state in heuristic_positions(args.seed, args.games):
        if turn == 0:
            reader = HandReader(turns=args.turns, margin=args.margin)  # a game's own memory
        seat = state.current_seat
        view = state.view(seat)
        if turn >= 10 and turn % 3 == 0:
            other = 1 - seat
            true = Counter(state.hand(other))
            groups = reader.read(view)
            dealers = (
                Determinizer(view, rng, False),
                Determinizer(view, rng, True),
                Determinizer(view, rng, True, groups),
                Determinizer(view, rng, True, groups, weights),
            )
            two[names[0]] += sum(n for c, n in true.items() if c in TWO_EYED)
            one[names[0]] += sum(n for c, n in true.items() if c in ONE_EYED)
            overlap[names[0]] += sum(true.values())
            for name, dealer in zip(names[1:], dealers, strict=True):
                for _ in range(args.samples):
                    hand = Counter(dealer.sample().hand(other))
                    two[name] += sum(n for c, n in hand.items() if c in TWO_EYED) / args.samples
                    one[name] += sum(n for c, n in hand.items() if c in ONE_EYED) / args.samples
                    overlap[name] += sum((hand & true).values()) / args.samples
            positions += 1
    print(
        f"{positions} positions of {args.games} heuristic games (seeds {args.seed}-{args.seed + args.games - 1})"
    )
    print(f"{'dealer':15} {'two-eyed jacks':>15} {'one-eyed jacks':>15} {'cards of the true hand':>23}")
    for name in names:
        print(
            f"{name:15} {two[name] / positions:15.3f} {one[name] / positions:15.3f} {overlap[name] / positions:23.3f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
