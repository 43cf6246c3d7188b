"""Threats, the open fours of a side: what ours are worth (``heuristic.threat_value``), the
chance an opponent completes one before our next turn (``Odds.completion_risk``), and the
cells they miss once a play changed the board."""

from __future__ import annotations

import numpy as np

from ...board import NUM_CELLS
from ...cards import JC, JD
from .. import kernels as k
from .params import LINE, WINNING_SEQUENCE
from .tables import CARD_OF, CELLS_5, NUM_WINDOWS, THROUGH, THROUGH_N
from .windows import _clashes
from .work import (
    I_ABSENT,
    I_AFTER,
    I_BEFORE_NEXT,
    I_COUNT,
    I_FRESH,
    I_HAND,
    I_HOT,
    I_INFERRED,
    I_LIST,
    I_LISTN,
    I_MARK,
    I_MISSING,
    I_NOW,
    I_OPEN,
    I_STAMP,
    I_THREATS,
    I_UNSEEN,
    I_WAS,
)


@k.inline_kernel
def _any_of(copies: int, cards: int, total: int) -> float:
    """``heuristic.Odds.any_of``: P(a hand of ``cards`` of the ``total`` unseen cards holds at
    least one of ``copies`` given cards)."""
    if copies <= 0 or cards <= 0:
        return 0.0
    miss = 1.0
    for i in range(min(cards, total)):
        if total - i <= 0:
            break
        miss *= max(total - copies - i, 0) / (total - i)
    return 1.0 - miss


@k.inline_kernel
def _threat_cell(s: np.ndarray, iw: np.ndarray, t: int, w: int, extra: int) -> int:
    """The missing cell of window ``w`` if it is an open four-of-five of side ``t`` (a threat,
    ``evaluation.threat_windows``), else -1; ``extra`` as :func:`_clashes`."""
    if _clashes(s, iw, t, w, extra):
        return -1
    missing = -1
    n = 0
    for m in range(5):
        c = CELLS_5[w, m]
        if CARD_OF[c] < 0:
            continue
        o = s[k.O_OWNER + c]
        if o == t:
            continue
        if o >= 0:
            return -1
        n += 1
        missing = c
    return missing if n == 1 else -1


@k.inline_kernel
def _sequence_value(nseq: int, need: int) -> float:
    """``heuristic.sequence_value``: the game if it is the last sequence needed (R3.1)."""
    return WINNING_SEQUENCE if nseq + 1 >= need else LINE[5]


@k.kernel
def _threat_value(
    iw: np.ndarray,
    at: int,
    ln: int,
    side: int,
    sides: int,
    value: float,
    wild: int,
    remover: int,
    total: int,
) -> float:
    """``heuristic.threat_value`` of the threats missing the ``ln`` cells listed at ``iw[at:]``
    with the hand counted at ``I_HAND``: those we can fill next turn unless every one is blocked
    first, the others through team mates' hands or a lucky draw."""
    has_wild = iw[I_HAND + JD] > 0 or iw[I_HAND + JC] > 0
    blockers = 0
    for t in range(sides):
        if t != side:
            blockers += iw[I_BEFORE_NEXT + t]
    out = 0.0
    fillable = False
    p_block_all = 1.0
    for i in range(ln):
        card = CARD_OF[iw[at + i]]
        if has_wild or iw[I_HAND + card] > 0:
            fillable = True
            p_block_all *= _any_of(iw[I_UNSEEN + card] + wild + remover, blockers, total)
    if fillable:
        out += value * (1.0 - p_block_all)
    mates = iw[I_BEFORE_NEXT + side]
    for i in range(ln):
        card = CARD_OF[iw[at + i]]
        if not (has_wild or iw[I_HAND + card] > 0):
            out += 0.5 * value * _any_of(iw[I_UNSEEN + card] + wild, mates + 1, total)
    return out


