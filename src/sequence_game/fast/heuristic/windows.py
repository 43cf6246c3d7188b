"""Reading a side's windows off the row: whether one is open, blocked or clashes with a
sequence (R3.3), which sequences a placement declares (R3.4), and how much each opponent's
windows weigh."""

from __future__ import annotations

import numpy as np

from .. import kernels as k
from .params import OPPONENT_STEP
from .tables import (
    CARD_OF,
    CELLS_5,
    CLASH,
    CORNER_BITS,
    THROUGH,
    THROUGH_AT,
    THROUGH_N,
    WINDOW_LINE,
    WINDOW_START,
)
from .work import I_ALLOWED, I_IDX, I_NEW


@k.inline_kernel
def _clashes(s: np.ndarray, iw: np.ndarray, side: int, w: int, extra: int) -> bool:
    """Whether window ``w`` can no longer be a new sequence of ``side`` (R3.3): it shares two
    spaces with one of its sequences, or with one of the ``extra`` windows just declared."""
    base = k.O_SEQ + side * k.MAX_SEQS
    for j in range(s[k.O_NSEQ + side]):
        if CLASH[w, s[base + j]]:
            return True
    for j in range(extra):  # noqa: SIM110 - Numba compiles no generator expressions
        if CLASH[w, iw[I_NEW + j]]:
            return True
    return False


@k.inline_kernel
def _completes(s: np.ndarray, side: int, cell: int) -> bool:
    """Whether a chip of ``side`` on ``cell`` fills a window of its own (from the row's line
    masks, which do not show the chip yet): only then can it declare a sequence."""
    own_at = k.O_LINES + side * k.NUM_LINES
    for j in range(THROUGH_N[cell]):
        w = THROUGH[cell, j]
        if ((s[own_at + WINDOW_LINE[w]] >> WINDOW_START[w]) & 31) | (1 << THROUGH_AT[cell, j]) == 31:
            return True
    return False


@k.kernel
def _declares(s: np.ndarray, iw: np.ndarray, side: int, cell: int) -> int:
    """How many sequences a chip of ``side`` just placed on ``cell`` declares (R3.3, R3.4: as
    many as allowed, the first such set in window order), written to ``iw[I_NEW:]``. The chip
    is on the board already (its owner set; the line masks need not show it)."""
    if not _completes(s, side, cell):
        return 0
    na = 0
    for i in range(THROUGH_N[cell]):
        w = THROUGH[cell, i]
        full = True
        for m in range(5):
            c = CELLS_5[w, m]
            if CARD_OF[c] >= 0 and s[k.O_OWNER + c] != side:
                full = False
                break
        if full and not _clashes(s, iw, side, w, 0):
            iw[I_ALLOWED + na] = w
            na += 1
    for size in range(na, 0, -1):
        for i in range(size):
            iw[I_IDX + i] = i
        while True:
            good = True
            for a in range(size):
                for b in range(a + 1, size):
                    if CLASH[iw[I_ALLOWED + iw[I_IDX + a]], iw[I_ALLOWED + iw[I_IDX + b]]]:
                        good = False
                        break
                if not good:
                    break
            if good:
                for a in range(size):
                    iw[I_NEW + a] = iw[I_ALLOWED + iw[I_IDX + a]]
                return size
            i = size - 1
            while i >= 0 and iw[I_IDX + i] == i + na - size:
                i -= 1
            if i < 0:
                break
            iw[I_IDX + i] += 1
            for j in range(i + 1, size):
                iw[I_IDX + j] = iw[I_IDX + j - 1] + 1
    return 0


@k.inline_kernel
def _opponent_weight(side: int, t: int, sides: int) -> float:
    """``heuristic.opponent_weights``: 1 for the side right after us, 0.15 less per side later."""
    return _stepped_weight(side, t, sides, OPPONENT_STEP)


@k.inline_kernel
def _stepped_weight(side: int, t: int, sides: int, step: float) -> float:
    """How much side ``t``'s windows weigh to ``side``: 1 for the side right after it, ``step``
    less per side later (0 weighs every opponent alike, as ``greedy`` does)."""
    return 1.0 - step * (((t - side) % sides) - 1)


@k.inline_kernel
def _window_bits(s: np.ndarray, iw: np.ndarray, t: int, w: int) -> int:
    """Window ``w`` for side ``t`` as five bits of its line mask (the side's chips and the
    corners), or -1 when it is not open: another side's chip in it, or it cannot be a new
    sequence (R3.3)."""
    line = WINDOW_LINE[w]
    at = WINDOW_START[w]
    others = 0
    for o in range(s[k.I_SIDES]):
        if o != t:
            others |= s[k.O_LINES + o * k.NUM_LINES + line]
    if ((others & ~CORNER_BITS[line]) >> at) & 31:
        return -1  # another side's chip blocks it
    if _clashes(s, iw, t, w, 0):
        return -1
    return int((s[k.O_LINES + t * k.NUM_LINES + line] >> at) & 31)
