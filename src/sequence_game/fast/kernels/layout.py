"""The position row: one flat ``int32`` row per game, its offsets and the empty board's row.

A game is a row of :data:`ROW` ints (offsets ``O_*`` of its arrays and ``I_*`` of its scalars,
below) plus one ``uint64`` random state, so that one game, a copy for a rollout, or a batch of
thousands (a 2-D array, one row per game) go through the same kernels.

Board bookkeeping: the owner of each cell, the locked cells (R3.5) and, per side, one bit mask
per line of the board (10 rows, 10 columns, 19 diagonals each way) of its chips plus the corners:
a placement sets one bit in each of its four lines and finds a full window through its cell with
a few shifts (as the C reference's bitboards do); only then does the exact declaration of
R3.3/R3.4 run (:mod:`.sequences`). The open cells and each side's removable chips are kept as
swap-remove lists (:func:`_list_add`, :func:`_list_del`), so that a random jack play is one draw.
"""

from __future__ import annotations

from typing import Final

import numpy as np

from ...board import NUM_CELLS
from ...cards import DECK_SIZE, NUM_CARDS
from .jit import index, inline_kernel
from .tables import IS_CORNER, KIND, LINE_BIT, LINE_OF, NUM_LINES

MAX_PLAYERS: Final = 12
MAX_SIDES: Final = 3
MAX_HAND: Final = 8  # R4.2: at most 7 dealt; auto-draw hands never grow
LOG_SIZE: Final = 32  # recent actions kept: more than two per seat of a round (observation planes)
MAX_SEQS: Final = 16  # per side: far more than one placement can declare (R3.4)
PLAYABLE_CELLS: Final = 96

# ------------------------------------------------------------- row layout

O_OWNER: Final = 0  # 100: -1 empty, else the side whose chip is there
O_LOCKED: Final = O_OWNER + NUM_CELLS  # 100: 1 where the chip is part of a sequence (R3.5)
O_LINES: Final = O_LOCKED + NUM_CELLS  # 3 x 58: per side, a mask per line of its chips + corners
O_NSEQ: Final = O_LINES + MAX_SIDES * NUM_LINES  # 3: sequences per side
O_SEQ: Final = O_NSEQ + MAX_SIDES  # 3 x 16: the windows of each side's sequences, declared order
O_HAND: Final = O_SEQ + MAX_SIDES * MAX_SEQS  # 12 x 8: cards in hand, unordered
O_HLEN: Final = O_HAND + MAX_PLAYERS * MAX_HAND  # 12
O_DECK: Final = O_HLEN + MAX_PLAYERS  # 104: the draw pile, top card last
O_DISC: Final = O_DECK + DECK_SIZE  # 104: face-up discards of all seats, oldest first
O_DSEAT: Final = O_DISC + DECK_SIZE  # 104: the seat of each discard
O_CHIPS: Final = O_DSEAT + DECK_SIZE  # 3: chips on the board per side
O_LOCKN: Final = O_CHIPS + MAX_SIDES  # 3: locked chips per side
O_OPEN: Final = O_LOCKN + MAX_SIDES  # 52: open cells per normal card, 0 when dead (R5.1); jacks 0
O_SCRATCH: Final = O_OPEN + NUM_CARDS  # 40: the open cells of a hand; the windows of a declaration
O_FREE: Final = O_SCRATCH + 40  # 96: the open cells, unordered (swap-remove list)
O_FREE_AT: Final = O_FREE + PLAYABLE_CELLS  # 100: where each open cell is in that list
O_UNLOCKED: Final = O_FREE_AT + NUM_CELLS  # 3 x 96: per side, its chips that may be removed (R3.5)
O_UNLOCKED_AT: Final = O_UNLOCKED + MAX_SIDES * PLAYABLE_CELLS  # 100: where a chip is in its list
O_NUNLOCKED: Final = O_UNLOCKED_AT + NUM_CELLS  # 3
O_LOG: Final = O_NUNLOCKED + MAX_SIDES  # 2 x LOG_SIZE: (seat, action) of the latest actions, a ring
COLUMNS: Final = NUM_CARDS + 1  # card counts have a column for the corners (always 0)
O_CARDS: Final = O_LOG + 2 * LOG_SIZE  # 53: the observation encoder's scratch (cards in a hand)
O_DCOUNT: Final = O_CARDS + COLUMNS  # 4 x 53: face-up discards per card, by side (0-2) and all (3)
O_SCALARS: Final = O_DCOUNT + 4 * COLUMNS
I_PLAYERS: Final = O_SCALARS
I_SIDES: Final = O_SCALARS + 1
I_NEED: Final = O_SCALARS + 2  # sequences to win (R3.1)
I_SEAT: Final = O_SCALARS + 3  # the seat to play
I_DEAD_DONE: Final = O_SCALARS + 4  # R5.1: a dead card was exchanged this turn
I_TURN: Final = O_SCALARS + 5
I_STUCK: Final = O_SCALARS + 6  # stuck discards and passes in a row (R5.5)
I_WINNER: Final = O_SCALARS + 7  # -1 none
I_END: Final = O_SCALARS + 8  # END_* below
I_DECKLEN: Final = O_SCALARS + 9
I_DISCLEN: Final = O_SCALARS + 10
I_OCCUPIED: Final = O_SCALARS + 11
I_RESHUFFLES: Final = O_SCALARS + 12
I_RESHUFFLED: Final = O_SCALARS + 13  # size of the last reshuffled pile (its order stays in O_DECK)
I_DEALER: Final = O_SCALARS + 14
I_LAST_ACTION: Final = O_SCALARS + 15  # -1 before the first
I_NFREE: Final = O_SCALARS + 16  # open cells (the length of the O_FREE list)
I_LOGGED: Final = O_SCALARS + 17  # actions ever written to O_LOG
I_LAST_CELL: Final = O_SCALARS + 18  # the cell of the latest chip placed or removed, -1 before
ROW: Final = O_SCALARS + 19

