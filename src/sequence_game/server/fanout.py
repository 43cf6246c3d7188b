"""What one event costs to send: every recipient's view built from one shared part, each distinct
message encoded once.

A move reaches every socket of its room, each with its own view (its own hand, R5.2). Building
``state.view(seat).to_dict()`` per socket redid the public part (board, discards, sequences, the
public history) for every seat, and ``json.dumps`` encoded every socket's message again. Here the
public part is built once per event from the engine's public API, a seat adds only its hand and
legal actions, and the message for a seat (or for all spectators) is encoded once with ``orjson``
and the text shared by that seat's sockets. The views are equal to the engine's own
``PlayerView.to_dict()`` (``tests/server/test_fanout.py`` checks every seat at every step of
random games).

>>> from sequence_game import GameConfig, new_game
>>> state = new_game(GameConfig(players=2), seed=1)
>>> SeatViews(state).view(0) == state.view(0).to_dict()
True
"""

from __future__ import annotations

from typing import Any

from ..cards import CARD_NAMES
from ..state import GameState

#: A card's name by its number: one C-level look-up a card (the discard piles are named anew at
#: every move, 80 cards and more by the end of a game).
_card = CARD_NAMES.__getitem__


class SeatViews:
    """The views of one game state: the public part built once, each seat's added on demand."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self._public: dict[str, Any] | None = None

    def public_part(self) -> dict[str, Any]:
        """Every field of a view that is the same for every seat (in ``to_dict``'s order)."""
        if self._public is None:
            s = self.state
            cfg = s.config
            sides = cfg.sides
            board: list[int | None] = [None] * 100
            for side in range(sides):
                mask = s.chips(side)
                while mask:
                    low = mask & -mask
                    board[low.bit_length() - 1] = side
                    mask ^= low
            locked_mask = s.locked
            locked = []
            while locked_mask:
                low = locked_mask & -locked_mask
                locked.append(low.bit_length() - 1)
                locked_mask ^= low
            outcome = s.outcome()
            self._public = {
                "players": cfg.players,
                "teams": sides,
                "draw": cfg.draw,
                "board": board,
                "locked": locked,
                "sequences": [[list(cells) for cells in s.sequences(side)] for side in range(sides)],
                "hand_sizes": s.hand_sizes(),
                "deck_size": s.deck_size,
                "discards": [list(map(_card, s.discard_pile(seat))) for seat in range(s.players)],
                "current_seat": s.current_seat,
                "seat_to_play": s.seat_to_play,
                "seats_to_act": s.seats_to_act(),
                "owed_draws": [s.owes_draw(seat) for seat in range(s.players)],
                "penalty_due": list(s.penalty_due),
                "dead_card_exchanged": s.dead_card_exchanged,
                "turn": s.turn,
                "winner": None if outcome is None else outcome.winner,
                "termination": None if outcome is None else outcome.termination.value,
            }
        return self._public

    def view(self, seat: int | None) -> dict[str, Any]:
        """``seat``'s view (``state.view(seat).to_dict()``), or a spectator's for ``None``
        (no hand, no legal actions, ``seat`` and ``side`` ``None``)."""
        public = self.public_part()
        if seat is None:
            return {"seat": None, "side": None, **public}
        hand = self.state.hand(seat)
        return {
            "seat": seat,
            "side": seat % public["teams"],
            **public,
            "hand": list(map(_card, hand)),
            "legal_actions": list(self.state.legal_actions(seat)),  # ids only (issue 41)
        }
