"""Worlds dealt straight into compiled rows: the search's sampler, compiled.

A search plays in hundreds of worlds a move, each the seat's view with the unseen cards dealt
again (:class:`~sequence_game.bots.determinize.Determinizer`). Dealt in Python, a world cost
about as much as four of its rollouts cut short (``docs/evaluator.md``, "Leaf values"): here the
same deal (the unseen cards shuffled; each read group of a seat's cards, held since one of its
plays, dealt first from the cards it did not show it lacked, jacks weighted; then the draw pile
and the rest of the hands) is made for a whole batch in one call, into copies of one row that
holds everything the view knows.

>>> import numpy as np
>>> from sequence_game import GameConfig, new_game
>>> from sequence_game.fast.engine import FastGame
>>> state = new_game(GameConfig(players=2), seed=3)
>>> base = FastGame.from_state(state).row
>>> pool = np.array(state._deck + state._hands[1], dtype=np.int64)
>>> sizes = np.array([-1, 7], dtype=np.int64)
>>> rows = deal_rows(base, pool, len(state._deck), sizes, NO_GROUPS, seed=5, count=3)
>>> rows.shape[0], bool((rows[:, k.O_HLEN + 1] == 7).all())
(3, True)
"""

from __future__ import annotations

from typing import Final, NamedTuple

import numpy as np

from ..cards import NUM_CARDS
from . import kernels as k
from .compile import ensure_compiled, register_warm_up
from .kernels.dealing import below, seed_state
from .kernels.jit import allocating_kernel, inline_kernel


class Groups(NamedTuple):
    """The read groups, dealt in this order: each one's seat, its count of cards, and the cards
    they cannot be (``absent[g, card]``)."""

    seats: np.ndarray
    wants: np.ndarray
    absent: np.ndarray


NO_GROUPS: Final = Groups(
    np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros((0, NUM_CARDS), dtype=np.bool_)
)
_UNIT: Final = 1 << 30


@inline_kernel
def _uniform(rs: np.ndarray) -> float:
    """A uniform float in (0, 1)."""
    return (below(rs, 0, _UNIT) + 0.5) / _UNIT


@allocating_kernel
def _deal_rows(
    base: np.ndarray,
    pool: np.ndarray,
    deck_size: int,
    sizes: np.ndarray,
    seats: np.ndarray,
    wants: np.ndarray,
    absent: np.ndarray,
    powers: np.ndarray,
    weighted: bool,
    rs: np.ndarray,
    out: np.ndarray,
) -> None:
    """``out[i]``: ``base`` with the cards of ``pool`` dealt to the draw pile (``deck_size``, top
    card last) and to every seat whose ``sizes`` is not -1, the groups first (see
    :class:`Groups`), as :meth:`Determinizer.sample` deals them."""
    n = pool.shape[0]
    players = sizes.shape[0]
    rest = np.empty(n, dtype=np.int64)
    left = np.empty(n, dtype=np.int64)
    keys = np.empty(n, dtype=np.float64)
    kept = np.zeros((players, k.MAX_HAND), dtype=np.int64)
    nkept = np.zeros(players, dtype=np.int64)
    hand = np.empty(k.MAX_HAND, dtype=np.int64)
    for i in range(out.shape[0]):
        for j in range(n):
            rest[j] = pool[j]
        for j in range(n - 1, 0, -1):  # Fisher-Yates
            r = below(rs, 0, j + 1)
            t = rest[j]
            rest[j] = rest[r]
            rest[r] = t
        m = n
        for p in range(players):
            nkept[p] = 0
        for g in range(seats.shape[0]):
            want = wants[g]
            taken = 0
            if not weighted:
                for j in range(m):
                    if taken < want and not absent[g, rest[j]]:
                        keys[j] = 1.0
                        taken += 1
                    else:
                        keys[j] = -1.0
            else:
                # weighted sampling without replacement: a key u ** (1 / weight) a card, the
                # ``want`` largest win (an absent card never)
                for j in range(m):
                    keys[j] = -1.0 if absent[g, rest[j]] else _uniform(rs) ** powers[rest[j]]
                for _ in range(want):  # the ``want`` largest keys, marked 2.0 (keys are below 1)
                    best = -1
                    for j in range(m):
                        if 0.0 <= keys[j] < 2.0 and (best < 0 or keys[j] > keys[best]):
                            best = j
                    if best < 0:
                        break
                    keys[best] = 2.0
                    taken += 1
                for j in range(m):
                    if keys[j] < 2.0:
                        keys[j] = -1.0
            if taken < want:
                continue  # the cards cannot satisfy this group: its seat is dealt freely
            seat = seats[g]
            nl = 0
            for j in range(m):
                if keys[j] >= 0.0:
                    kept[seat, nkept[seat]] = rest[j]
                    nkept[seat] += 1
                else:
                    left[nl] = rest[j]
                    nl += 1
            for j in range(nl):
                rest[j] = left[j]
            m = nl
        s = out[i]
        s[:] = base
        s[k.I_DECKLEN] = deck_size
        for j in range(deck_size):
            s[k.O_DECK + j] = rest[j]
        at = deck_size
        for seat in range(players):
            size = sizes[seat]
            if size < 0:
                continue
            h = 0
            for j in range(nkept[seat]):
                hand[h] = kept[seat, j]
                h += 1
            while h < size:
                hand[h] = rest[at]
                at += 1
                h += 1
            hand[:size].sort()  # as a row loaded from a state holds them
            s[k.O_HLEN + seat] = size
            for j in range(size):
                s[k.O_HAND + seat * k.MAX_HAND + j] = hand[j]


