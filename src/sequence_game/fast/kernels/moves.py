"""The legal actions of the seat to play (:func:`legal_mask`) and a random one (:func:`random_action`).

Both read the hand in one pass with no branch that depends on the cards, and take the jacks'
targets from the row's lists of open cells and removable chips (:mod:`.layout`).
"""

from __future__ import annotations

import numpy as np

from ...actions import DEAD, DISCARD, REMOVE, WILD
from ...board import NUM_CELLS
from ...cards import NUM_CARDS
from .dealing import below
from .jit import index, inline_kernel, kernel
from .layout import (
    END_NONE,
    I_DEAD_DONE,
    I_END,
    I_NFREE,
    I_SEAT,
    I_SIDES,
    MAX_HAND,
    O_FREE,
    O_HAND,
    O_HLEN,
    O_NUNLOCKED,
    O_OPEN,
    O_OWNER,
    O_SCRATCH,
    O_UNLOCKED,
    PLAYABLE_CELLS,
    SIDE_OF,
)
from .tables import CARD_CELL, CELL_A, CELL_B, KIND, PARTNER


@inline_kernel
def is_dead(s: np.ndarray, card: int) -> bool:
    """Both spaces of a normal card hold a chip (R5.1); jacks are never dead."""
    a = CELL_A[card]
    return bool(a >= 0 and s[O_OWNER + a] >= 0 and s[O_OWNER + CELL_B[card]] >= 0)


@kernel
def legal_mask(s: np.ndarray, mask: np.ndarray) -> int:
    """Write the legal actions of the seat to play into ``mask`` (0/1 over ``NUM_ACTIONS``); their count.

    As :func:`random_action`, the pass over the hand has no branch that depends on the cards;
    the jacks' targets come from the lists of open cells and of removable chips."""
    mask[:] = 0
    if s[I_END] != END_NONE:
        return 0
    seat = index(s[I_SEAT])
    sides = s[I_SIDES]
    side = SIDE_OF[index(sides), seat]
    base = O_HAND + seat * MAX_HAND
    h = s[O_HLEN + seat]
    jacks = 0  # KIND bits, as in random_action
    for i in range(h):
        card = index(s[base + i])
        normal = KIND[card] == 0
        jacks |= KIND[card]
        a = index(CARD_CELL[2 * card])
        b = index(CARD_CELL[2 * card + 1])
        mask[a] |= normal & (s[O_OWNER + a] < 0)
        mask[b] |= normal & (s[O_OWNER + b] < 0)
    plays = 0
    for c in range(NUM_CELLS):
        plays += mask[c]
    if jacks & 1:
        n = s[I_NFREE]
        for i in range(n):
            mask[WILD + index(s[O_FREE + i])] = 1
        plays += n
    if jacks & 2:
        for o in range(sides):
            if o != side:
                n = s[O_NUNLOCKED + o]
                for i in range(n):
                    mask[REMOVE + index(s[O_UNLOCKED + o * PLAYABLE_CELLS + i])] = 1
                plays += n
    total = plays
    if s[I_DEAD_DONE] == 0:
        for i in range(h):
            card = index(s[base + i])
            if is_dead(s, card) and mask[DEAD + card] == 0:
                mask[DEAD + card] = 1
                total += 1
    if plays == 0:  # R5.5: nothing to play, so any card may be discarded
        for i in range(h):
            card = index(s[base + i])
            if mask[DISCARD + card] == 0:
                mask[DISCARD + card] = 1
                total += 1
    return total


@inline_kernel
def random_action(s: np.ndarray, rs: np.ndarray, g: int) -> int:
    """A random legal action of the seat to play: a dead card is always exchanged first when
    allowed (as ``GameState.random_action``); otherwise every distinct legal action is equally
    likely. -1 when the game is over. One pass over the hand: the hot loop of playouts.

    The pass has no branch that depends on the cards (a mispredicted branch per card cost more
    than the rest of the turn): both cells of every card (as ``2 * card`` and ``2 * card + 1``,
    see :data:`CARD_CELL`) are written to the scratch list and only the count moves on, by the
    card's open cells if it is the first copy in the hand (a second copy adds no action); a card
    with one open cell leaves its first cell there, which the choice below swaps for its
    partner if taken."""
    if s[I_END] != END_NONE:
        return -1
    seat = index(s[I_SEAT])
    base = O_HAND + seat * MAX_HAND
    h = s[O_HLEN + seat]
    ncell = 0
    seen = 0
    dead = False  # a dead card in hand (R5.1)
    jacks = 0  # KIND bits: 1 a two-eyed jack in hand, 2 a one-eyed jack
    for i in range(h):
        card = index(s[base + i])
        fresh = 1 - ((seen >> card) & 1)
        seen |= 1 << card
        kind = KIND[card]
        n_open = index(s[O_OPEN + card])
        s[O_SCRATCH + index(ncell)] = 2 * card
        s[O_SCRATCH + index(ncell) + 1] = 2 * card + 1
        ncell += fresh * n_open
        jacks |= kind
        dead |= (n_open == 0) & (kind == 0)
    if dead and s[I_DEAD_DONE] == 0:  # the first dead card in hand order
        for i in range(h):
            card = s[base + i]
            if KIND[card] == 0 and s[O_OPEN + card] == 0:
                return int(DEAD + card)
    nfree = s[I_NFREE] if jacks & 1 else 0
    sides = s[I_SIDES]
    side = SIDE_OF[sides, seat]
    ntarget = 0
    if jacks & 2:
        for o in range(sides):
            if o != side:
                ntarget += s[O_NUNLOCKED + o]
    total = ncell + nfree + ntarget
    if total == 0:  # R5.5: discard any card (distinct cards equally likely)
        r = below(rs, g, _popcount(seen))
        for card in range(NUM_CARDS):
            if (seen >> card) & 1:
                if r == 0:
                    return DISCARD + card
                r -= 1
    r = below(rs, g, total)
    if r < ncell:
        cell = index(CARD_CELL[index(s[O_SCRATCH + r])])
        return int(cell if s[O_OWNER + cell] < 0 else PARTNER[cell])
    r -= ncell
    if r < nfree:
        return int(WILD + s[O_FREE + r])
    r -= nfree
    for o in range(sides):
        if o != side:
            n = s[O_NUNLOCKED + o]
            if r < n:
                return int(REMOVE + s[O_UNLOCKED + o * PLAYABLE_CELLS + r])
            r -= n
    return -1


@inline_kernel
def _popcount(x: int) -> int:
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n
