"""The fixed integer action space and its readable form.

Layout (``NUM_ACTIONS`` = 405), every range decoded with arithmetic:

=========  ==========================================================  ======
ids        meaning                                                     rule
=========  ==========================================================  ======
0-99       play the card printed on cell ``id`` and put a chip there   R5.2
100-199    play a two-eyed jack, chip on cell ``id - 100``             R5.2
200-299    play a one-eyed jack, remove the chip on cell ``id - 200``  R5.2
300-351    exchange dead card ``id - 300``                             R5.1
352-403    discard card ``id - 352`` (stuck hand or table-talk fine)   R5.5, R6.1
404        draw a card (manual-draw mode)                              R5.3
=========  ==========================================================  ======

>>> a = Action.parse("jd@e4")
>>> a, int(a)
(Action.parse('jd@e4'), 144)
>>> str(Action.decode(352 + parse_card("7h")))
'discard 7h'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final, Literal

from .board import LAYOUT, NUM_CELLS, Cell, cell_name, parse_cell
from .cards import JC, JD, JH, JS, Card, card_code, card_name, is_one_eyed, is_two_eyed, parse_card
from .messages import M_

PLACE: Final = 0
WILD: Final = 100
REMOVE: Final = 200
DEAD: Final = 300
DISCARD: Final = 352
DRAW: Final = 404
NUM_ACTIONS: Final = 405

ActionKind = Literal["place", "wild", "remove", "dead", "discard", "draw"]

# A game's history is a list of tuples. An action is ``(seat, action id, card)`` with seat >= 0 (a
# draw shows card -1); a table event has a negative first element and one payload. They live here,
# below ``state`` and ``views``, because the engine, the views and every reader of history share them.
EV_RESHUFFLE: Final = -1
"""``(EV_RESHUFFLE, new draw pile top first)`` (R5.4); a view shows only its size."""
EV_PENALTY: Final = -2
"""``(EV_PENALTY, side)``: a table-talk call upheld (R6.1)."""
EV_PASS: Final = -3
"""``(EV_PASS, seat)``: an empty hand with nothing owed passes (R5.5)."""
EV_LOST_DRAW: Final = -4
"""``(EV_LOST_DRAW, seat)``: a draw lost for good (R5.3)."""


@dataclass(frozen=True)
class Action:
    """A decoded action; ``int(action)`` gives its id back."""

    kind: ActionKind
    card: Card | None = None
    """The card played or discarded; for jacks, one of the two jacks of that kind."""
    cell: Cell | None = None

    def __int__(self) -> int:
        if self.kind == "place":
            return PLACE + self._cell()
        if self.kind == "wild":
            return WILD + self._cell()
        if self.kind == "remove":
            return REMOVE + self._cell()
        if self.kind == "dead":
            return DEAD + self._card()
        if self.kind == "discard":
            return DISCARD + self._card()
        return DRAW

    def _cell(self) -> Cell:
        if self.cell is None:
            raise ValueError(f"a {self.kind} action needs a cell")
        return self.cell

    def _card(self) -> Card:
        if self.card is None:
            raise ValueError(f"a {self.kind} action needs a card")
        return self.card

    @classmethod
    def decode(cls, action: int) -> Action:
        """The readable form of an action id."""
        if not isinstance(action, int) or not 0 <= action < NUM_ACTIONS:
            what = f"{action!r} (0..{NUM_ACTIONS - 1})"
            raise ValueError(M_("not an action id: {what}", what=what))
        group, rest = divmod(action, 100)
        if action < DEAD:
            if group == 0:
                if LAYOUT[rest] < 0:
                    return cls("place", None, rest)
                return cls("place", LAYOUT[rest], rest)
            return cls("wild", JD, rest) if group == 1 else cls("remove", JS, rest)
        if action < DISCARD:
            return cls("dead", action - DEAD)
        if action < DRAW:
            return cls("discard", action - DISCARD)
        return cls("draw")

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read the notation: ``7h@e4``, ``jd@e4`` (wild), ``js@e4`` (remove), ``dead 7h``,
        ``discard 7h``, ``draw``. Cells may also be written ``row,col``."""
        t = " ".join(text.strip().lower().split())
        if t == "draw":
            return cls("draw")
        word, _, rest = t.partition(" ")
        if word in ("dead", "discard") and rest:
            return cls(word, parse_card(rest))  # type: ignore[arg-type]
        card_text, at, cell_text = t.partition("@")
        if not at:
            raise ValueError(
                M_(
                    "cannot read action {what}: expected card@cell, 'dead CARD', 'discard CARD' or 'draw'",
                    what=repr(text),
                )
            )
        card, cell = parse_card(card_text), parse_cell(cell_text)
        if is_two_eyed(card):
            return cls("wild", card, cell)
        if is_one_eyed(card):
            return cls("remove", card, cell)
        if cell not in range(NUM_CELLS) or LAYOUT[cell] != card:
            raise ValueError(
                M_("{card} is not printed on {cell}", card=card_code(card), cell=cell_name(cell))
            )
        return cls("place", card, cell)

    def __str__(self) -> str:
        if self.kind == "draw":
            return "draw"
        if self.kind in ("dead", "discard"):
            return f"{self.kind} {card_name(self._card())}"
        cell = self._cell()
        if self.kind == "place":
            return f"{card_at_name(cell)}@{cell_name(cell)}"
        jack = self.card if self.card is not None else (JD if self.kind == "wild" else JS)
        return f"{card_name(jack)}@{cell_name(cell)}"

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"


def card_at_name(cell: Cell) -> str:
    return "jk" if LAYOUT[cell] < 0 else card_name(LAYOUT[cell])


def action_name(action: int) -> str:
    """The notation of an action id: ``action_name(144) == 'jd@e4'``."""
    return str(Action.decode(action))


def action_name_for(action: int, hand: Iterable[Card]) -> str:
    """The notation of an action as the holder of ``hand`` plays it: a jack action names the jack
    actually held (the engine plays the lower of two held jacks of a kind, as here).

    >>> action_name_for(WILD + 44, [parse_card("jc")])
    'jc@e4'
    """
    decoded = Action.decode(action)
    if decoded.kind in ("wild", "remove"):
        held = set(hand)
        first, second = (JD, JC) if decoded.kind == "wild" else (JS, JH)
        jack = first if first in held or second not in held else second
        decoded = Action(decoded.kind, jack, decoded.cell)
    return str(decoded)


def parse_action(text: str) -> int:
    """The action id of a notation string."""
    return int(Action.parse(text))
