"""Applying an action (:func:`apply`): the chip, the discard, the draw and the next seat.

The trusted path: the action is known to be legal (:mod:`.moves`). A placement that fills a
window of its side declares sequences (:mod:`.sequences`); the turn ends with the automatic
draw (R5.3), a reshuffle when the pile is empty (R5.4), and passes of empty hands (R5.5).
"""

from __future__ import annotations

import numpy as np

from ...actions import DEAD, DISCARD, DRAW, REMOVE, WILD
from ...cards import JC, JD, JH, JS
from .dealing import below
from .jit import index, inline_kernel, kernel
from .layout import (
    COLUMNS,
    END_NONE,
    END_STUCK,
    I_DEAD_DONE,
    I_DECKLEN,
    I_DISCLEN,
    I_END,
    I_LAST_ACTION,
    I_LAST_CELL,
    I_LOGGED,
    I_NFREE,
    I_OCCUPIED,
    I_PLAYERS,
    I_RESHUFFLED,
    I_RESHUFFLES,
    I_SEAT,
    I_SIDES,
    I_STUCK,
    I_TURN,
    LOG_SIZE,
    MAX_HAND,
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
    O_LOG,
    O_NUNLOCKED,
    O_OPEN,
    O_OWNER,
    O_UNLOCKED,
    O_UNLOCKED_AT,
    PLAYABLE_CELLS,
    SIDE_OF,
    _list_add,
    _list_del,
)
from .sequences import _declare
from .tables import LAYOUT_A, LINE_BIT, LINE_OF, LINE_STARTS, NUM_LINES


@inline_kernel
def _take(s: np.ndarray, seat: int, side: int, card: int) -> None:
    """Move ``card`` (its first copy) from the seat's hand to the face-up discards (R5.2).

    The search looks at every card of the hand, from the last, instead of stopping at the first
    copy: where the card sits is random, so an early exit was a mispredicted branch a turn."""
    hand = s[O_HAND + seat * MAX_HAND : O_HAND + (seat + 1) * MAX_HAND]
    h = index(s[O_HLEN + seat] - 1)
    at = 0
    for i in range(h, -1, -1):
        if hand[i] == card:
            at = i
    hand[at] = hand[h]
    s[O_HLEN + seat] = h
    d = index(s[I_DISCLEN])
    s[O_DISC + d] = card
    s[O_DSEAT + d] = seat
    s[I_DISCLEN] = d + 1
    s[O_DCOUNT + side * COLUMNS + card] += 1
    s[O_DCOUNT + 3 * COLUMNS + card] += 1


@inline_kernel
def _holds(s: np.ndarray, seat: int, card: int) -> bool:
    base = O_HAND + seat * MAX_HAND
    for i in range(s[O_HLEN + seat]):  # noqa: SIM110 - Numba compiles no generator expressions
        if s[base + i] == card:
            return True
    return False


@kernel
def _reshuffle(s: np.ndarray, rs: np.ndarray, g: int) -> None:
    """R5.4: all discard piles, shuffled, become the new draw pile."""
    n = s[I_DISCLEN]
    if n == 0:
        return
    for i in range(n):
        s[O_DECK + i] = s[O_DISC + i]
    for i in range(n - 1, 0, -1):
        j = below(rs, g, i + 1)
        t = s[O_DECK + i]
        s[O_DECK + i] = s[O_DECK + j]
        s[O_DECK + j] = t
    s[I_DECKLEN] = n
    s[I_DISCLEN] = 0
    s[O_DCOUNT : O_DCOUNT + 4 * COLUMNS] = 0
    s[I_RESHUFFLES] += 1
    s[I_RESHUFFLED] = n


@inline_kernel
def _draw(s: np.ndarray, rs: np.ndarray, g: int, seat: int) -> None:
    if s[I_DECKLEN] == 0:
        _reshuffle(s, rs, g)
        if s[I_DECKLEN] == 0:
            return  # every card is in a hand: nothing to draw
    n = index(s[I_DECKLEN] - 1)
    s[I_DECKLEN] = n
    h = index(s[O_HLEN + seat])
    s[O_HAND + seat * MAX_HAND + h] = s[O_DECK + n]
    s[O_HLEN + seat] = h + 1


