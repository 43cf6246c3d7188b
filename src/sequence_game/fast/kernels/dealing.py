"""The random state of a game, shuffling and the deal (R4).

A game's random state is one ``uint64`` (``rs[g]``: one per game of a batch), an xorshift64*
generator: the same draws whatever the number of threads.
"""

from __future__ import annotations

import numpy as np

from ...cards import DECK_SIZE, NUM_CARDS
from .jit import inline_kernel, kernel
from .layout import (
    EMPTY_ROW,
    HAND_SIZES,
    I_DEALER,
    I_DECKLEN,
    I_LAST_ACTION,
    I_LAST_CELL,
    I_NEED,
    I_PLAYERS,
    I_SEAT,
    I_SIDES,
    I_WINNER,
    MAX_HAND,
    O_DECK,
    O_HAND,
    O_HLEN,
    ROW,
)

# ------------------------------------------------------------------ random


@kernel
def seed_state(seed: int) -> np.uint64:
    """A non-zero xorshift state from any integer seed (splitmix64)."""
    z = np.uint64(seed) + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    if z == np.uint64(0):
        z = np.uint64(1)
    return z


@inline_kernel
def below(rs: np.ndarray, g: int, n: int) -> int:
    """A uniform int in ``[0, n)`` from xorshift64* state ``rs[g]``."""
    x = rs[g]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rs[g] = x
    y = x * np.uint64(0x2545F4914F6CDD1D)
    # in int64, not uint64: Numba would compare a uint64 with the caller's int64 counts as floats
    return int((np.int64(y >> np.uint64(32)) * n) >> 32)


@kernel
def shuffled_deck(rs: np.ndarray, g: int, out: np.ndarray) -> None:
    """The 104 cards (R1.2) in a uniformly random order (Fisher-Yates)."""
    for i in range(DECK_SIZE):
        out[i] = i % NUM_CARDS
    for i in range(DECK_SIZE - 1, 0, -1):
        j = below(rs, g, i + 1)
        t = out[i]
        out[i] = out[j]
        out[j] = t


# -------------------------------------------------------------- the deal


@kernel
def deal(s: np.ndarray, players: int, sides: int, dealer: int, deck: np.ndarray) -> None:
    """Start a game from ``deck`` (top card first) dealt from ``dealer`` (R4.2, R4.3)."""
    for i in range(ROW):  # a loop, not a slice copy: that would need Numba's runtime
        s[i] = EMPTY_ROW[i]
    for i in range(DECK_SIZE):
        s[O_DECK + i] = deck[DECK_SIZE - 1 - i]
    s[I_DECKLEN] = DECK_SIZE
    s[I_PLAYERS] = players
    s[I_SIDES] = sides
    s[I_NEED] = 2 if sides == 2 else 1
    s[I_WINNER] = -1
    s[I_DEALER] = dealer
    s[I_LAST_ACTION] = -1
    s[I_LAST_CELL] = -1
    first = (dealer + 1) % players
    seat = first
    n = DECK_SIZE
    for _ in range(HAND_SIZES[players] * players):
        n -= 1
        s[O_HAND + seat * MAX_HAND + s[O_HLEN + seat]] = s[O_DECK + n]
        s[O_HLEN + seat] += 1
        seat = seat + 1 if seat + 1 < players else 0
    s[I_DECKLEN] = n
    s[I_SEAT] = first


@kernel
def deal_random(s: np.ndarray, rs: np.ndarray, g: int, players: int, sides: int, deck: np.ndarray) -> None:
    """A new game with a random dealer (each seat equally likely, as the cut of R4.1) and deck."""
    dealer = below(rs, g, players)
    shuffled_deck(rs, g, deck)
    deal(s, players, sides, dealer, deck)
