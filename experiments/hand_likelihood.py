#!/usr/bin/env python3
"""Does the other seat's last play say what it still holds? A calibration for the search.

The ``heuristic`` bot scores a play by the cards left in its hand (a line toward spaces it holds
cards for is worth more), so its play is evidence about those cards, beyond the negative evidence
:mod:`sequence_game.bots.reading` uses. This script deals candidate worlds as the search does
(reading and jack weights), rebuilds the other seat's hand at its last play (the cards dealt as
held since then plus the card it played), asks the heuristic what it would have played with that
hand, and weights each world by how far the actual play falls short of that choice
(``exp(-regret / T)``). Per dealer it prints the jacks dealt to the other seat and how many cards
of its true hand a world holds, as ``experiments/hand_reading.py`` does, over positions of
``heuristic`` against ``heuristic`` games (2 players), and how often the TRUE hand, rebuilt the
same way, makes the actual play the heuristic's choice (how faithful the rebuilding is).

    nice -n 10 .venv/bin/python experiments/hand_likelihood.py --games 12 --seed 500
"""

from __future__ import annotations

import argparse
import math
import random
from collections import Counter
from dataclasses import replace

from hand_reading import heuristic_positions  # the same games (experiments/ is on the path)

from sequence_game.actions import DEAD, DRAW
from sequence_game.bots.evaluation import Board
from sequence_game.bots.heuristic import HEURISTIC, ONE_EYED_SPEND, TWO_EYED_SPEND, score_plays
from sequence_game.bots.inference import boards_before, taken_since
from sequence_game.bots.mcts import Determinizer
from sequence_game.bots.reading import HandReader, card_plays
from sequence_game.cards import ONE_EYED, TWO_EYED, Card
from sequence_game.views import PlayerView


class Recording(Determinizer):
    """A :class:`Determinizer` that remembers which cards it dealt as held since the last play."""

    last_old: dict[int, list[int]]

    def _deal_old(self, shuffled: list[int], old: dict[int, list[int]]) -> list[int]:
        rest = super()._deal_old(shuffled, old)
        self.last_old = old
        return rest


def last_play(view: PlayerView, seat: int) -> int | None:
    """Index in the history of the seat's last R5.2 play, if nothing but draws and plays of
    others came after it that a rebuilt view would miss (no reshuffle since)."""
    for i in range(len(view.history) - 1, -1, -1):
        event = view.history[i]
        if event[0] < 0:
            return None  # a reshuffle or table event since: leave it
        if event[0] == seat and event[1] < DEAD:
            return i
    return None


def view_then(view: PlayerView, i: int, seat: int, hand: tuple[Card, ...]) -> tuple[PlayerView, Board]:
    """The seat's view (as far as it matters to the heuristic) just before ``history[i]``."""
    boards = boards_before(view, {i})
    assert boards is not None, "a position with its history"
    board = boards[i]
    piles = [list(p) for p in view.discards]
    for event in view.history[i:]:
        if event[0] >= 0 and event[1] < DRAW:
            piles[event[0]].pop()
    then = replace(
        view,
        seat=seat,
        hand=tuple(sorted(hand)),
        chips=board.chips,
        locked=board.locked,
        sequence_windows=board.windows,
        history=view.history[:i],
        discards=tuple(tuple(p) for p in piles),
        current_seat=seat,
        seat_to_play=seat,
    )
    return then, board


def plays_of(board: Board, side: int, hand: tuple[Card, ...]) -> list[int]:
    """The R5.2 plays of ``hand`` on ``board`` (dead cards aside)."""
    return sorted({a for card in set(hand) for a in card_plays(board, side, card)})


