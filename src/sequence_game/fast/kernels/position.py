"""A position set up from outside the kernels, such as a pure-engine state (``FastGame.from_state``).

:func:`load_position` writes the row from one flat int array; :func:`rebuild_lists` derives the
row's bookkeeping (line masks, counts, the swap-remove lists) from its board and piles.
"""

from __future__ import annotations

from typing import Final

import numpy as np

from ...board import NUM_CELLS
from ...cards import NUM_CARDS
from .jit import inline_kernel, kernel
from .layout import (
    COLUMNS,
    DCOUNT_AT,
    I_DEAD_DONE,
    I_DEALER,
    I_DECKLEN,
    I_DISCLEN,
    I_END,
    I_LAST_ACTION,
    I_LAST_CELL,
    I_LOGGED,
    I_NEED,
    I_NFREE,
    I_OCCUPIED,
    I_PLAYERS,
    I_SEAT,
    I_SIDES,
    I_STUCK,
    I_TURN,
    I_WINNER,
    MAX_HAND,
    MAX_SEQS,
    MAX_SIDES,
    O_CHIPS,
    O_DCOUNT,
    O_DECK,
    O_DISC,
    O_DSEAT,
    O_FREE,
    O_FREE_AT,
    O_HAND,
    O_HLEN,
    O_LINES,
    O_LOCKED,
    O_LOCKN,
    O_LOG,
    O_NSEQ,
    O_NUNLOCKED,
    O_OPEN,
    O_OWNER,
    O_SEQ,
    O_UNLOCKED,
    O_UNLOCKED_AT,
    PLAYABLE_CELLS,
    _list_add,
)
from .tables import IS_CORNER, LAYOUT_A, LINE_BIT, LINE_OF, NUM_LINES


@inline_kernel
def _set_corners(s: np.ndarray, side: int) -> None:
    """The corners count as every side's chips (R1.1): their bits in the side's line masks."""
    for c in range(NUM_CELLS):
        if IS_CORNER[c] == 1:
            for d in range(4):
                s[O_LINES + side * NUM_LINES + LINE_OF[c, d]] |= 1 << LINE_BIT[c, d]


@kernel
def rebuild_lists(s: np.ndarray) -> None:
    """Derive the line masks, chip counts, open counts per card, the lists of open cells and
    removable chips from the board (owners and locks) and the discard counts from the piles: for
    a position set up from outside, such as a pure-engine state."""
    for side in range(MAX_SIDES):
        s[O_CHIPS + side] = 0
        s[O_LOCKN + side] = 0
        s[O_LINES + side * NUM_LINES : O_LINES + (side + 1) * NUM_LINES] = 0
        _set_corners(s, side)
        for c in range(NUM_CELLS):
            if s[O_OWNER + c] == side:
                for d in range(4):
                    s[O_LINES + side * NUM_LINES + LINE_OF[c, d]] |= 1 << LINE_BIT[c, d]
    s[I_OCCUPIED] = 0
    for c in range(NUM_CELLS):
        o = s[O_OWNER + c]
        if o >= 0:
            s[O_CHIPS + o] += 1
            s[I_OCCUPIED] += 1
            if s[O_LOCKED + c] == 1:
                s[O_LOCKN + o] += 1
    for card in range(NUM_CARDS):
        s[O_OPEN + card] = 0
    s[I_NFREE] = 0
    for side in range(MAX_SIDES):
        s[O_NUNLOCKED + side] = 0
    s[O_DCOUNT : O_DCOUNT + 4 * COLUMNS] = 0
    for i in range(s[I_DISCLEN]):
        card = s[O_DISC + i]
        s[DCOUNT_AT[s[I_SIDES], s[O_DSEAT + i]] + card] += 1
        s[O_DCOUNT + 3 * COLUMNS + card] += 1
    for c in range(NUM_CELLS):
        if IS_CORNER[c] == 1:
            continue
        o = s[O_OWNER + c]
        if o < 0:
            s[O_OPEN + LAYOUT_A[c]] += 1
            _list_add(s, O_FREE, O_FREE_AT, I_NFREE, c)
        elif s[O_LOCKED + c] == 0:
            _list_add(s, O_UNLOCKED + o * PLAYABLE_CELLS, O_UNLOCKED_AT, O_NUNLOCKED + o, c)


#: Scalars at the head of a :func:`load_position` spec, in this order.
SPEC_HEAD: Final = (
    I_PLAYERS,
    I_SIDES,
    I_NEED,
    I_SEAT,
    I_DEAD_DONE,
    I_TURN,
    I_STUCK,
    I_END,
    I_WINNER,
    I_DEALER,
    I_LAST_CELL,
)
SPEC_HEAD_A: Final = np.array(SPEC_HEAD, dtype=np.int64)
MASK_BYTES: Final = 13  # a 100-bit board mask, little-endian


@kernel
def load_position(s: np.ndarray, spec: np.ndarray) -> None:
    """Set the row to a position given as one flat int array (``FastGame.from_state`` writes it):
    the ``SPEC_HEAD`` scalars; per side its chips, then the locked chips, as 13 little-endian
    bytes each; per side its sequence windows (count, then windows in declared order); per seat
    its hand (count, cards); the draw pile (count, top card last); per seat its discard pile
    (count, cards, oldest first); the latest actions (count, then seat and action of each).
    One call instead of a few dozen numpy operations: a search converts a world per rollout."""
    s[:] = 0
    s[O_OWNER : O_OWNER + NUM_CELLS] = -1
    at = 0
    for i in range(SPEC_HEAD_A.shape[0]):
        s[SPEC_HEAD_A[i]] = spec[at]
        at += 1
    players = s[I_PLAYERS]
    sides = s[I_SIDES]
    for side in range(sides + 1):  # the last mask: locked chips (R3.5)
        for b in range(MASK_BYTES):
            byte = spec[at]
            at += 1
            for bit in range(8):
                c = 8 * b + bit
                if byte >> bit & 1 and c < NUM_CELLS:
                    if side < sides:
                        s[O_OWNER + c] = side
                    else:
                        s[O_LOCKED + c] = 1
    for side in range(sides):
        n = spec[at]
        at += 1
        s[O_NSEQ + side] = n
        for i in range(n):
            s[O_SEQ + side * MAX_SEQS + i] = spec[at]
            at += 1
    for seat in range(players):
        n = spec[at]
        at += 1
        s[O_HLEN + seat] = n
        for i in range(n):
            s[O_HAND + seat * MAX_HAND + i] = spec[at]
            at += 1
    n = spec[at]
    at += 1
    s[I_DECKLEN] = n
    for i in range(n):
        s[O_DECK + i] = spec[at]
        at += 1
    d = 0
    for seat in range(players):
        n = spec[at]
        at += 1
        for _ in range(n):
            s[O_DISC + d] = spec[at]
            s[O_DSEAT + d] = seat
            d += 1
            at += 1
    s[I_DISCLEN] = d
    n = spec[at]
    at += 1
    for i in range(n):
        s[O_LOG + 2 * i] = spec[at]
        s[O_LOG + 2 * i + 1] = spec[at + 1]
        at += 2
    s[I_LOGGED] = n
    s[I_LAST_ACTION] = -1
    rebuild_lists(s)
