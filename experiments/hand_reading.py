#!/usr/bin/env python3
"""How close the search's sampled worlds come to the other hand, in games of ``heuristic``
against ``--opponent`` (2 players): per way of dealing the hidden cards, the jacks it deals the
other seat and how many cards of its true hand a sampled hand holds (all of them, and its natural
cards alone), on average over positions (every third turn from the tenth) and ``--samples``
worlds each. With ``--opponent heuristic`` every position counts (both seats are the heuristic);
otherwise only the heuristic's, about the other seat.

    nice -n 10 .venv/bin/python experiments/hand_reading.py --games 12 --seed 500
    nice -n 10 .venv/bin/python experiments/hand_reading.py --games 20 --seed 500 --posterior 0.5 2 8
    nice -n 10 .venv/bin/python experiments/hand_reading.py --games 15 --seed 700 --opponent greedy

The dealers: ``uniform`` (the unseen cards at random), ``inference`` (what a four left open
showed, :mod:`sequence_game.bots.inference`), ``reading`` (:mod:`sequence_game.bots.reading`,
``--turns`` plays back, ``--margin``), ``reading+jacks`` (the same with ``--jack-weights``),
``greedy reading`` (the reading that assumes a ``greedy`` player, no jack weights) and, per
``--posterior`` temperature, ``reading+jacks`` resampled by how well each world explains the other
seat's last play (:mod:`sequence_game.bots.posterior`, the ``pimc`` bot's ``posterior``).
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from collections.abc import Iterator

from sequence_game import GameConfig, GameState, new_game
from sequence_game.bots import make_bot
from sequence_game.bots.mcts import Determinizer
from sequence_game.bots.posterior import PosteriorDealer
from sequence_game.bots.reading import HandReader
from sequence_game.cards import ONE_EYED, TWO_EYED


def heuristic_positions(
    first_seed: int, games: int, opponent: str = "heuristic"
) -> Iterator[tuple[int, GameState]]:
    """Every position of ``games`` 2-player games of ``heuristic`` (seat 0) against ``opponent``
    (deals ``first_seed`` on), before its move, with its turn (0 at each game's start). The caller
    reads the state and must not change it. The other calibration scripts share these games."""
    for game in range(games):
        state = new_game(GameConfig(players=2), seed=first_seed + game)
        bots = [make_bot("heuristic", seed=0), make_bot(opponent, seed=1)]
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
    p.add_argument("--opponent", default="heuristic", help="the other seat's bot (seat 1)")
    p.add_argument(
        "--posterior",
        type=float,
        nargs="*",
        default=[],
        help="temperatures of worlds weighed by the last play",
    )
    p.add_argument("--proposals", type=int, default=8, help="candidate worlds a world kept, with --posterior")
    args = p.parse_args()
    rng = random.Random(args.seed)
    weights = (args.jack_weights[0], args.jack_weights[1])
    names = [
        "true hand",
        "uniform",
        "inference",
        "reading",
        "reading+jacks",
        "greedy reading",
        *(f"posterior T={t:g}" for t in args.posterior),
    ]
    jacks = TWO_EYED | ONE_EYED
    two: Counter[str] = Counter()
    one: Counter[str] = Counter()
    overlap: Counter[str] = Counter()
    natural: Counter[str] = Counter()
    positions = 0
    for turn, state in heuristic_positions(args.seed, args.games, args.opponent):
        if turn == 0:  # a game's own memory
            reader = HandReader(turns=args.turns, margin=args.margin)
            greedy = HandReader(turns=args.turns, margin=0.0, model="greedy")
        seat = state.current_seat
        view = state.view(seat)
        if turn >= 10 and turn % 3 == 0 and (seat == 0 or args.opponent == "heuristic"):
            other = 1 - seat
            true = Counter(state.hand(other))
            groups = reader.read(view)
            dealers: list[Determinizer | PosteriorDealer] = [
                Determinizer(view, rng, False),
                Determinizer(view, rng, True),
                Determinizer(view, rng, True, groups),
                Determinizer(view, rng, True, groups, weights),
                Determinizer(view, rng, True, greedy.read(view)),
            ]
            for t in args.posterior:
                source = Determinizer(view, rng, True, groups, weights)
                dealers.append(PosteriorDealer(source, view, rng, t, args.proposals))
            two[names[0]] += sum(n for c, n in true.items() if c in TWO_EYED)
            one[names[0]] += sum(n for c, n in true.items() if c in ONE_EYED)
            overlap[names[0]] += sum(true.values())
            natural[names[0]] += sum(n for c, n in true.items() if c not in jacks)
            for name, dealer in zip(names[1:], dealers, strict=True):
                for world in dealer.sample_batch(args.samples):
                    hand = Counter(world.hand(other))
                    common = hand & true
                    two[name] += sum(n for c, n in hand.items() if c in TWO_EYED) / args.samples
                    one[name] += sum(n for c, n in hand.items() if c in ONE_EYED) / args.samples
                    overlap[name] += sum(common.values()) / args.samples
                    natural[name] += sum(n for c, n in common.items() if c not in jacks) / args.samples
            positions += 1
    print(
        f"{positions} positions of {args.games} games of heuristic against {args.opponent} "
        f"(seeds {args.seed}-{args.seed + args.games - 1})"
    )
    print(
        f"{'dealer':18} {'two-eyed jacks':>15} {'one-eyed jacks':>15} {'cards of the true hand':>23} {'natural':>8}"
    )
    for name in names:
        print(
            f"{name:18} {two[name] / positions:15.3f} {one[name] / positions:15.3f} "
            f"{overlap[name] / positions:23.3f} {natural[name] / positions:8.3f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
