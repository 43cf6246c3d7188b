"""The board (R1.1) and everything precomputed about it.

A cell is an int ``row * 10 + column``, row 0 at the top as in ``board.txt``. Sets of cells are
100-bit ints (bit ``cell``). A *window* is one of the 192 runs of five cells in a straight line;
windows are numbered in the order R3.4 uses to break ties: by direction (horizontal, vertical,
diagonal down-right, diagonal down-left), then by first cell.

>>> len(LINES), max(len(w) for w in LINES_THROUGH)
(192, 20)
>>> [cell_name(c) for c in CELLS_OF_CARD[parse_card("5d")]]
['f2', 'j8']
"""

from __future__ import annotations

from importlib import resources
from typing import Final

from .cards import CARD_NAMES, NUM_CARDS, Card, parse_card
from .messages import M_

Cell = int
SIZE: Final = 10
NUM_CELLS: Final = SIZE * SIZE
FULL: Final = (1 << NUM_CELLS) - 1
COLUMN_LETTERS: Final = "abcdefghij"


def _load_layout() -> tuple[Card, ...]:
    text = resources.files(__package__).joinpath("data/board.txt").read_text(encoding="utf-8")
    codes = text.split()
    if len(codes) != NUM_CELLS:
        raise RuntimeError(f"board.txt holds {len(codes)} spaces, not {NUM_CELLS}")
    return tuple(-1 if code == "jk" else parse_card(code) for code in codes)


#: The card printed on each cell, or -1 for a corner (free space).
LAYOUT: Final[tuple[Card, ...]] = _load_layout()
CORNER_CELLS: Final = tuple(c for c in range(NUM_CELLS) if LAYOUT[c] < 0)
CORNERS: Final = sum(1 << c for c in CORNER_CELLS)
#: Cells that can ever hold a chip.
PLAYABLE: Final = FULL & ~CORNERS

CELLS_OF_CARD: Final[tuple[tuple[Cell, ...], ...]] = tuple(
    tuple(c for c in range(NUM_CELLS) if LAYOUT[c] == card) for card in range(NUM_CARDS)
)
#: Bit mask of each card's cells (0 for jacks).
CARD_MASK: Final[tuple[int, ...]] = tuple(sum(1 << c for c in cells) for cells in CELLS_OF_CARD)

_DIRECTIONS: Final = ((0, 1), (1, 0), (1, 1), (1, -1))


def _windows() -> list[tuple[Cell, ...]]:
    out = []
    for dr, dc in _DIRECTIONS:
        for r in range(SIZE):
            for c in range(SIZE):
                end_r, end_c = r + 4 * dr, c + 4 * dc
                if 0 <= end_r < SIZE and 0 <= end_c < SIZE:
                    out.append(tuple((r + i * dr) * SIZE + c + i * dc for i in range(5)))
    return out


#: The cells of each window, in R3.4 order.
WINDOW_CELLS: Final[tuple[tuple[Cell, ...], ...]] = tuple(_windows())
LINES: Final[tuple[int, ...]] = tuple(sum(1 << c for c in w) for w in WINDOW_CELLS)
LINES_THROUGH: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(i for i, w in enumerate(WINDOW_CELLS) if c in w) for c in range(NUM_CELLS)
)

# Window counters (docs/fast.md, "the pure engine"): one 4-bit field per window in a big int per side. A field
# starts at 3 plus the corners in its window and gains one per chip, so its top bit (8) sets
# exactly when all five spaces count for the side.
COUNTER_START: Final = sum(
    (3 + sum(1 for c in w if LAYOUT[c] < 0)) << (4 * i) for i, w in enumerate(WINDOW_CELLS)
)
COUNTER_STEP: Final[tuple[int, ...]] = tuple(
    sum(1 << (4 * i) for i in LINES_THROUGH[c]) for c in range(NUM_CELLS)
)
COUNTER_FULL: Final[tuple[int, ...]] = tuple(
    sum(8 << (4 * i) for i in LINES_THROUGH[c]) for c in range(NUM_CELLS)
)


def cell_name(cell: Cell) -> str:
    """Column letter then row digit, row 0 at the top: cell 49 is ``"j4"``."""
    return f"{COLUMN_LETTERS[cell % SIZE]}{cell // SIZE}"


def parse_cell(text: str) -> Cell:
    """Read ``"j4"`` (column letter, row digit) or ``"4,9"`` (row, column)."""
    t = text.strip().lower()
    if "," in t:
        row_text, _, col_text = t.partition(",")
        if row_text.strip().isdigit() and col_text.strip().isdigit():
            row, col = int(row_text), int(col_text)
            if 0 <= row < SIZE and 0 <= col < SIZE:
                return row * SIZE + col
    elif len(t) == 2 and t[0] in COLUMN_LETTERS and t[1].isdigit():
        return int(t[1]) * SIZE + COLUMN_LETTERS.index(t[0])
    raise ValueError(
        M_("not a cell: {what} (expected a column a-j and a row 0-9, like 'e4')", what=repr(text))
    )


def cells_of(mask: int) -> list[Cell]:
    """The cells of a bit mask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def card_at(cell: Cell) -> str:
    """The code printed on a cell (``"jk"`` for a corner)."""
    return "jk" if LAYOUT[cell] < 0 else CARD_NAMES[LAYOUT[cell]]
