"""What a play gains through the windows of its cell: the open-window gain
(``evaluation.action_gain``) and the reach-aware gain of a placement (``evaluation.aware_gain``)."""

from __future__ import annotations

import numpy as np

from ...actions import REMOVE, WILD
from ...board import NUM_CELLS
from .. import kernels as k
from .params import P_BLOCK, P_CENTRE, P_LINE
from .tables import (
    CARD_OF,
    CELLS_5,
    CENTRE,
    CORNER_BITS,
    NUM_WINDOWS,
    POPCOUNT_5,
    THROUGH,
    THROUGH_AT,
    THROUGH_N,
    WINDOW_LINE,
    WINDOW_START,
)
from .windows import _clashes, _opponent_weight, _stepped_weight, _window_bits
from .work import F_GAIN, F_REACH, I_OPEN


@k.kernel
def _open_gain(
    s: np.ndarray, iw: np.ndarray, side: int, action: int, four: float, p: np.ndarray, step: float
) -> float:
    """``evaluation.action_gain`` of an R5.2 play under the heuristic's weights (our fours worth
    ``four``), each opponent's windows weighted by :func:`_opponent_weight` with ``step``; the
    weights from the parameter array ``p`` (:data:`DEFAULT_PARAMS`). A window's count and whether another
    side's chip blocks it come from the row's line masks (a side's chips and the corners)."""
    sides = s[k.I_SIDES]
    gain = 0.0
    if action < REMOVE:
        cell = action if action < WILD else action - WILD
        for i in range(THROUGH_N[cell]):
            w = THROUGH[cell, i]
            for t in range(sides):
                bits = _window_bits(s, iw, t, w)
                if bits < 0:
                    continue
                n = POPCOUNT_5[bits]
                if t == side:
                    hi = four if n + 1 == 4 else p[P_LINE + n + 1]
                    lo = four if n == 4 else p[P_LINE + n]
                    gain += hi - lo
                else:
                    gain += p[P_BLOCK + n] * _stepped_weight(side, t, sides, step)
        return float(gain + p[P_CENTRE] * CENTRE[cell])
    cell = action - REMOVE
    owner = s[k.O_OWNER + cell]
    for i in range(THROUGH_N[cell]):
        w = THROUGH[cell, i]
        line = WINDOW_LINE[w]
        at = WINDOW_START[w]
        for t in range(sides):
            if _clashes(s, iw, t, w, 0):
                continue
            others = 0
            for o in range(sides):
                if o != t:
                    others |= s[k.O_LINES + o * k.NUM_LINES + line]
            # another side's chips in the window, the removed one included
            blocked = ((others & ~CORNER_BITS[line]) >> at) & 31
            n = POPCOUNT_5[(s[k.O_LINES + t * k.NUM_LINES + line] >> at) & 31]
            scale = 1.0 if t == side else -_stepped_weight(side, t, sides, step)
            if t == owner:
                if blocked:
                    continue
                if t == side:
                    hi = four if n == 4 else p[P_LINE + n]
                    lo = four if n - 1 == 4 else p[P_LINE + n - 1]
                    gain += scale * (lo - hi)
                else:
                    gain += scale * (p[P_BLOCK + n - 1] - p[P_BLOCK + n])
            else:
                if blocked & ~(1 << THROUGH_AT[cell, i]):
                    continue  # blocked by another side's chip once the removed one is gone
                if t == side:
                    gain += scale * (four if n == 4 else p[P_LINE + n])
                else:
                    gain += scale * p[P_BLOCK + n]
    return gain


@k.inline_kernel
def _window_gain(
    fw: np.ndarray,
    p: np.ndarray,
    w: int,
    t: int,
    n: int,
    cell: int,
    side: int,
    sides: int,
    four: float,
) -> float:
    """What a placement on ``cell`` is worth through window ``w``, open to side ``t`` with ``n``
    spaces counted: our line's step up (``four`` for a four) or, for an opponent's window, its
    block, each scaled by how reachable the window's other empty spaces are (``F_REACH``)."""
    f = 1.0
    for m in range(5):  # the other open spaces' reach (1 elsewhere, a product unchanged by it)
        c = CELLS_5[w, m]
        if c != cell:
            f *= fw[F_REACH + t * NUM_CELLS + c]
    if t == side:
        hi = four if n + 1 == 4 else p[P_LINE + n + 1]
        lo = four if n == 4 else p[P_LINE + n]
        return float((hi - lo) * f)
    return float(p[P_BLOCK + n] * f * _opponent_weight(side, t, sides))


@k.kernel
def _aware_gain(
    s: np.ndarray, iw: np.ndarray, fw: np.ndarray, side: int, cell: int, four: float, p: np.ndarray
) -> float:
    """``evaluation.aware_gain`` of a placement on ``cell`` under the heuristic's weights, each
    window scaled by how reachable its other missing spaces are (``F_REACH``)."""
    sides = s[k.I_SIDES]
    gain = 0.0
    for i in range(THROUGH_N[cell]):
        w = THROUGH[cell, i]
        for t in range(sides):
            n = iw[I_OPEN + t * NUM_WINDOWS + w]
            if n >= 0:
                gain += _window_gain(fw, p, w, t, n, cell, side, sides, four)
    return float(gain + p[P_CENTRE] * CENTRE[cell])


@k.kernel
def _aware_gains(
    s: np.ndarray, iw: np.ndarray, fw: np.ndarray, side: int, four: float, p: np.ndarray
) -> None:
    """:func:`_aware_gain` of every open cell at once, into ``F_GAIN`` (for a hand with a
    two-eyed jack, which may play on any of them): one pass over the open windows, each adding
    to its empty cells. Windows ascend and every cell's windows ascend (``LINES_THROUGH``), so
    each cell's terms are added in the same order as one by one: the same floats."""
    sides = s[k.I_SIDES]
    for c in range(NUM_CELLS):
        fw[F_GAIN + c] = 0.0
    for w in range(NUM_WINDOWS):
        for t in range(sides):
            n = iw[I_OPEN + t * NUM_WINDOWS + w]
            if n < 0 or n == 5:
                continue
            for e in range(5):
                cell = CELLS_5[w, e]
                if CARD_OF[cell] >= 0 and s[k.O_OWNER + cell] < 0:
                    fw[F_GAIN + cell] += _window_gain(fw, p, w, t, n, cell, side, sides, four)
    for c in range(NUM_CELLS):
        fw[F_GAIN + c] += p[P_CENTRE] * CENTRE[c]
