"""The plays to score and the choice among them: the forced action (a dead card, R5.1; a stuck
hand's discard, R5.5), the R5.2 plays of the hand, and the best scored play, ties at random."""

from __future__ import annotations

import numpy as np

from ...actions import DEAD, DISCARD, REMOVE, WILD
from ...board import NUM_CELLS
from ...cards import NUM_CARDS
from .. import kernels as k
from .params import JACK_KEEP, TIE
from .tables import CARD_OF, JACK_KIND
from .work import F_SCORES, I_HAND, I_PLAYS


@k.kernel
def _discard(s: np.ndarray, seat: int) -> int:
    """``evaluation.best_discard`` for a stuck hand (R5.5): a natural card is worth nothing to
    keep (none has an open space, or it would be a play), a jack its keeping value; the least
    valuable card goes, the lowest card id among equals."""
    base = k.O_HAND + seat * k.MAX_HAND
    best = -1
    best_value = 0.0
    for i in range(s[k.O_HLEN + seat]):
        card = s[base + i]
        if JACK_KIND[card] == 1:
            value = JACK_KEEP[0]
        elif JACK_KIND[card] == 2:
            value = JACK_KEEP[1]
        else:
            value = 0.0
        if best < 0 or value < best_value or (value == best_value and card < best):
            best = card
            best_value = value
    return int(DISCARD + best)


@k.kernel
def _candidates(s: np.ndarray, iw: np.ndarray) -> int:
    """The forced action (R5.1 dead card exchanged, R5.5 stuck hand) as ``-1 - action``, or the
    number of R5.2 plays of the seat to move, written ascending to ``iw[I_PLAYS:]``; the hand's
    card counts go to ``iw[I_HAND:]``."""
    seat = s[k.I_SEAT]
    sides = s[k.I_SIDES]
    side = seat % sides
    base = k.O_HAND + seat * k.MAX_HAND
    h = s[k.O_HLEN + seat]
    iw[I_HAND : I_HAND + NUM_CARDS] = 0
    wild = False
    remove = False
    dead = -1
    for i in range(h):
        card = s[base + i]
        iw[I_HAND + card] += 1
        if JACK_KIND[card] == 1:
            wild = True
        elif JACK_KIND[card] == 2:
            remove = True
        elif s[k.O_OPEN + card] == 0 and (dead < 0 or card < dead):
            dead = card
    if dead >= 0 and s[k.I_DEAD_DONE] == 0:
        return -1 - (DEAD + dead)  # forced_action: the lowest dead card is exchanged (R5.1)
    n = 0
    for c in range(NUM_CELLS):
        card = CARD_OF[c]
        if card >= 0 and s[k.O_OWNER + c] < 0 and iw[I_HAND + card] > 0:
            iw[I_PLAYS + n] = c
            n += 1
    if wild:
        for c in range(NUM_CELLS):
            if CARD_OF[c] >= 0 and s[k.O_OWNER + c] < 0:
                iw[I_PLAYS + n] = WILD + c
                n += 1
    if remove:
        for c in range(NUM_CELLS):
            o = s[k.O_OWNER + c]
            if o >= 0 and o != side and s[k.O_LOCKED + c] == 0:
                iw[I_PLAYS + n] = REMOVE + c
                n += 1
    if n == 0:
        return -1 - _discard(s, seat)
    return n


@k.kernel
def _pick(s: np.ndarray, rs: np.ndarray, g: int, iw: np.ndarray, fw: np.ndarray, n: int) -> int:
    """The best of the ``n`` scored candidates, ties (within :data:`TIE`) at random."""
    top = fw[F_SCORES]
    for i in range(1, n):
        top = max(top, fw[F_SCORES + i])
    ties = 0
    for i in range(n):
        if fw[F_SCORES + i] >= top - TIE:
            ties += 1
    r = k.below(rs, g, ties) if ties > 1 else 0
    for i in range(n):
        if fw[F_SCORES + i] >= top - TIE:
            if r == 0:
                return int(iw[I_PLAYS + i])
            r -= 1
    return int(iw[I_PLAYS])
