"""The board and the hand: two hand-drawn widgets, so clicks map straight to cells and cards.

Chips carry a letter (B, G, R) as well as a colour, and locked chips a ``*``, so the board reads
the same for colour-blind players and in a monochrome terminal.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from ..board import COLUMN_LETTERS, LAYOUT, SIZE
from ..cards import Card, card_label, is_jack, is_one_eyed, is_two_eyed
from ..i18n import N_, _
from .bindings import translate_bindings
from .controller import SIDE_LETTERS

CHIP_STYLES = ("bold white on #2457c5", "bold white on #1d7f38", "bold white on #b3261e")
RED_SUIT = "#ff6b6b"
BLACK_SUIT = "#e8e8e8"
TARGET_BG = "on #6b5a00"
CORNER_STYLE = "bold #d7b500"
#: The chips of a winning five, lit up at the end of the game (the letter still names the side).
WINNING_STYLE = "bold #1a1a1a on #ffd24d"
NEW_CARD_STYLE = "italic #9ad0ff"


def suit_style(card: Card) -> str:
    return RED_SUIT if card % 4 in (1, 2) else BLACK_SUIT


@dataclass
class BoardPicture:
    """What the board shows: chips per side, locked cells, the chosen card's targets, the last move."""

    chips: tuple[int, ...] = ()
    locked: int = 0
    targets: frozenset[int] = field(default_factory=frozenset)
    removing: bool = False
    """Targets are chips to remove (one-eyed jack) rather than spaces to fill."""
    last: int | None = None
    winning: int = 0
    """Cells of the winning sequences, as a bit mask (R7.1)."""


