"""Look-up tables of the board for the kernels: cells, cards, windows and line masks.

Built once at import from :mod:`sequence_game.board` and :mod:`sequence_game.cards`; Numba
compiles them into the kernels as constants (they must stay module-level arrays).
"""

from __future__ import annotations

from typing import Final

import numpy as np

from ...board import LAYOUT, LINES, LINES_THROUGH, NUM_CELLS, WINDOW_CELLS
from ...cards import NUM_CARDS, ONE_EYED, TWO_EYED

NUM_WINDOWS: Final = len(WINDOW_CELLS)

LAYOUT_A: Final = np.array(LAYOUT, dtype=np.int64)
CELL_A: Final = np.array(
    [
        next(c for c in range(NUM_CELLS) if LAYOUT[c] == card) if card not in TWO_EYED | ONE_EYED else -1
        for card in range(NUM_CARDS)
    ],
    dtype=np.int64,
)
CELL_B: Final = np.array(
    [
        [c for c in range(NUM_CELLS) if LAYOUT[c] == card][1] if card not in TWO_EYED | ONE_EYED else -1
        for card in range(NUM_CARDS)
    ],
    dtype=np.int64,
)
#: 0 a normal card, 1 a two-eyed jack, 2 a one-eyed jack (R1.3).
KIND: Final = np.array(
    [1 if c in TWO_EYED else 2 if c in ONE_EYED else 0 for c in range(NUM_CARDS)], np.int64
)
WIN_CELLS: Final = np.array(WINDOW_CELLS, dtype=np.int64)
THROUGH_N: Final = np.array([len(t) for t in LINES_THROUGH], dtype=np.int64)
THROUGH: Final = np.full((NUM_CELLS, 20), -1, dtype=np.int64)
for _cell, _windows in enumerate(LINES_THROUGH):
    THROUGH[_cell, : len(_windows)] = _windows
#: Cells two windows share: two sequences of a side may share at most one (R3.3).
SHARED: Final = np.array([[(a & b).bit_count() for b in LINES] for a in LINES], dtype=np.int8)
CORNERS_IN: Final = np.array([sum(1 for c in w if LAYOUT[c] < 0) for w in WINDOW_CELLS], dtype=np.int64)


def _line_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per cell and direction (row, column, diagonal, anti-diagonal): the line it lies on, its
    bit in that line's mask and the bits where the five-cell windows through it start."""
    line_of = np.zeros((NUM_CELLS, 4), dtype=np.int64)
    bit_of = np.zeros((NUM_CELLS, 4), dtype=np.int64)
    starts = np.zeros((NUM_CELLS, 4), dtype=np.int64)
    for cell in range(NUM_CELLS):
        r, c = divmod(cell, 10)
        for d, (line, at) in enumerate(((r, c), (10 + c, r), (20 + r - c + 9, r), (39 + r + c, r))):
            line_of[cell, d] = line
            bit_of[cell, d] = at
            starts[cell, d] = sum(1 << b for b in range(max(at - 4, 0), at + 1))
    return line_of, bit_of, starts


NUM_LINES: Final = 58
LINE_OF, LINE_BIT, LINE_STARTS = _line_tables()


def _window_lines() -> tuple[np.ndarray, np.ndarray]:
    """Per window: the line it lies on and the bit of its first cell in that line's mask, so that
    ``(mask >> start) & 31 == 31`` says whether a side holds all five of its cells."""
    line_of = np.zeros(NUM_WINDOWS, dtype=np.int64)
    start = np.zeros(NUM_WINDOWS, dtype=np.int64)
    for w, cells in enumerate(WINDOW_CELLS):
        d = next(d for d in range(4) if len({int(LINE_OF[c, d]) for c in cells}) == 1)
        line_of[w] = LINE_OF[cells[0], d]
        start[w] = min(LINE_BIT[c, d] for c in cells)
    return line_of, start


WIN_LINE, WIN_START = _window_lines()
CARD_BIT: Final = np.array([1 << c for c in range(NUM_CARDS)], dtype=np.int64)
#: ``CARD_CELL[2 * card + k]``: the card's first (k = 0) or second cell; 0 for jacks (never read).
CARD_CELL: Final = np.array(
    [max(cells[card], 0) for card in range(NUM_CARDS) for cells in (CELL_A, CELL_B)], dtype=np.int64
)
#: The other cell of the same card (R1.1: every normal card has two); -1 for the corners.
PARTNER: Final = np.array(
    [-1 if LAYOUT[c] < 0 else int(CELL_A[LAYOUT[c]] + CELL_B[LAYOUT[c]] - c) for c in range(NUM_CELLS)],
    dtype=np.int64,
)
IS_CORNER: Final = np.array([1 if LAYOUT[c] < 0 else 0 for c in range(NUM_CELLS)], dtype=np.int64)
