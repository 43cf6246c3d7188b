"""Per side, the counts of its windows and the cells its threats (open fours) miss, kept in the
scratch arrays and counted again, after a move, only through the cells that changed."""

from __future__ import annotations

import numpy as np

from ...board import NUM_CELLS
from .. import kernels as k
from .tables import CELLS_5, LOWEST_ZERO_5, NUM_WINDOWS, POPCOUNT_5, THROUGH, THROUGH_N
from .windows import _window_bits
from .work import (
    I_CHANGED,
    I_HOT,
    I_KNOWN,
    I_KNOWN_BOARD,
    I_KNOWN_SEQ,
    I_LIST,
    I_LISTN,
    I_MISSING,
    I_OPEN,
    I_THREATS,
    MAX_REWINDOW,
)


@k.inline_kernel
def _list_threats(iw: np.ndarray, t: int) -> None:
    """The cells side ``t``'s threats miss (``I_THREATS`` above 0), ascending, to ``I_LIST``."""
    counts = I_THREATS + t * NUM_CELLS
    listed = I_LIST + t * NUM_CELLS
    ln = 0
    for c in range(NUM_CELLS):
        if iw[counts + c] > 0:
            iw[listed + ln] = c
            ln += 1
    iw[I_LISTN + t] = ln


@k.inline_kernel
def _count_window(s: np.ndarray, iw: np.ndarray, t: int, w: int) -> None:
    """Window ``w``'s terms for side ``t`` put into the tables: its count if open (``I_OPEN``), its
    missing cell if a threat (``I_MISSING``, counted in ``I_THREATS``) and, at three or more, a
    mark on each of its cells (``I_HOT``)."""
    opened = I_OPEN + t * NUM_WINDOWS
    missing = I_MISSING + t * NUM_WINDOWS
    iw[opened + w] = -1
    iw[missing + w] = -1
    bits = _window_bits(s, iw, t, w)
    if bits < 0:
        return
    n = POPCOUNT_5[bits]
    iw[opened + w] = n
    if n >= 3:
        hot = I_HOT + t * NUM_CELLS
        for m in range(5):
            iw[hot + CELLS_5[w, m]] += 1
    if n == 4:
        empty = CELLS_5[w, LOWEST_ZERO_5[bits]]
        iw[missing + w] = empty
        iw[I_THREATS + t * NUM_CELLS + empty] += 1


@k.kernel
def _windows_of(s: np.ndarray, iw: np.ndarray, t: int) -> None:
    """Side ``t``'s windows before the play: per window its count if open (``I_OPEN``, else -1),
    its missing cell if a threat (``I_MISSING``); per cell the threats it completes
    (``I_THREATS``), its windows of three or more (``I_HOT``) and the list of the cells threats
    miss, ascending (``I_LIST``). From the row's line masks: a few shifts a window."""
    counts = I_THREATS + t * NUM_CELLS
    iw[counts : counts + NUM_CELLS] = 0
    hot = I_HOT + t * NUM_CELLS
    iw[hot : hot + NUM_CELLS] = 0
    for w in range(NUM_WINDOWS):
        _count_window(s, iw, t, w)
    _list_threats(iw, t)


@k.kernel
def _rewindow(s: np.ndarray, iw: np.ndarray, t: int, cell: int) -> None:
    """:func:`_windows_of` for the windows through ``cell`` only, after its chip changed: each
    one's old terms taken out of the per-cell counts, its new ones put in (the list is left to
    :func:`_list_threats`)."""
    opened = I_OPEN + t * NUM_WINDOWS
    missing = I_MISSING + t * NUM_WINDOWS
    counts = I_THREATS + t * NUM_CELLS
    hot = I_HOT + t * NUM_CELLS
    for j in range(THROUGH_N[cell]):
        w = THROUGH[cell, j]
        if iw[opened + w] >= 3:
            for m in range(5):
                iw[hot + CELLS_5[w, m]] -= 1
        if iw[missing + w] >= 0:
            iw[counts + iw[missing + w]] -= 1
        _count_window(s, iw, t, w)


@k.kernel
def _window_tables(s: np.ndarray, iw: np.ndarray, incremental: bool) -> None:
    """:func:`_windows_of` for every side. They depend only on the board (its owners, with the
    line masks in step) and the sequences (R3.3), which are kept with them (``I_KNOWN``): with
    ``incremental``, when the sequences are those of the tables and a few cells changed, as
    from one turn of a rollout to the next (or none, from one world of a search to another),
    only the windows through those cells are counted again."""
    sides = s[k.I_SIDES]
    same = incremental and iw[I_KNOWN] == sides
    if same:
        for t in range(sides):
            nseq = s[k.O_NSEQ + t]
            if iw[I_KNOWN_SEQ + t] != nseq:
                same = False
            else:
                for j in range(nseq):
                    if iw[I_KNOWN_SEQ + k.MAX_SIDES + t * k.MAX_SEQS + j] != s[k.O_SEQ + t * k.MAX_SEQS + j]:
                        same = False
    changed = 0
    if same:
        for c in range(NUM_CELLS):
            if iw[I_KNOWN_BOARD + c] != s[k.O_OWNER + c]:
                if changed == MAX_REWINDOW:
                    same = False
                    break
                iw[I_CHANGED + changed] = c
                changed += 1
    if same:
        if changed > 0:
            for j in range(changed):
                cell = iw[I_CHANGED + j]
                for t in range(sides):
                    _rewindow(s, iw, t, cell)
                iw[I_KNOWN_BOARD + cell] = s[k.O_OWNER + cell]
            for t in range(sides):
                _list_threats(iw, t)
        return
    for t in range(sides):
        _windows_of(s, iw, t)
    for c in range(NUM_CELLS):
        iw[I_KNOWN_BOARD + c] = s[k.O_OWNER + c]
    for t in range(sides):
        iw[I_KNOWN_SEQ + t] = s[k.O_NSEQ + t]
        for j in range(s[k.O_NSEQ + t]):
            iw[I_KNOWN_SEQ + k.MAX_SIDES + t * k.MAX_SEQS + j] = s[k.O_SEQ + t * k.MAX_SEQS + j]
    iw[I_KNOWN] = sides
