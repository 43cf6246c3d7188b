"""The order a person sees their cards in: kept cards stay in place, new ones join at the right.

The engine keeps hands sorted; a player who has learned that digit 3 is the queen of spades would be
misled if the queen moved whenever a card arrived. The order belongs to the game, not to a screen, so
it survives a new screen, a resume (it is saved with the game) and the plain mode alike.

A card that leaves and comes back (play the 7♥, draw the other 7♥) is a new card: the history says
which card each seat gave up, so the one that arrives counts as drawn even when the hand's cards are
the same as before.

>>> from sequence_game import GameConfig, new_game
>>> state = new_game(GameConfig(players=2), seed=3)
>>> order = HandOrder()
>>> order.of(state, 0) == sorted(state.hand(0)), order.fresh(0)
(True, None)
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..actions import DRAW
from ..cards import Card, card_name, parse_card
from ..state import GameState


class HandOrder:
    """Each seat's cards in a stable order, and the card it drew last (marked ``new``)."""

    def __init__(self) -> None:
        self._orders: dict[int, list[Card]] = {}
        self._fresh: dict[int, Card | None] = {}
        self._seen: dict[int, int] = {}
        """Per seat: how much of the history its order already accounts for."""

    def of(self, state: GameState, seat: int) -> list[Card]:
        """``seat``'s cards in the order they are shown; new cards (drawn since the last call) last."""
        current = Counter(state.hand(seat))
        history = state.history
        old = self._orders.get(seat)
        if old is None:
            order = sorted(current.elements())
        else:
            kept = list(old)
            for event in history[self._seen.get(seat, 0) :]:
                if len(event) == 3 and event[0] == seat and event[1] < DRAW and event[2] in kept:
                    kept.remove(event[2])  # the card this seat gave up left the hand
            order = []
            for card in kept:
                if current[card] > 0:
                    order.append(card)
                    current[card] -= 1
            added = sorted(current.elements())
            if added:
                self._fresh[seat] = added[-1]
            order += added
        if self._fresh.get(seat) not in order:
            self._fresh[seat] = None
        self._orders[seat] = order
        self._seen[seat] = len(history)
        return order

    def fresh(self, seat: int) -> Card | None:
        """The card ``seat`` drew last, while it is still in the hand."""
        return self._fresh.get(seat)

    def to_json(self) -> dict[str, Any]:
        """The orders as card codes by seat, for a save (``{"0": ["7h", "qs"]}``)."""
        return {str(seat): [card_name(c) for c in order] for seat, order in sorted(self._orders.items())}

    @classmethod
    def from_json(cls, data: object, state: GameState) -> HandOrder:
        """The orders of a save; an entry that does not match the seat's hand is ignored (sorted)."""
        orders = cls()
        if not isinstance(data, dict):
            return orders
        for key, codes in data.items():
            if not (isinstance(key, str) and key.isdigit() and isinstance(codes, list)):
                continue
            seat = int(key)
            try:
                cards = [parse_card(c) for c in codes if isinstance(c, str)]
            except ValueError:
                continue
            if (
                seat < state.players
                and len(cards) == len(codes)
                and Counter(cards) == Counter(state.hand(seat))
            ):
                orders._orders[seat] = cards
                orders._seen[seat] = len(state.history)
        return orders
