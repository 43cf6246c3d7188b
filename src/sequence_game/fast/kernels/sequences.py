"""Declaring sequences (R3.3, R3.4) once a placement fills a window of its side.

:func:`~.turns.apply` finds from the line masks (:mod:`.layout`) whether a chip completes a
window; only then does the exact declaration here run.
"""

from __future__ import annotations

import numpy as np

from .jit import kernel
from .layout import (
    END_SEQUENCES,
    I_END,
    I_NEED,
    I_WINNER,
    MAX_SEQS,
    O_LINES,
    O_LOCKED,
    O_LOCKN,
    O_NSEQ,
    O_NUNLOCKED,
    O_SCRATCH,
    O_SEQ,
    O_UNLOCKED,
    O_UNLOCKED_AT,
    PLAYABLE_CELLS,
    _list_del,
)
from .tables import IS_CORNER, NUM_LINES, SHARED, THROUGH, THROUGH_N, WIN_CELLS, WIN_LINE, WIN_START


@kernel
def _declare(s: np.ndarray, side: int, cell: int) -> None:
    """Declare the new sequences through ``cell`` that R3.3 allows, choosing as R3.4 says."""
    seqs = O_SEQ + side * MAX_SEQS
    lines = O_LINES + side * NUM_LINES
    nseq = s[O_NSEQ + side]
    allowed = s[O_SCRATCH : O_SCRATCH + 20]
    na = 0
    for k in range(THROUGH_N[cell]):
        w = THROUGH[cell, k]
        if (s[lines + WIN_LINE[w]] >> WIN_START[w]) & 31 == 31:  # the side's chips or corners
            ok = True
            for j in range(nseq):
                if SHARED[w, s[seqs + j]] > 1:
                    ok = False
                    break
            if ok:
                allowed[na] = w
                na += 1
    idx = s[O_SCRATCH + 20 : O_SCRATCH + 40]
    for size in range(na, 0, -1):
        for i in range(size):
            idx[i] = i
        while True:
            good = True
            for a in range(size):
                for b in range(a + 1, size):
                    if SHARED[allowed[idx[a]], allowed[idx[b]]] > 1:
                        good = False
                        break
                if not good:
                    break
            if good:
                for a in range(size):
                    w = allowed[idx[a]]
                    s[seqs + nseq] = w
                    nseq += 1
                    for m in range(5):
                        c = WIN_CELLS[w, m]
                        if IS_CORNER[c] == 0 and s[O_LOCKED + c] == 0:
                            s[O_LOCKED + c] = 1
                            s[O_LOCKN + side] += 1
                            _list_del(
                                s, O_UNLOCKED + side * PLAYABLE_CELLS, O_UNLOCKED_AT, O_NUNLOCKED + side, c
                            )
                s[O_NSEQ + side] = nseq
                if nseq >= s[I_NEED]:
                    s[I_END] = END_SEQUENCES
                    s[I_WINNER] = side
                return
            # the next combination in lexicographic order (as itertools.combinations)
            i = size - 1
            while i >= 0 and idx[i] == i + na - size:
                i -= 1
            if i < 0:
                break
            idx[i] += 1
            for j in range(i + 1, size):
                idx[j] = idx[j - 1] + 1
