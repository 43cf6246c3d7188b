"""Reading the other seats' hands from their last plays (``inference.infer_hands``), from the
row's log of recent actions: the cards a play showed its seat did not hold."""

from __future__ import annotations

import numpy as np

from ...actions import DEAD, REMOVE, WILD
from ...board import NUM_CELLS
from ...cards import JC, JD
from .. import kernels as k
from .tables import CARD_OF, CELLS_5, LOWEST_ZERO_5, NUM_WINDOWS, POPCOUNT_5, WINDOW_LINE, WINDOW_START
from .windows import _window_bits
from .work import I_ABSENT, I_FRESH, I_INFERRED, I_LAST, I_SAVED


@k.kernel
def _absent(s: np.ndarray, iw: np.ndarray, side: int, action: int, made: int, need: int) -> int:
    """``inference._absent`` on the board as it was before ``action`` (the row, the log undone so
    far, its line masks with it): the cards, a bit each, that the play shows its seat did not
    hold; ``made``: sequences the play declared."""
    if action < REMOVE and made > 0:
        return 0  # it made a sequence: other fours may have been fillable too
    absent = 0
    fours = False
    own_at = k.O_LINES + side * k.NUM_LINES
    for w in range(NUM_WINDOWS):  # the side's threats (_threat_cell), from the line masks
        bits = (s[own_at + WINDOW_LINE[w]] >> WINDOW_START[w]) & 31
        if POPCOUNT_5[bits] == 4 and _window_bits(s, iw, side, w) >= 0:
            absent |= 1 << CARD_OF[CELLS_5[w, LOWEST_ZERO_5[bits]]]
            fours = True
    if not fours:
        return 0
    if action < WILD:
        absent &= ~(1 << CARD_OF[action])  # played on the card's other space: it held that card
    elif action < REMOVE:
        return absent  # it held a two-eyed jack and did not win with it
    if s[k.O_NSEQ + side] + 1 >= need:
        absent |= (1 << JD) | (1 << JC)  # a winning sequence is made with a two-eyed jack too (R7.1)
    return absent


@k.inline_kernel
def _set_owner(s: np.ndarray, cell: int, owner: int) -> None:
    """Put ``owner``'s chip (-1: none) on ``cell``, keeping the row's line masks (``O_LINES``) in
    step with its owners, as ``kernels.apply`` does."""
    old = s[k.O_OWNER + cell]
    for d in range(4):
        line = k.LINE_OF[cell, d]
        bit = 1 << k.LINE_BIT[cell, d]
        if old >= 0:
            s[k.O_LINES + old * k.NUM_LINES + line] &= ~bit
        if owner >= 0:
            s[k.O_LINES + owner * k.NUM_LINES + line] |= bit
    s[k.O_OWNER + cell] = owner


@k.kernel
def _infer(s: np.ndarray, iw: np.ndarray) -> None:
    """``inference.infer_hands`` from the row's log of recent actions: per other seat whose last
    R5.2 play is in the log, the cards that play showed it lacked (``I_ABSENT``) and the cards it
    took in since (``I_FRESH``). The board before each such play comes from undoing the later
    actions on the row itself (owners, line masks and sequence counts, put back at the end: the
    cells undone are listed at ``I_SAVED`` with their owners, put back in reverse). A removed chip
    placed before the log belongs to another side than the remover's: with three sides, which
    one is unknown, so the earlier plays of the two other sides are not read (a chip of either
    blocks the remover's side alike)."""
    players = s[k.I_PLAYERS]
    sides = s[k.I_SIDES]
    me = s[k.I_SEAT]
    need = s[k.I_NEED]
    for p in range(players):
        iw[I_LAST + p] = -1
        iw[I_INFERRED + p] = 0
    logged = s[k.I_LOGGED]
    first = logged - min(logged, k.LOG_SIZE)
    oldest = logged
    for e in range(logged - 1, first - 1, -1):
        at = k.O_LOG + 2 * (e & (k.LOG_SIZE - 1))
        seat = s[at]
        if seat != me and s[at + 1] < DEAD and iw[I_LAST + seat] < 0:
            iw[I_LAST + seat] = e
            oldest = e
    if oldest == logged:
        return
    for t in range(sides):
        iw[I_SAVED + NUM_CELLS + t] = s[k.O_NSEQ + t]
    undone = 0
    unknown = 0  # the sides that removed a chip whose owner the log does not show
    for e in range(logged - 1, oldest - 1, -1):
        at = k.O_LOG + 2 * (e & (k.LOG_SIZE - 1))
        seat = s[at]
        action = s[at + 1]
        side = seat % sides
        made = 0
        if action < REMOVE:
            cell = action % NUM_CELLS
            iw[I_SAVED + 2 * undone] = cell
            iw[I_SAVED + 2 * undone + 1] = s[k.O_OWNER + cell]
            undone += 1
            _set_owner(s, cell, -1)
            base = k.O_SEQ + side * k.MAX_SEQS
            while s[k.O_NSEQ + side] > 0:  # the sequences it declared are its side's latest
                w = s[base + s[k.O_NSEQ + side] - 1]
                holds = False
                for m in range(5):
                    if CELLS_5[w, m] == cell:
                        holds = True
                if not holds:
                    break
                s[k.O_NSEQ + side] -= 1
                made += 1
        elif action < DEAD:
            cell = action - REMOVE
            owner = -1
            for before in range(e - 1, first - 1, -1):
                b_at = k.O_LOG + 2 * (before & (k.LOG_SIZE - 1))
                if s[b_at + 1] < REMOVE and s[b_at + 1] % NUM_CELLS == cell:
                    owner = s[b_at] % sides
                    break
            if owner < 0:  # placed before the log: some other side's chip (R5.2), which one is unknown
                owner = (side + 1) % sides
                if sides > 2:
                    unknown |= 1 << side
            iw[I_SAVED + 2 * undone] = cell
            iw[I_SAVED + 2 * undone + 1] = s[k.O_OWNER + cell]
            undone += 1
            _set_owner(s, cell, owner)
        if e == iw[I_LAST + seat] and unknown & ~(1 << side) == 0:
            absent = _absent(s, iw, side, action, made, need)
            if absent != 0:
                fresh = 1  # the draw after the play (R5.3, automatic)
                for later in range(e + 1, logged):
                    l_at = k.O_LOG + 2 * (later & (k.LOG_SIZE - 1))
                    if s[l_at] == seat and s[l_at + 1] >= DEAD:
                        fresh += 1  # a dead card's replacement (R5.1), a stuck hand's draw (R5.5)
                iw[I_INFERRED + seat] = 1
                iw[I_ABSENT + seat] = absent
                iw[I_FRESH + seat] = min(fresh, s[k.O_HLEN + seat])
    for j in range(undone - 1, -1, -1):
        _set_owner(s, iw[I_SAVED + 2 * j], iw[I_SAVED + 2 * j + 1])
    for t in range(sides):
        s[k.O_NSEQ + t] = iw[I_SAVED + NUM_CELLS + t]
