"""The rules in brief, numbered as in the project's rule book, for the rules screen and ``rules``.

Each rule is one paragraph without line breaks: the rules screen wraps it to the terminal's width
(a grid keeps the rule numbers in their own column) and the plain mode wraps it with
:mod:`textwrap`, so no width ever leaves a word alone on a line.
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from ..i18n import _, translate_rows

if TYPE_CHECKING:
    from rich.table import Table
    from rich.text import Text

TITLE = "SEQUENCE - THE RULES IN BRIEF (numbers as in the rule book)"

#: (rule number, text); a number with a dot is a part of the rule above it.
RULES: tuple[tuple[str, str], ...] = (
    (
        "R1",
        (
            "Equipment. A 10x10 board: every card except the jacks is printed twice; the four corners are "
            "free spaces. Two decks (104 cards). Two-eyed jacks (J♦ J♣) are wild; one-eyed jacks (J♥ J♠) "
            "remove a chip. Chips: blue (B), green (G), and red (R) for a third side."
        ),
    ),
    (
        "R2",
        (
            "Players. 2, 3, 4, 6, 8, 9, 10 or 12. Up to three play alone; more play in two or three equal "
            "teams, seated alternately (seat i plays for side i mod sides)."
        ),
    ),
    (
        "R3",
        (
            "Goal. Two sides need TWO sequences, three sides need ONE. A sequence is five in a row (across, "
            "down or diagonal) of your chips; a corner counts for everyone. Your second sequence may share "
            "one space with the first. Chips in a sequence are locked (*) and can't be removed."
        ),
    ),
    (
        "R4",
        (
            "The deal. 2 players get 7 cards; 3-4 get 6; 6 get 5; 8-9 get 4; 10-12 get 3. The player left "
            "of the dealer starts."
        ),
    ),
    ("R5", "A turn."),
    (
        "R5.1",
        (
            "First, if a card in your hand is dead (both its spaces are taken) you may exchange ONE dead "
            "card for a new one."
        ),
    ),
    (
        "R5.2",
        (
            "Play one card: a normal card puts a chip on one of its two spaces that is open; a two-eyed "
            "jack puts a chip on any open space; a one-eyed jack removes an opponent's chip that is not "
            "locked (and places nothing)."
        ),
    ),
    (
        "R5.3",
        (
            "Draw a card. (Manual-draw mode: draw yourself; a draw not taken before the next player has "
            "played and drawn is lost.)"
        ),
    ),
    ("R5.4", "An empty draw pile is refilled by shuffling all discard piles."),
    (
        "R5.5",
        (
            "With no legal play, discard a card of your choice and draw. A full round in which nobody can "
            "play ends the game drawn."
        ),
    ),
    (
        "R6",
        (
            "Conduct. No table talk between team mates: if the host upholds a call, every member of that "
            "team discards one card without drawing (R6.1)."
        ),
    ),
    ("R7", "End. The first side with its sequences wins (R7.1); a stuck round is a draw (R7.2)."),
)

#: (keys, what they do) for the rules screen of the Textual app.
KEYS: tuple[tuple[str, str], ...] = (
    ("1-9 or click", "choose a card from your hand"),
    ("arrows", "move the cursor on the board"),
    ("Tab / Space", "jump to the next highlighted space (Shift+Tab: the one before)"),
    ("a-j then 0-9", "type a space, such as e4: the chosen card is played there"),
    ("Enter or click", "play the chosen card on the cursor (with no card chosen: the card printed there)"),
    ("x", "exchange the chosen dead card (R5.1), or discard it when that is allowed (R5.5, R6.1)"),
    ("d", "draw, in manual-draw mode (R5.3)"),
    ("H", "hint: what the strongest bot would play from your view"),
    ("t", "uphold a table-talk call against a side (host, R6.1)"),
    ("s / l", "save the game as a record / the whole game log"),
    ("n / ?", "new game / these rules"),
    ("q", "quit (asks first; the game is saved for Continue)"),
)

#: The marks on the board and in the hand.
MARKS: tuple[tuple[str, str], ...] = (
    ("+ ×", "where the chosen card can go: + an open space, × a chip a one-eyed jack may remove"),
    ("B G R", "the chips of blue, green and red"),
    ("*", "a chip locked in a sequence (R3.5); the winning fives are lit up at the end"),
    ("◂", "the last move (also underlined)"),
    ("w", "after a jack in the hand: two-eyed, wild (R1.3)"),
    ("r", "after a jack in the hand: one-eyed, removes a chip (R1.3)"),
    ("†", "a dead card, struck through: both its spaces are taken (R5.1)"),
    ("new", "the card drawn last; the hand keeps its order, new cards join at the right"),
)


def rules_plain(width: int = 80) -> str:
    """The rules as text wrapped to ``width`` columns, each rule's lines hanging under its text."""
    lines = [_(TITLE), ""]
    for number, text in translate_rows(RULES):
        indent = "   " if "." in number else ""
        head = f"{indent}{number} "
        lines += textwrap.wrap(text, width=width, initial_indent=head, subsequent_indent=" " * len(head)) or [
            head.rstrip()
        ]
    return "\n".join(lines) + "\n"


def _grid(rows: tuple[tuple[str, str], ...], indent_subrules: bool = False) -> Table:
    from rich.table import Table

    grid = Table.grid(padding=(0, 1), expand=True)
    grid.add_column(no_wrap=True, style="bold")
    grid.add_column(ratio=1)
    for left, right in rows:
        if indent_subrules and "." in left:
            left = "  " + left
        grid.add_row(left, right)
    return grid


def rules_renderables() -> list[Text | Table]:
    """The rules screen: the rules, the keys and the marks, each a grid that wraps to any width.

    Rich loads here, not at import: the plain line mode shares this module and needs no Rich."""
    from rich.text import Text

    return [
        Text(_(TITLE), style="bold"),
        _grid(translate_rows(RULES), indent_subrules=True),
        Text("\n" + _("KEYS"), style="bold"),
        _grid(translate_rows(KEYS)),
        Text("\n" + _("MARKS"), style="bold"),
        _grid(translate_rows(MARKS)),
    ]