class BoardView(Widget, can_focus=True):
    """The 10x10 board: arrows move the cursor, Enter or a click chooses a cell."""

    BINDINGS = [  # noqa: RUF012 - Textual's convention
        Binding("up", "move(-10)", N_("Up"), show=False),
        Binding("down", "move(10)", N_("Down"), show=False),
        Binding("left", "move(-1)", N_("Left"), show=False),
        Binding("right", "move(1)", N_("Right"), show=False),
        Binding("enter", "choose", N_("Play"), show=True),
        Binding("tab,space", "cycle(1)", N_("Next space"), show=False),
        Binding("shift+tab", "cycle(-1)", N_("Previous space"), show=False),
    ]
    DEFAULT_CSS = """
    BoardView { width: 54; height: 13; border: round $primary-darken-2; padding: 0; }
    BoardView:focus { border: round $accent; }
    """

    cursor: reactive[int] = reactive(44)

    class CellChosen(Message):
        """A cell was clicked (``by_key`` false), or Enter pressed on it (``by_key`` true)."""

        def __init__(self, cell: int, by_key: bool = False) -> None:
            super().__init__()
            self.cell = cell
            self.by_key = by_key

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        translate_bindings(self)
        self.picture = BoardPicture()
        self.cell_width = 5
        self.row_height = 1
        self.playable = True
        """Whether Enter plays (the footer hides Play when the game is over or in a replay)."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("choose", "cycle"):
            return self.playable
        return True

    def action_cycle(self, delta: int) -> None:
        """Tab, Space (and Shift+Tab back): the cursor jumps to the next highlighted space."""
        targets = sorted(self.picture.targets)
        if not targets:
            return
        if delta > 0:
            after = [c for c in targets if c > self.cursor]
            self.cursor = after[0] if after else targets[0]
        else:
            before = [c for c in targets if c < self.cursor]
            self.cursor = before[-1] if before else targets[-1]

    def show(self, picture: BoardPicture) -> None:
        self.picture = picture
        self.refresh()

    def set_geometry(self, cell_width: int, row_height: int) -> None:
        """Wider cells and spaced rows on a big terminal (the app calls this on resize)."""
        self.cell_width, self.row_height = cell_width, row_height
        self.styles.width = 2 + SIZE * cell_width + 2
        self.styles.height = 1 + SIZE * row_height + 2
        self.refresh()

    def fit_terminal(self, width: int, height: int) -> None:
        """The board's size for a terminal of ``width`` x ``height``: wider cells from 110 columns,
        spaced rows from 34 lines (the game and the replay alike)."""
        self.set_geometry(7 if width >= 110 else 5, 2 if height >= 34 else 1)

    def action_move(self, delta: int) -> None:
        row, col = divmod(self.cursor, SIZE)
        if delta in (-1, 1):
            col = (col + delta) % SIZE
        else:
            row = (row + delta // SIZE) % SIZE
        self.cursor = row * SIZE + col

    def action_choose(self) -> None:
        self.post_message(self.CellChosen(self.cursor, by_key=True))

    def watch_cursor(self) -> None:
        self.refresh()

    def cell_at(self, x: int, y: int) -> int | None:
        """The cell under content offset ``(x, y)``, if any."""
        col = (x - 2) // self.cell_width if x >= 2 else -1
        row = (y - 1) // self.row_height if y >= 1 else -1
        if 0 <= row < SIZE and 0 <= col < SIZE:
            return row * SIZE + col
        return None

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        cell = self.cell_at(offset.x, offset.y)
        if cell is not None:
            self.cursor = cell
            self.post_message(self.CellChosen(cell))

    def render(self) -> Text:
        cw, pic = self.cell_width, self.picture
        pad = (cw - 5) // 2
        text = Text(no_wrap=True, overflow="crop")
        text.append("  " + "".join(f"{c:^{cw}}" for c in COLUMN_LETTERS), style="bold")
        for row in range(SIZE):
            text.append("\n")
            text.append(f"{row} ", style="bold")
            for col in range(SIZE):
                text.append_text(self._cell(row * SIZE + col, pad, pic))
            for _line in range(self.row_height - 1):
                text.append("\n")
        return text

    def _cell(self, cell: int, pad: int, pic: BoardPicture) -> Text:
        printed = LAYOUT[cell]
        bit = 1 << cell
        side = next((s for s, mask in enumerate(pic.chips) if mask & bit), None)
        locked = bool(pic.locked & bit)
        target = cell in pic.targets
        base = ""
        mark, mark_style = " ", ""
        if side is not None:
            base = WINNING_STYLE if pic.winning & bit else CHIP_STYLES[side]
            mark = SIDE_LETTERS[side]
        elif target:
            base = TARGET_BG
            mark, mark_style = "+", "bold #ffe066"
        tail, tail_style = " ", ""
        if target and pic.removing:  # what the one-eyed jack may take comes first (the last move
            tail, tail_style = "×", "bold #ffe066"  # stays underlined)
        elif cell == pic.last:  # before the lock: a play that completes a sequence keeps its mark
            tail, tail_style = "◂", "bold #ffe066"
        elif locked:
            tail, tail_style = "*", "bold"
        if base == WINNING_STYLE:
            tail_style = "bold"  # the marks keep the lit space's dark ink, so they stay readable
        out = Text(" " * pad, style=base)
        if printed < 0:
            # TRANSLATORS: a corner space on the board; at most 4 characters
            out.append(_("FREE")[:4].center(4), style=CORNER_STYLE)
        else:
            out.append(mark, style=f"{base} {mark_style}".strip())
            out.append(f"{card_label(printed):>3}", style=base or suit_style(printed))
        out.append(tail, style=f"{base} {tail_style}".strip())
        out.append(" " * (self.cell_width - 5 - pad), style=base)
        if cell == self.cursor:
            out.stylize("reverse")
        if cell == pic.last:
            out.stylize("underline")
        return out


class HandView(Widget):
    """One seat's cards, numbered, under a caption line; digits or a click choose one.

    The cards flow onto a second line when the row is too narrow, so no card is ever cut off. The
    marks are spelled out on the caption line when it has room (and always in the rules screen).
    """

    DEFAULT_CSS = """
    HandView { height: 3; width: 1fr; }
    """
    LEGEND = N_("w wild · r remove · † dead")
    """The hand's marks (the letters and the dagger are the same in every language)."""

    class CardChosen(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.cards: list[Card] = []
        self.dead: set[Card] = set()
        self.selected: int | None = None
        self.fresh: int | None = None
        """Index of the card drawn last, marked ``new``."""
        self.caption = _("Hand")
        self.hidden_text: str | None = None
        self._spans: list[tuple[int, int, int]] = []
        """(line, start, end) of each card, for clicks."""

    def show(
        self,
        cards: list[Card],
        dead: set[Card],
        selected: int | None,
        caption: str = "",
        hidden_text: str | None = None,
        fresh: int | None = None,
    ) -> None:
        self.cards, self.dead, self.selected = cards, dead, selected
        self.caption, self.hidden_text, self.fresh = caption or _("Hand"), hidden_text, fresh
        self.refresh()

    def card_text(self, index: int) -> Text:
        """``1 10♥†`` with its styles (and `` new`` for the card drawn last)."""
        card = self.cards[index]
        label = card_label(card)
        if is_two_eyed(card):
            label += "w"
        elif is_one_eyed(card):
            label += "r"
        elif card in self.dead:
            label += "†"
        style = suit_style(card)
        if card in self.dead and not is_jack(card):
            style += " strike dim"
        if index == self.selected:
            style += " reverse bold"
        text = Text()
        text.append(f"{index + 1}", style="bold #9ad0ff")
        text.append(f" {label} ", style=style)
        if index == self.fresh:
            text.append(_("new"), style=NEW_CARD_STYLE)
        return text

    def render(self) -> Text:
        width = max(self.size.width, 20)
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(f"{self.caption}:", style="bold")
        self._spans = []
        if self.hidden_text is not None:
            text.append(" " + self.hidden_text, style="italic")
            return text
        legend = _(self.LEGEND)
        if self.cards and len(self.caption) + 2 + len(legend) + 2 <= width:
            text.append(" " * (width - len(self.caption) - 1 - len(legend)))
            text.append(legend, style="dim")
        text.append("\n")
        if not self.cards:
            text.append(_("(no cards)"), style="italic")
            return text
        line, column = 1, 0
        for i in range(len(self.cards)):
            item = self.card_text(i)
            if column and column + len(item) > width:
                text.append("\n")
                line, column = line + 1, 0
            self._spans.append((line, column, column + len(item)))
            text.append_text(item)
            text.append("  ")
            column += len(item) + 2
        return text

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        for i, (line, start, end) in enumerate(self._spans):
            if line == offset.y and start <= offset.x < end:
                self.post_message(self.CardChosen(i))
                return
