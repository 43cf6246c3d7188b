"""The scratch arrays of the heuristic's kernels: offsets in one int64 and one float64 array.

A kernel compiled without Numba's runtime cannot allocate: its caller passes these
(:func:`new_work`, one pair per thread), and the choosing kernels keep the window tables
(``I_OPEN`` to ``I_LISTN``) from one move to the next in them.
"""

from __future__ import annotations

from typing import Final

import numpy as np

from ...board import NUM_CELLS
from ...cards import NUM_CARDS
from .. import kernels as k
from .tables import NUM_WINDOWS

I_PLAYS: Final = 0  # up to 300 candidate R5.2 plays, ascending
I_ALLOWED: Final = I_PLAYS + 300  # 20: complete windows R3.3 allows (a declaration)
I_IDX: Final = I_ALLOWED + 20  # 20: a combination of them (R3.4)
I_NEW: Final = I_IDX + 20  # 20: the windows a placement declares
I_HAND: Final = I_NEW + 20  # 52: copies of each card in the seat's hand
I_UNSEEN: Final = I_HAND + NUM_CARDS  # 52: copies the seat cannot see (``worlds.unseen_cards``)
I_BEFORE_NEXT: Final = I_UNSEEN + NUM_CARDS  # 3: per side, cards held by seats acting before our next turn
I_OPEN: Final = I_BEFORE_NEXT + k.MAX_SIDES  # 3 x 192: per side and window, its count if open, else -1
I_MISSING: Final = I_OPEN + k.MAX_SIDES * NUM_WINDOWS  # 3 x 192: per side, a threat's missing cell or -1
I_THREATS: Final = I_MISSING + k.MAX_SIDES * NUM_WINDOWS  # 3 x 100: per side, its threats per missing cell
I_HOT: Final = I_THREATS + k.MAX_SIDES * NUM_CELLS  # 3 x 100: per side and cell, its windows there of 3+
I_LIST: Final = I_HOT + k.MAX_SIDES * NUM_CELLS  # 3 x 100: per side, the cells its threats miss
I_LISTN: Final = I_LIST + k.MAX_SIDES * NUM_CELLS  # 3: their numbers
I_AFTER: Final = I_LISTN + k.MAX_SIDES  # 100: the cells one side's threats miss after a play
I_COUNT: Final = I_AFTER + NUM_CELLS  # 100: threats per missing cell, counted afresh (after a sequence)
I_WAS: Final = I_COUNT + NUM_CELLS  # 20: per window through the played cell, its missing cell before
I_NOW: Final = I_WAS + 20  # 20: ... and after the play
I_MARK: Final = I_NOW + 20  # 100: cells listed for the current play (stamps)
I_STAMP: Final = I_MARK + NUM_CELLS  # 1
I_SAVED: Final = I_STAMP + 1  # 2 x 32 (of 100) + 3: the cells undone with their owners, sequence counts
I_LAST: Final = I_SAVED + NUM_CELLS + k.MAX_SIDES  # 12: per seat, the log entry of its last R5.2 play
I_INFERRED: Final = I_LAST + k.MAX_PLAYERS  # 12: per seat, 1 when its hand is inferred
I_ABSENT: Final = I_INFERRED + k.MAX_PLAYERS  # 12: per seat, the cards it did not hold (a bit per card)
I_FRESH: Final = I_ABSENT + k.MAX_PLAYERS  # 12: per seat, cards taken in since that play
I_KNOWN: Final = I_FRESH + k.MAX_PLAYERS  # 1: the sides the window tables (I_OPEN to I_LISTN) are for, 0 none
I_KNOWN_BOARD: Final = I_KNOWN + 1  # 100: the owners they were counted on
I_KNOWN_SEQ: Final = I_KNOWN_BOARD + NUM_CELLS  # 3 + 3 x 16: the sequences then: counts, windows
I_CHANGED: Final = I_KNOWN_SEQ + k.MAX_SIDES * (1 + k.MAX_SEQS)  # 100: the cells whose chip changed since
INT_WORK: Final = I_CHANGED + NUM_CELLS
MAX_REWINDOW: Final = 8
"""More changed cells than this, and the window tables are counted afresh (:func:`_window_tables`)."""
F_SCORES: Final = 0  # 300: the score of each candidate
F_RISK: Final = F_SCORES + 300  # 3: per opponent side, its completion risk before the play
F_REACH: Final = F_RISK + k.MAX_SIDES  # 3 x 100: per side, how reachable each open space is, else 1
F_GAIN: Final = F_REACH + k.MAX_SIDES * NUM_CELLS  # 100: per open cell, its placement's window gain
FLOAT_WORK: Final = F_GAIN + NUM_CELLS


def new_work() -> tuple[np.ndarray, np.ndarray]:
    """The scratch arrays :func:`choose_with` needs (one pair per thread; ``INT_WORK`` int64s and
    ``FLOAT_WORK`` float64s, for callers that allocate their own)."""
    return np.zeros(INT_WORK, dtype=np.int64), np.zeros(FLOAT_WORK, dtype=np.float64)