def deal_rows(
    base: np.ndarray,
    pool: np.ndarray,
    deck_size: int,
    sizes: np.ndarray,
    groups: Groups,
    seed: int,
    count: int,
    powers: np.ndarray | None = None,
) -> np.ndarray:
    """``int32[count, ROW]``: worlds dealt from the row ``base`` (a world of the view: only its
    draw pile and the hands of the seats whose ``sizes`` are not -1 are replaced), the cards of
    ``pool`` (the unseen ones) dealt at random from the stream ``seed``: first each of the
    ``groups`` from the cards it may hold (by weight with ``powers``, one over each card's weight,
    the largest of ``u ** power`` chosen), then the draw pile, then the hands."""
    ensure_compiled(GROUP)
    sizes = np.ascontiguousarray(sizes, dtype=np.int64)
    pool = np.ascontiguousarray(pool, dtype=np.int64)
    if int(sizes[sizes >= 0].sum()) + deck_size != pool.shape[0]:
        raise ValueError(
            f"{pool.shape[0]} cards to deal, but hands of {sizes.tolist()} and a pile of {deck_size}"
        )
    if count < 0:
        raise ValueError(f"count must be at least 0, not {count}")
    weighted = powers is not None
    power = np.ones(NUM_CARDS, dtype=np.float64) if powers is None else np.asarray(powers, dtype=np.float64)
    out = np.empty((count, k.ROW), dtype=np.int32)
    rs = np.array([seed_state(seed & ((1 << 63) - 1))], dtype=np.uint64)
    _deal_rows(
        np.ascontiguousarray(base, dtype=np.int32),
        pool,
        deck_size,
        sizes,
        np.ascontiguousarray(groups.seats, dtype=np.int64),
        np.ascontiguousarray(groups.wants, dtype=np.int64),
        np.ascontiguousarray(groups.absent, dtype=np.bool_),
        power,
        weighted,
        rs,
        out,
    )
    return out


def _warm_up() -> None:
    row = np.empty(k.ROW, dtype=np.int32)
    rng = np.array([seed_state(1)], dtype=np.uint64)
    k.deal_random(row, rng, 0, 2, 2, np.empty(104, dtype=np.int32))
    pool = np.concatenate([row[k.O_DECK : k.O_DECK + row[k.I_DECKLEN]], row[k.O_HAND + 8 : k.O_HAND + 15]])
    absent = np.zeros((1, NUM_CARDS), dtype=np.bool_)
    one, sizes = np.array([1], dtype=np.int64), np.array([-1, 7], dtype=np.int64)
    out = np.empty((1, k.ROW), dtype=np.int32)
    for weighted in (False, True):
        _deal_rows(
            row, pool.astype(np.int64), int(row[k.I_DECKLEN]), sizes, one, one, absent,
            np.ones(NUM_CARDS), weighted, rng, out,
        )  # fmt: skip


GROUP: Final = "dealer"
"""The name :func:`~.compile.ensure_compiled` knows this module's kernels by."""
register_warm_up(GROUP, _warm_up)
