"""The deal: who deals (R4.1), the shuffle (R1.2) and dealing the hands (R4.2).

Below the game state, which deals with :func:`check_deal` and :func:`deal_hands`;
:func:`~sequence_game.state.new_game` cuts and shuffles with the others.

>>> hands, pile, first = deal_hands(FULL_DECK, 1, 2, 7)
>>> first, hands[0][:3], len(pile)
(0, [0, 2, 4], 90)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from ..cards import DECK_SIZE, FULL_DECK, Card, rank_of
from ..messages import M_, with_rule

__all__ = ["check_deal", "cut_for_deal", "deal_hands", "shuffled_deck"]

_SORTED_DECK: Final = sorted(FULL_DECK)


def check_deal(deck: Sequence[Card], dealer: int, players: int) -> None:
    """Raise ``ValueError`` unless ``deck`` holds each card twice (R1.2) and ``dealer`` is a seat (R4.1)."""
    if sorted(deck) != _SORTED_DECK:
        raise ValueError(with_rule("R1.2", M_("the deck must hold each of the 52 cards exactly twice")))
    if not isinstance(dealer, int) or not 0 <= dealer < players:
        wrong = M_("dealer {dealer} is not a seat 0..{last}", dealer=repr(dealer), last=players - 1)
        raise ValueError(with_rule("R4.1", wrong))


def deal_hands(
    deck: Sequence[Card], dealer: int, players: int, hand_size: int
) -> tuple[list[list[Card]], list[Card], int]:
    """Deal ``deck`` (top card first) one card at a time from the dealer's left (R4.2).

    Returns the hands, the draw pile (top card last, to pop) and the first seat to play (R4.3).
    """
    pile = list(reversed(deck))
    hands: list[list[Card]] = [[] for _ in range(players)]
    first = (dealer + 1) % players
    for i in range(hand_size * players):
        hands[(first + i) % players].append(pile.pop())
    return hands, pile, first


def cut_for_deal(players: int, rng: random.Random) -> int:
    """R4.1: every player cuts a card; the lowest deals (aces high), ties among the lowest cut again."""
    contenders = list(range(players))
    rand = rng.random
    while True:
        taken: set[int] = set()
        ranks = []
        for _ in contenders:  # distinct cards of the 104, by position
            pos = int(rand() * DECK_SIZE)
            while pos in taken:
                pos = int(rand() * DECK_SIZE)
            taken.add(pos)
            ranks.append(rank_of(FULL_DECK[pos]))
        low = min(ranks)
        contenders = [s for s, r in zip(contenders, ranks, strict=True) if r == low]
        if len(contenders) == 1:
            return contenders[0]


def shuffled_deck(rng: random.Random) -> list[Card]:
    """The 104 cards in a uniform random order, top card first (R1.2)."""
    rand = rng.random
    return sorted(FULL_DECK, key=lambda _: rand())  # a uniform shuffle, twice as fast
