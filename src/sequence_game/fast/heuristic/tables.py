"""Look-up tables of the board for the heuristic: windows, their cells and bits, the centre.

Built once at import; Numba compiles them into the kernels as constants (they must stay
module-level arrays). A window's bits are read off the row's line masks (``kernels.O_LINES``).
"""

from __future__ import annotations

from typing import Final

import numpy as np

from ...board import LAYOUT, LINES, LINES_THROUGH, NUM_CELLS, WINDOW_CELLS
from ...cards import NUM_CARDS, ONE_EYED, TWO_EYED
from .. import kernels as k

NUM_WINDOWS: Final = len(WINDOW_CELLS)
CELLS_5: Final = np.array(WINDOW_CELLS, dtype=np.int64)
THROUGH_N: Final = np.array([len(t) for t in LINES_THROUGH], dtype=np.int64)
THROUGH: Final = np.full((NUM_CELLS, 20), -1, dtype=np.int64)
for _cell, _windows in enumerate(LINES_THROUGH):
    THROUGH[_cell, : len(_windows)] = _windows
#: 1 where two windows share two or more spaces: both cannot be sequences of one side (R3.3).
CLASH: Final = np.array([[int((a & b).bit_count() >= 2) for b in LINES] for a in LINES], dtype=np.int8)
CARD_OF: Final = np.array(LAYOUT, dtype=np.int64)
"""The card printed on each cell, -1 on the corners."""
CENTRE: Final = np.array(
    [(4.5 - max(abs(c // 10 - 4.5), abs(c % 10 - 4.5)) - 0.5) / 4 for c in range(NUM_CELLS)]
)
"""``evaluation.CENTRE``: 0 at the rim, 1 in the middle four."""


def _window_lines() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per window, the line of the row's line masks (``kernels.O_LINES``: rows, columns,
    diagonals, anti-diagonals) it lies on and the bit its first cell has there (a window's cells
    ascend with the line's bits); per line, the bits of the corners on it."""
    line_of = np.zeros(NUM_WINDOWS, dtype=np.int64)
    start = np.zeros(NUM_WINDOWS, dtype=np.int64)
    corner_bits = np.zeros(k.NUM_LINES, dtype=np.int64)
    for w, cells in enumerate(WINDOW_CELLS):
        r, c = divmod(cells[0], 10)
        step = cells[1] - cells[0]
        line, at = {1: (r, c), 10: (10 + c, r), 11: (20 + r - c + 9, r), 9: (39 + r + c, r)}[step]
        line_of[w] = line
        start[w] = at
        for m, cell in enumerate(cells):
            if LAYOUT[cell] < 0:
                corner_bits[line] |= 1 << (at + m)
    return line_of, start, corner_bits


WINDOW_LINE, WINDOW_START, CORNER_BITS = _window_lines()
THROUGH_AT: Final = np.array(
    [
        [WINDOW_CELLS[THROUGH[c, j]].index(c) if THROUGH[c, j] >= 0 else 0 for j in range(20)]
        for c in range(NUM_CELLS)
    ],
    dtype=np.int64,
)
"""Per cell and window through it, the cell's place in the window (0-4)."""
POPCOUNT_5: Final = np.array([i.bit_count() for i in range(32)], dtype=np.int64)
LOWEST_ZERO_5: Final = np.array(
    [next((b for b in range(5) if not i >> b & 1), -1) for i in range(32)], dtype=np.int64
)
"""Per five-bit window of a line mask: how many spaces count, and which one is missing (of four)."""
JACK_KIND: Final = np.array([1 if c in TWO_EYED else 2 if c in ONE_EYED else 0 for c in range(NUM_CARDS)])
"""0 a natural card, 1 a two-eyed jack (wild), 2 a one-eyed jack (removes a chip), R1.3."""