@kernel
def _skip_passes(s: np.ndarray) -> None:
    """A seat whose turn comes with an empty hand passes; a full round of that is a draw (R5.5)."""
    n = s[I_PLAYERS]
    while s[I_END] == END_NONE and s[O_HLEN + s[I_SEAT]] == 0:
        s[I_STUCK] += 1
        s[I_TURN] += 1
        if s[I_STUCK] >= n:
            s[I_END] = END_STUCK
            return
        s[I_SEAT] = (s[I_SEAT] + 1) % n
        s[I_DEAD_DONE] = 0


@inline_kernel
def _end_turn(s: np.ndarray, rs: np.ndarray, g: int, seat: int) -> None:
    """Draw (R5.3, automatic) and pass the turn; a full round of stuck seats ends the game drawn
    with its last discard, before any draw (R5.5, R7.2)."""
    s[I_TURN] += 1
    n = s[I_PLAYERS]
    if s[I_STUCK] >= n:
        s[I_END] = END_STUCK
        return
    _draw(s, rs, g, seat)
    nxt = seat + 1 if seat + 1 < n else 0
    s[I_SEAT] = nxt
    s[I_DEAD_DONE] = 0
    if s[O_HLEN + nxt] == 0:
        _skip_passes(s)


@inline_kernel
def apply(s: np.ndarray, rs: np.ndarray, g: int, action: int) -> None:
    """Apply an action known to be legal for the seat to play (the trusted path)."""
    seat = index(s[I_SEAT])
    side = index(SIDE_OF[index(s[I_SIDES]), seat])
    s[I_LAST_ACTION] = action
    logged = s[I_LOGGED]
    at = O_LOG + 2 * (logged & (LOG_SIZE - 1))
    s[at] = seat
    s[at + 1] = action
    s[I_LOGGED] = logged + 1
    if action < REMOVE:
        if action < WILD:
            cell = index(action)
            card = index(LAYOUT_A[cell])
        else:
            cell = index(action - WILD)
            card = JD if _holds(s, seat, JD) else JC
        s[I_LAST_CELL] = cell
        _take(s, seat, side, card)
        s[O_OWNER + cell] = side
        s[O_OPEN + LAYOUT_A[cell]] -= 1
        _list_del(s, O_FREE, O_FREE_AT, I_NFREE, cell)
        _list_add(s, O_UNLOCKED + side * PLAYABLE_CELLS, O_UNLOCKED_AT, O_NUNLOCKED + side, cell)
        s[O_CHIPS + side] += 1
        s[I_OCCUPIED] += 1
        lines = O_LINES + side * NUM_LINES
        full = False
        for d in range(4):  # five in a row through the cell: a window starting at a bit of STARTS
            at = lines + index(LINE_OF[cell, d])
            m = s[at] | (1 << LINE_BIT[cell, d])
            s[at] = m
            if m & (m >> 1) & (m >> 2) & (m >> 3) & (m >> 4) & LINE_STARTS[cell, d]:
                full = True
        s[I_STUCK] = 0
        if full:
            _declare(s, side, cell)
            if s[I_END] != END_NONE:
                return
        _end_turn(s, rs, g, seat)
    elif action < DEAD:
        cell = index(action - REMOVE)
        s[I_LAST_CELL] = cell
        card = JS if _holds(s, seat, JS) else JH
        _take(s, seat, side, card)
        owner = index(s[O_OWNER + cell])
        s[O_OWNER + cell] = -1
        s[O_OPEN + LAYOUT_A[cell]] += 1
        _list_add(s, O_FREE, O_FREE_AT, I_NFREE, cell)
        _list_del(s, O_UNLOCKED + owner * PLAYABLE_CELLS, O_UNLOCKED_AT, O_NUNLOCKED + owner, cell)
        s[O_CHIPS + owner] -= 1
        s[I_OCCUPIED] -= 1
        lines = O_LINES + owner * NUM_LINES
        for d in range(4):
            s[lines + index(LINE_OF[cell, d])] &= ~(1 << LINE_BIT[cell, d])
        s[I_STUCK] = 0
        _end_turn(s, rs, g, seat)
    elif action < DISCARD:
        _take(s, seat, side, index(action - DEAD))
        s[I_DEAD_DONE] = 1
        _draw(s, rs, g, seat)  # the replacement (R5.1)
    elif action < DRAW:
        _take(s, seat, side, index(action - DISCARD))
        s[I_STUCK] += 1  # R5.5
        _end_turn(s, rs, g, seat)
