"""What one seat may know: its own hand and everything public (R5.2 discards are face up).

A :class:`PlayerView` is the only thing that should reach a player, a user interface, the
network or a fair bot. It holds no card of another hand and not the order of the draw pile.

>>> from sequence_game import GameConfig, new_game
>>> state = new_game(GameConfig(players=3), seed=2)
>>> view = state.view(0)
>>> len(view.hand), view.hand_sizes, view.deck_size
(6, (6, 6, 6), 86)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .actions import EV_RESHUFFLE, action_name_for
from .board import LINES, cells_of
from .cards import Card, card_name
from .config import GameConfig

# ``GameState.view`` builds a view; this module does not import ``state`` (imports flow one way).
# Public events: an action ``(seat, action, card)`` (a draw shows card -1), or a table event
# ``(kind, payload)`` with kind < 0 (``actions.EV_*``); a reshuffle shows only its size.
PublicEvent = tuple[int, ...]


@dataclass(frozen=True)
class PlayerView:
    """One seat's knowledge of a game."""

    config: GameConfig
    seat: int
    hand: tuple[Card, ...]
    """This seat's cards, sorted."""
    chips: tuple[int, ...]
    """Per side, the cells holding its chips (bit masks)."""
    locked: int
    """Cells whose chips belong to completed sequences (R3.5)."""
    sequence_windows: tuple[tuple[int, ...], ...]
    """Per side, its completed sequences as window numbers (see ``board``)."""
    hand_sizes: tuple[int, ...]
    deck_size: int
    discards: tuple[tuple[Card, ...], ...]
    """Every seat's face-up discard pile, oldest first."""
    current_seat: int
    seat_to_play: int
    seats_to_act: tuple[int, ...]
    owed_draws: tuple[bool, ...]
    penalty_due: tuple[int, ...]
    dead_card_exchanged: bool
    turn: int
    stuck_run: int
    history: tuple[PublicEvent, ...]
    reshuffles: int
    reshuffle_pool: tuple[Card, ...]
    """The cards of the last reshuffle (R5.4), sorted: a multiset everyone knows."""
    drawn_since_reshuffle: tuple[int, ...]
    """Cards each seat has drawn since the last reshuffle (or the deal)."""
    manual_draw_order: tuple[tuple[int, ...], ...]
    """Manual-draw bookkeeping (R5.3): the turn each owed draw is for, who played before each
    seat, and who played last."""
    legal_actions: tuple[int, ...]
    winner: int | None
    termination: str | None

    @property
    def side(self) -> int:
        return self.seat % self.config.sides

    @property
    def is_over(self) -> bool:
        return self.termination is not None

    def sequences(self, side: int) -> list[tuple[int, ...]]:
        """A side's sequences, each as its five cells."""
        return [tuple(cells_of(LINES[w])) for w in self.sequence_windows[side]]

    def chip_at(self, cell: int) -> int | None:
        bit = 1 << cell
        for side, mask in enumerate(self.chips):
            if mask & bit:
                return side
        return None

    def action_name(self, action: int) -> str:
        """The notation of one of this seat's actions, naming the jack it actually holds."""
        return action_name_for(action, self.hand)

    def info_key(self) -> tuple[Any, ...]:
        """A hashable key of this seat's information set (for search trees)."""
        return (self.seat, self.hand, self.history, self.penalty_due, self.dead_card_exchanged)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form, for user interfaces and the network."""
        return {
            "seat": self.seat,
            "side": self.side,
            "players": self.config.players,
            "teams": self.config.sides,
            "draw": self.config.draw,
            "hand": [card_name(c) for c in self.hand],
            "board": [self.chip_at(c) for c in range(100)],
            "locked": [c for c in range(100) if self.locked >> c & 1],
            "sequences": [[list(cells) for cells in self.sequences(s)] for s in range(self.config.sides)],
            "hand_sizes": list(self.hand_sizes),
            "deck_size": self.deck_size,
            "discards": [[card_name(c) for c in pile] for pile in self.discards],
            "current_seat": self.current_seat,
            "seat_to_play": self.seat_to_play,
            "seats_to_act": list(self.seats_to_act),
            "owed_draws": list(self.owed_draws),
            "penalty_due": list(self.penalty_due),
            "dead_card_exchanged": self.dead_card_exchanged,
            "turn": self.turn,
            # action ids only (actions.py): a name is a function of the id and the hand, and the
            # names were three quarters of a view's bytes on the wire (issue 41)
            "legal_actions": list(self.legal_actions),
            "winner": self.winner,
            "termination": self.termination,
        }


def public_history(history: Iterable[tuple[Any, ...]]) -> tuple[PublicEvent, ...]:
    """The history with what is hidden taken out: the order of reshuffled piles."""
    out: list[PublicEvent] = []
    for event in history:
        if event[0] == EV_RESHUFFLE and not isinstance(event[1], int):
            out.append((EV_RESHUFFLE, len(event[1])))
        else:
            out.append(event)
    return tuple(out)
