"""Cards (R1.2, R1.3): a card is an int 0..51, ``rank * 4 + suit``.

Two decks are used, so a card value appears twice in the 104-card deck; the engine never needs
to tell the two copies apart.

>>> card_name(parse_card("7h"))
'7h'
>>> is_two_eyed(parse_card("jd")), is_one_eyed(parse_card("JS"))
(True, True)
"""

from __future__ import annotations

from typing import Final

from .messages import M_, CardCode

Card = int

RANKS: Final = "23456789tjqka"
SUITS: Final = "shdc"
SUIT_SYMBOLS: Final = {"s": "\u2660", "h": "\u2665", "d": "\u2666", "c": "\u2663"}

CARD_NAMES: Final[tuple[str, ...]] = tuple(r + s for r in RANKS for s in SUITS)
_CARD_BY_NAME: Final[dict[str, Card]] = {name: i for i, name in enumerate(CARD_NAMES)}

JACK_RANK: Final = RANKS.index("j")
JS: Final = JACK_RANK * 4 + SUITS.index("s")
JH: Final = JACK_RANK * 4 + SUITS.index("h")
JD: Final = JACK_RANK * 4 + SUITS.index("d")
JC: Final = JACK_RANK * 4 + SUITS.index("c")
TWO_EYED: Final = frozenset({JD, JC})  # wild: place a chip on any open space (R1.3)
ONE_EYED: Final = frozenset({JH, JS})  # remove an unlocked opponent chip (R1.3)
JACKS: Final = TWO_EYED | ONE_EYED

NUM_CARDS: Final = 52
DECK_SIZE: Final = 104
#: The two 52-card decks shuffled together (R1.2), in a fixed order.
FULL_DECK: Final[tuple[Card, ...]] = tuple(range(NUM_CARDS)) * 2


def parse_card(text: str) -> Card:
    """Read a card code such as ``"th"`` or ``"JD"`` (rank then suit, any case)."""
    card = _CARD_BY_NAME.get(text.strip().lower()) if isinstance(text, str) else None
    if card is None:
        raise ValueError(
            M_("not a card: {what} (expected rank 2-9/t/j/q/k/a then suit s/h/d/c)", what=repr(text))
        )
    return card


def card_code(card: Card) -> CardCode:
    """The card's code as a message param (``"7h"``; people see its symbol, ``7♥``)."""
    return CardCode(CARD_NAMES[card])


def card_name(card: Card) -> str:
    """The two-letter code of a card, lower case."""
    return CARD_NAMES[card]


def card_label(card: Card) -> str:
    """A human label with the suit symbol, such as ``10♥``."""
    rank = CARD_NAMES[card][0]
    return ("10" if rank == "t" else rank.upper()) + SUIT_SYMBOLS[CARD_NAMES[card][1]]


def rank_of(card: Card) -> int:
    """Rank index, 0 for a two up to 12 for an ace (the cutting order of R4.1)."""
    return card >> 2


def is_two_eyed(card: Card) -> bool:
    return card in TWO_EYED


def is_one_eyed(card: Card) -> bool:
    return card in ONE_EYED


def is_jack(card: Card) -> bool:
    return card >> 2 == JACK_RANK
