"""Drawing a card, and the reshuffle of the discard piles when the draw pile runs out (R5.4)."""

from __future__ import annotations

import random

from ..actions import EV_RESHUFFLE
from .fields import StateFields

__all__ = ["Drawing"]


class Drawing(StateFields):
    """A seat's draw (R5.3) and the reshuffle that may come before it (R5.4)."""

    __slots__ = ()

    def _draw(self, seat: int) -> None:
        deck = self._deck
        if not deck:
            self._reshuffle()
            if not deck:
                return  # every card is in a hand: nothing to draw
        self._hands[seat].append(deck.pop())
        self._drawn_since[seat] += 1

    def _reshuffle(self) -> None:
        """R5.4: all discard piles become the new draw pile."""
        pool = [c for pile in self._discards for c in pile]
        if not pool and self._reshuffle_source is None:
            return
        if self._reshuffle_source is not None:
            order = list(self._reshuffle_source(pool))
        else:
            order = pool
            random.Random(self._reshuffle_seed * 1_000_003 + self._reshuffles).shuffle(order)
        if not order:
            return
        self._reshuffles += 1
        for pile in self._discards:
            pile.clear()
        self._deck[:] = order[::-1]
        self._reshuffle_pool = tuple(sorted(order))
        self._drawn_since[:] = [0] * self._n  # in place: playout holds a reference
        self._history.append((EV_RESHUFFLE, tuple(order)))