def regret(view: PlayerView, i: int, seat: int, hand: tuple[Card, ...]) -> float:
    """How far below the heuristic's best play (with ``hand``) the play made at ``history[i]`` is."""
    then, board = view_then(view, i, seat, hand)
    plays = plays_of(board, then.side, hand)
    action = view.history[i][1]
    if action not in plays:
        return math.inf
    scores = score_plays(then, board, plays, HEURISTIC, (TWO_EYED_SPEND, ONE_EYED_SPEND))
    return max(scores) - scores[plays.index(action)]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=12)
    p.add_argument("--seed", type=int, default=500, help="first deal's seed")
    p.add_argument("--samples", type=int, default=10, help="worlds a position per dealer")
    p.add_argument("--candidates", type=int, default=40, help="worlds weighted a position")
    p.add_argument("--temperature", type=float, nargs="+", default=[10.0, 30.0])
    p.add_argument("--turns", type=int, default=8)
    p.add_argument("--margin", type=float, default=0.0)
    p.add_argument(
        "--jack-weights", type=float, nargs=2, default=(2.2, 2.8), metavar=("TWO_EYED", "ONE_EYED")
    )
    args = p.parse_args()
    rng = random.Random(args.seed)
    weights = (args.jack_weights[0], args.jack_weights[1])
    names = ["true hand", "reading+jacks", *(f"likelihood T={t:g}" for t in args.temperature)]
    two: Counter[str] = Counter()
    one: Counter[str] = Counter()
    overlap: Counter[str] = Counter()
    ess: Counter[str] = Counter()
    true_regrets: list[float] = []
    positions = 0
    for turn, state in heuristic_positions(args.seed, args.games):
        if turn == 0:
            reader = HandReader(turns=args.turns, margin=args.margin)  # a game's own memory
        seat = state.current_seat
        view = state.view(seat)
        other = 1 - seat
        i = last_play(view, other) if turn >= 10 and turn % 3 == 0 else None
        if i is not None:
            auto = view.config.draw == "auto"
            size = view.hand_sizes[other]
            kept_n = size - taken_since(view.history, i, other, auto)
            played = view.history[i][2]
            true_hand = state.hand(other)
            truth = Counter(true_hand)
            # the true hand at the play: we cannot tell its fresh draw from the rest, so ask
            # whether SOME choice of kept cards makes the play the heuristic's choice
            true_regrets.append(
                min(
                    regret(view, i, other, (*true_hand[:k], *true_hand[k + 1 :], played))
                    for k in range(len(true_hand))
                )
                if kept_n == size - 1
                else math.nan
            )
            dealer = Recording(view, rng, True, reader.read(view), weights)
            worlds: list[tuple[Counter[Card], float]] = []
            for _ in range(args.candidates):
                world = dealer.sample()
                hand = world.hand(other)
                kept = dealer.last_old.get(other, [])
                r = regret(view, i, other, (*kept, played)) if len(kept) == kept_n else 0.0
                worlds.append((Counter(hand), r))
            positions += 1
            two[names[0]] += sum(n for c, n in truth.items() if c in TWO_EYED)
            one[names[0]] += sum(n for c, n in truth.items() if c in ONE_EYED)
            overlap[names[0]] += sum(truth.values())
            for name, temp in zip(names[1:], [math.inf, *args.temperature], strict=True):
                w = [1.0 if temp == math.inf else math.exp(-min(r, 1e6) / temp) for _, r in worlds]
                total = sum(w)
                if total <= 0:
                    w, total = [1.0] * len(worlds), float(len(worlds))
                ess[name] += total * total / sum(x * x for x in w)
                for hand, x in zip((h for h, _ in worlds), w, strict=True):
                    f = x / total
                    two[name] += f * sum(n for c, n in hand.items() if c in TWO_EYED)
                    one[name] += f * sum(n for c, n in hand.items() if c in ONE_EYED)
                    overlap[name] += f * sum((hand & truth).values())
    known = [r for r in true_regrets if not math.isnan(r)]
    exact = sum(1 for r in known if r <= 1e-6)
    print(
        f"{positions} positions of {args.games} heuristic games (seeds {args.seed}-{args.seed + args.games - 1}), "
        f"{args.candidates} candidate worlds each"
    )
    print(
        f"true hand rebuilt: the play made is the heuristic's choice in {exact} of {len(known)} "
        f"(median regret otherwise {sorted(known)[len(known) // 2] if known else 0:.1f})"
    )
    print(f"{'dealer':20} {'two-eyed':>9} {'one-eyed':>9} {'cards of true hand':>19} {'ESS':>6}")
    for name in names:
        print(
            f"{name:20} {two[name] / positions:9.3f} {one[name] / positions:9.3f} "
            f"{overlap[name] / positions:19.3f} {ess[name] / positions if name != names[0] else 0:6.1f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