@k.kernel
def _completion_risk(
    s: np.ndarray, iw: np.ndarray, at: int, ln: int, t: int, value: float, wild: int, total: int
) -> float:
    """``heuristic.Odds.completion_risk``: the expected value side ``t`` completes a sequence
    before our next turn from the threats missing the ``ln`` cells at ``iw[at:]``; a seat whose
    hand was inferred (:func:`_infer`) holds a card it showed it lacked only among its fresh ones."""
    cards = iw[I_BEFORE_NEXT + t]
    players = s[k.I_PLAYERS]
    sides = s[k.I_SIDES]
    seat = s[k.I_SEAT]
    miss = 1.0
    for i in range(ln):
        card = CARD_OF[iw[at + i]]
        copies = iw[I_UNSEEN + card] + wild
        miss *= 1.0 - _any_of(copies, cards, total)
        for j in range(1, players):
            other = (seat + j) % players
            if other % sides != t or iw[I_INFERRED + other] == 0:
                continue
            absent = iw[I_ABSENT + other]
            gone = (iw[I_UNSEEN + card] if absent >> card & 1 else 0) + (wild if absent >> JD & 1 else 0)
            miss *= (1.0 - _any_of(copies - gone, s[k.O_HLEN + other], total)) * (
                1.0 - _any_of(gone, iw[I_FRESH + other], total)
            )
    return (1.0 - miss) * value


@k.kernel
def _threats_after(s: np.ndarray, iw: np.ndarray, t: int, cell: int, placed: bool, side: int) -> int:
    """List at ``I_AFTER`` the cells side ``t``'s threats miss once the chip on ``cell`` was
    placed (by ``side``) or removed, the board showing it already: only the windows through the
    cell change. Their number, or -1 when no window changed (the list is the one before)."""
    counts = I_THREATS + t * NUM_CELLS
    if placed and iw[I_HOT + t * NUM_CELLS + cell] == 0:
        return -1  # no window of three or four there: a placement makes or breaks no threat
    changed = False
    for j in range(THROUGH_N[cell]):
        w = THROUGH[cell, j]
        was = iw[I_MISSING + t * NUM_WINDOWS + w]
        if placed:
            now = -1  # another side's window is blocked now, ours one closer (or complete)
            if t == side and iw[I_OPEN + t * NUM_WINDOWS + w] == 3:
                for m in range(5):
                    c = CELLS_5[w, m]
                    if c != cell and CARD_OF[c] >= 0 and s[k.O_OWNER + c] < 0:
                        now = c
        else:
            now = _threat_cell(s, iw, t, w, 0)
        iw[I_WAS + j] = was
        iw[I_NOW + j] = now
        if was != now:
            changed = True
            if was >= 0:
                iw[counts + was] -= 1
            if now >= 0:
                iw[counts + now] += 1
    if not changed:
        return -1
    stamp = iw[I_STAMP] + 1
    iw[I_STAMP] = stamp
    ln = 0
    listed = I_LIST + t * NUM_CELLS
    for i in range(iw[I_LISTN + t]):
        c = iw[listed + i]
        iw[I_MARK + c] = stamp
        if iw[counts + c] > 0:
            iw[I_AFTER + ln] = c
            ln += 1
    for j in range(THROUGH_N[cell]):
        c = iw[I_NOW + j]
        if c >= 0 and iw[I_MARK + c] != stamp:
            iw[I_MARK + c] = stamp
            iw[I_AFTER + ln] = c
            ln += 1
    for j in range(THROUGH_N[cell]):  # the counts as they were
        if iw[I_WAS + j] >= 0:
            iw[counts + iw[I_WAS + j]] += 1
        if iw[I_NOW + j] >= 0:
            iw[counts + iw[I_NOW + j]] -= 1
    return ln


@k.kernel
def _recount(s: np.ndarray, iw: np.ndarray, t: int, extra: int) -> int:
    """List at ``I_AFTER`` the cells side ``t``'s threats miss, counted over every window (after
    a placement declared ``extra`` sequences, which rule windows out, R3.3); their number."""
    iw[I_COUNT : I_COUNT + NUM_CELLS] = 0
    for w in range(NUM_WINDOWS):
        c = _threat_cell(s, iw, t, w, extra)
        if c >= 0:
            iw[I_COUNT + c] += 1
    ln = 0
    for c in range(NUM_CELLS):
        if iw[I_COUNT + c] > 0:
            iw[I_AFTER + ln] = c
            ln += 1
    return ln