END_NONE: Final = 0
END_SEQUENCES: Final = 1  # R7.1
END_STUCK: Final = 2  # R7.2 via R5.5

HAND_SIZES: Final = np.array([0, 0, 7, 6, 6, 0, 5, 0, 4, 4, 3, 0, 3], dtype=np.int64)  # R4.2
#: Where a seat's discards are counted (``O_DCOUNT``), per number of sides: no division in ``_take``.
DCOUNT_AT: Final = np.array(
    [[O_DCOUNT + (seat % max(sides, 1)) * COLUMNS for seat in range(MAX_PLAYERS)] for sides in range(4)],
    dtype=np.int64,
)
#: The side of a seat (R2), ``SIDE_OF[sides, seat]``: a look-up instead of a division every turn.
SIDE_OF: Final = np.array(
    [[seat % max(sides, 1) for seat in range(MAX_PLAYERS)] for sides in range(4)], dtype=np.int64
)


def _empty_row() -> np.ndarray:
    """The row of an empty board before the deal: every cell open and in the list of open cells,
    the corners in every side's line masks (R1.1), two open cells per normal card; :func:`deal`
    starts from a copy."""
    s = np.zeros(ROW, dtype=np.int32)
    s[O_OWNER : O_OWNER + NUM_CELLS] = -1
    for c in range(NUM_CELLS):
        if IS_CORNER[c]:
            for side in range(MAX_SIDES):
                for d in range(4):
                    s[O_LINES + side * NUM_LINES + LINE_OF[c, d]] |= 1 << LINE_BIT[c, d]
    for card in range(NUM_CARDS):
        s[O_OPEN + card] = 2 if KIND[card] == 0 else 0
    n = 0
    for c in range(NUM_CELLS):
        if IS_CORNER[c] == 0:
            s[O_FREE + n] = c
            s[O_FREE_AT + c] = n
            n += 1
    s[I_NFREE] = n
    return s


EMPTY_ROW: Final = _empty_row()

# ------------------------------------------------------------------ the swap-remove lists


@inline_kernel
def _list_del(s: np.ndarray, items: int, at: int, count: int, cell: int) -> None:
    """Swap-remove ``cell`` from the list at ``items`` (positions at ``at``, length in ``s[count]``)."""
    i = index(s[at + cell])
    n = index(s[count] - 1)
    last = index(s[items + n])
    s[items + i] = last
    s[at + last] = i
    s[count] = n


@inline_kernel
def _list_add(s: np.ndarray, items: int, at: int, count: int, cell: int) -> None:
    n = index(s[count])
    s[items + n] = cell
    s[at + cell] = n
    s[count] = n + 1
