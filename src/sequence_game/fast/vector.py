"""Batched stepping kernels on the compiled engine: thousands of games stepped in one call.

Each step is one compiled call over the whole batch (games spread over threads with ``prange``):
apply every game's action, let the random opponents move (if any), deal a new game where one
ended (same-step autoreset), then write the observation planes and action masks of every game
straight into preallocated numpy arrays. No Python runs per game.

The planes are those of :mod:`sequence_game.features.planes` (same layout, same values; the
tests compare them plane by plane against ``encode`` on the pure engine in lock step). The
environments built on these kernels (``FastBatchStepper``, the Gymnasium ``FastVectorEnv``) live
in :mod:`sequence_game.env.fast_vector`.

>>> from sequence_game import GameConfig
>>> game = FastGame.new(GameConfig(players=2), seed=0)
>>> obs, mask = encode_game(game)
>>> obs.shape, int(mask.sum()) > 0
((10, 10, 24), True)
"""

from __future__ import annotations

from typing import Any, Final

import numba
import numpy as np
import numpy.typing as npt

from ..actions import NUM_ACTIONS
from ..board import NUM_CELLS
from ..cards import DECK_SIZE, JC, JD, JH, JS, NUM_CARDS
from ..features.planes import DEFAULT_MAX_TURNS, MAX_PLAYERS, MAX_SIDES, NUM_PLANES, quantize
from . import kernels as k
from .compile import register_warm_up
from .engine import FastGame

_thread_id: Any = numba.get_thread_id  # type: ignore[attr-defined]
POOL_SIZE: Final[int] = numba.config.NUMBA_NUM_THREADS  # type: ignore[attr-defined]
"""Numba's thread pool: its thread ids are below this (one scratch row each)."""

EXPECTED_PLANES: Final = 24
"""The observation layout this encoder writes (``features/planes.py``'s, with 24 planes)."""


# ------------------------------------------------------------------ plane values
# Every value a plane can take, for one table and turn cap, in one small array made with numpy's
# float32 arithmetic exactly as ``features/planes.py`` makes the planes (and quantized as its
# ``quantize`` does for uint8): the kernels only look values up, so both dtypes match the pure
# encoder value for value (tests/fast/test_vector.py).
V_HALF: Final = 0  # copies of a card / 2: 0..4
V_QUARTER: Final = V_HALF + 5  # jacks of a kind / 4: 0..8
V_ONE: Final = V_QUARTER + 9  # 0, 1
V_DECK: Final = V_ONE + 2  # cards in the draw pile / 104: 0..104
V_SEQ: Final = V_DECK + DECK_SIZE + 1  # completed sequences / 2, capped at 1: 0..MAX_SEQS
V_TABLE: Final = V_SEQ + k.MAX_SEQS + 1  # sequences needed / 2, players / 12, three sides
V_HANDS: Final = V_TABLE + 3  # cards in hand / the table's hand size, capped at 1: 0..MAX_HAND
V_TURN: Final = V_HANDS + k.MAX_HAND + 1  # turn / max_turns, capped at 1: 0..max_turns

OBS_DTYPES: Final = (np.dtype(np.float32), np.dtype(np.uint8))


def plane_values(players: int, sides: int, max_turns: int, dtype: npt.DTypeLike = np.float32) -> np.ndarray:
    """The table of plane values the kernels read (offsets ``V_*``), as ``dtype`` planes hold them."""
    f = np.float32
    need = 2 if sides == 2 else 1  # R3.1
    parts = [
        np.arange(5, dtype=f) * f(0.5),
        np.arange(9, dtype=f) * f(0.25),
        np.array([0.0, 1.0], dtype=f),
        np.arange(DECK_SIZE + 1, dtype=f) / DECK_SIZE,
        np.minimum(np.arange(k.MAX_SEQS + 1, dtype=f) / 2, 1.0),
        np.array([need / 2, players / MAX_PLAYERS, float(sides == 3)], dtype=f),
        np.minimum(np.arange(k.MAX_HAND + 1, dtype=f) / f(k.HAND_SIZES[players]), 1.0),
        np.minimum(np.arange(max_turns + 1) / max_turns, 1.0).astype(f),
    ]
    values = np.concatenate(parts).astype(f)
    if np.dtype(dtype) == np.uint8:
        return quantize(values)
    if np.dtype(dtype) != np.float32:
        raise ValueError(f"observation planes are float32 or uint8, not {np.dtype(dtype)}")
    return values


COLUMNS: Final = k.COLUMNS
SHIFT_OF: Final = np.array(
    [[[8 * ((o - side) % max(sides, 1)) for o in range(3)] for side in range(3)] for sides in range(4)],
    dtype=np.int64,
)
"""Per number of sides and observer's side, the bit offset of a side's chip plane in a packed word."""
CELL_CARD: Final = np.array([card if card >= 0 else NUM_CARDS for card in k.LAYOUT_A], dtype=np.int64)
"""The card printed on each cell; the corners' is column ``NUM_CARDS`` of the counts, always 0."""
SCRATCH: Final = 2 * COLUMNS + MAX_SIDES + 1
"""int64 scratch of :func:`encode_row_packed`, one row per thread: two words per card, the chip bits."""
SCRATCH_STRIDE: Final = (SCRATCH + 8 + 15) // 16 * 16
"""The scratch rows' length: at least a 64-byte cache line unused after each row, so that two
threads never write the same line (false sharing would make every write a cache miss)."""


@k.inline_kernel
def _card_counts(
    s: np.ndarray, seat: int, side: int, sides: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Card counts ``(4, COLUMNS)``: 0 the seat's hand (counted in the row's scratch), 1 the
    discards of the observer's side, 2 those of the next side (R5.2: each seat's own pile), 3
    all discards (these kept up to date by the engine, ``O_DCOUNT``)."""
    hand = s[k.O_CARDS : k.O_CARDS + COLUMNS]
    hand[:] = 0
    base = k.O_HAND + seat * k.MAX_HAND
    for i in range(s[k.O_HLEN + seat]):
        hand[s[base + i]] += 1
    piles = s[k.O_DCOUNT : k.O_DCOUNT + 4 * COLUMNS].reshape((4, COLUMNS))
    nxt = side + 1 if side + 1 < sides else 0
    return (hand, piles[side], piles[nxt], piles[3])


@k.inline_kernel
def _nseq(s: np.ndarray, side: int, j: int, sides: int) -> int:
    """Completed sequences of the ``j``-th side from ``side`` on (0 for a third side of two)."""
    if j >= sides:
        return 0
    return int(s[k.O_NSEQ + (side + j) % sides])


@k.kernel
def encode_row(s: np.ndarray, vals: np.ndarray, max_turns: int, obs: np.ndarray, mask: np.ndarray) -> None:
    """The planes ``(100, NUM_PLANES)`` (any dtype, ``vals`` of the same) and mask of the seat to
    play, as ``observation.encode``."""
    seat = s[k.I_SEAT]
    sides = s[k.I_SIDES]
    side = seat % sides
    hand, own, nxt, every = _card_counts(s, seat, side, sides)
    two_hand = vals[V_QUARTER + hand[JD] + hand[JC]]
    one_hand = vals[V_QUARTER + hand[JH] + hand[JS]]
    two_disc = vals[V_QUARTER + every[JD] + every[JC]]
    one_disc = vals[V_QUARTER + every[JH] + every[JS]]
    deck = vals[V_DECK + s[k.I_DECKLEN]]
    seq0 = vals[V_SEQ + _nseq(s, side, 0, sides)]
    seq1 = vals[V_SEQ + _nseq(s, side, 1, sides)]
    seq2 = vals[V_SEQ + _nseq(s, side, 2, sides)]
    need = vals[V_TABLE]
    table = vals[V_TABLE + 1]
    three = vals[V_TABLE + 2]
    turn = vals[V_TURN + min(s[k.I_TURN], max_turns)]
    zero = vals[V_ONE]
    one = vals[V_ONE + 1]
    shift = SHIFT_OF[sides, side]
    for c in range(NUM_CELLS):  # every value of every cell written once: no zeroing pass
        o = s[k.O_OWNER + c]
        rel = shift[o] >> 3 if o >= 0 else -1
        obs[c, 0] = one if rel == 0 else zero
        obs[c, 1] = one if rel == 1 else zero
        obs[c, 2] = one if rel == 2 else zero
        obs[c, 3] = one if s[k.O_LOCKED + c] == 1 else zero  # only chips are locked (R3.5)
        card = CELL_CARD[c]
        obs[c, 4] = one if card == NUM_CARDS else zero
        obs[c, 5] = vals[V_HALF + hand[card]]
        obs[c, 6] = two_hand
        obs[c, 7] = one_hand
        obs[c, 8] = vals[V_HALF + every[card]]
        obs[c, 9] = two_disc
        obs[c, 10] = one_disc
        obs[c, 11] = deck
        obs[c, 12] = zero
        obs[c, 13] = zero
        obs[c, 14] = vals[V_HALF + own[card]]
        obs[c, 15] = vals[V_HALF + nxt[card]]
        obs[c, 16] = seq0
        obs[c, 17] = seq1
        obs[c, 18] = seq2
        obs[c, 19] = need
        obs[c, 20] = table
        obs[c, 21] = three
        obs[c, 22] = turn
        obs[c, 23] = zero
    last = s[k.I_LAST_CELL]
    if last >= 0:
        obs[last, 12] = one
    for cell in _recent_cells(s, seat):
        obs[cell, 13] = one
    players = s[k.I_PLAYERS]
    for j in range(players):
        obs[j, 23] = vals[V_HANDS + s[k.O_HLEN + (seat + j) % players]]
    k.legal_mask(s, mask)


@k.inline_kernel
def _recent_cells(s: np.ndarray, seat: int) -> np.ndarray:
    """Plane 13: the cells the other seats played since this seat's last turn (a dead-card
    exchange does not end a turn, R5.1), in the row's scratch."""
    out = s[k.O_SCRATCH : k.O_SCRATCH + k.LOG_SIZE]
    n = 0
    logged = s[k.I_LOGGED]
    for back in range(min(logged, k.LOG_SIZE)):
        at = k.O_LOG + 2 * ((logged - 1 - back) & (k.LOG_SIZE - 1))
        action = s[at + 1]
        board = action < 300
        if s[at] == seat and (board or 352 <= action < 404):
            break
        if board:
            out[n] = action % NUM_CELLS
            n += 1
    return out[:n]


@k.kernel
def encode_row_packed(
    s: np.ndarray, vals: np.ndarray, max_turns: int, words: np.ndarray, mask: np.ndarray, scratch: np.ndarray
) -> None:
    """:func:`encode_row` for ``uint8`` planes, written as three little-endian ``int64`` words a
    cell (planes 0-7, 8-15, 16-23; ``words`` is ``(100, 3)``, ``vals`` the uint8 table as int64).

    The words of each card's cells are made once per card in ``scratch`` (``SCRATCH`` int64,
    the thread's own), so that the loop over the cells does little more than the stores, which
    is what costs at large batches (memory bound)."""
    seat = s[k.I_SEAT]
    sides = s[k.I_SIDES]
    side = seat % sides
    hand, own, nxt, every = _card_counts(s, seat, side, sides)
    one = vals[V_ONE + 1]
    w0 = (vals[V_QUARTER + hand[JD] + hand[JC]] << 48) | (vals[V_QUARTER + hand[JH] + hand[JS]] << 56)
    w1 = (
        (vals[V_QUARTER + every[JD] + every[JC]] << 8)
        | (vals[V_QUARTER + every[JH] + every[JS]] << 16)
        | (vals[V_DECK + s[k.I_DECKLEN]] << 24)
    )
    w2 = (
        vals[V_SEQ + _nseq(s, side, 0, sides)]
        | (vals[V_SEQ + _nseq(s, side, 1, sides)] << 8)
        | (vals[V_SEQ + _nseq(s, side, 2, sides)] << 16)
        | (vals[V_TABLE] << 24)
        | (vals[V_TABLE + 1] << 32)
        | (vals[V_TABLE + 2] << 40)
        | (vals[V_TURN + min(s[k.I_TURN], max_turns)] << 48)
    )
    first = scratch[:COLUMNS]
    second = scratch[COLUMNS : 2 * COLUMNS]
    for card in range(COLUMNS):
        first[card] = w0 | (vals[V_HALF + hand[card]] << 40)
        second[card] = (
            w1
            | vals[V_HALF + every[card]]
            | (vals[V_HALF + own[card]] << 48)
            | (vals[V_HALF + nxt[card]] << 56)
        )
    first[NUM_CARDS] |= one << 32  # the corners (R1.1)
    chip = scratch[2 * COLUMNS : 2 * COLUMNS + MAX_SIDES + 1]  # by owner + 1: none, then each side
    chip[0] = 0
    shift = SHIFT_OF[sides, side]
    for o in range(sides):
        chip[o + 1] = one << shift[o]
    locked = one << 24
    for c in range(NUM_CELLS):
        card = CELL_CARD[c]
        words[c, 0] = first[card] | chip[s[k.O_OWNER + c] + 1] | (locked * s[k.O_LOCKED + c])
        words[c, 1] = second[card]
        words[c, 2] = w2
    last = s[k.I_LAST_CELL]
    if last >= 0:
        words[last, 1] |= one << 32
    for cell in _recent_cells(s, seat):
        words[cell, 1] |= one << 40
    players = s[k.I_PLAYERS]
    for j in range(players):
        words[j, 2] |= vals[V_HANDS + s[k.O_HLEN + (seat + j) % players]] << 56
    k.legal_mask(s, mask)


OBSERVE_NONE: Final = 0
OBSERVE_FLOAT: Final = 1
OBSERVE_PACKED: Final = 2
"""What a step writes: the masks only, float32 planes, or uint8 planes as packed words."""


@k.inline_kernel
def _observe(
    s: np.ndarray,
    mode: int,
    max_turns: int,
    fvals: np.ndarray,
    obs: np.ndarray,
    ivals: np.ndarray,
    words: np.ndarray,
    mask: np.ndarray,
    scratch: np.ndarray,
) -> None:
    """The mask, and the planes as ``mode`` says: 0 none, 1 ``obs`` (float32), 2 ``words`` (uint8)."""
    if mode == OBSERVE_FLOAT:
        encode_row(s, fvals, max_turns, obs, mask)
    elif mode == OBSERVE_PACKED:
        # each thread its own scratch row (Numba's thread ids are below its pool size)
        encode_row_packed(s, ivals, max_turns, words, mask, scratch[_thread_id() % scratch.shape[0]])
    else:
        k.legal_mask(s, mask)


@k.kernel
def _play_opponents(s: np.ndarray, rs: np.ndarray, g: int, learners: np.ndarray, max_turns: int) -> None:
    """Random play for the seats that are not learners, until a learner is to act or the end."""
    while s[k.I_END] == k.END_NONE and s[k.I_TURN] < max_turns and learners[s[k.I_SEAT]] == 0:
        k.apply(s, rs, g, k.random_action(s, rs, g))


@k.parallel_kernel
def reset_games(
    rows: np.ndarray,
    rngs: np.ndarray,
    players: int,
    sides: int,
    learners: np.ndarray,
    max_turns: int,
    mode: int,
    fvals: np.ndarray,
    obs: np.ndarray,
    ivals: np.ndarray,
    words: np.ndarray,
    masks: np.ndarray,
    seats: np.ndarray,
    scratch: np.ndarray,
) -> None:
    """Deal every game anew and observe it (``mode`` as :func:`_observe`)."""
    for g in k.prange(rows.shape[0]):
        deck = np.empty(DECK_SIZE, dtype=np.int32)
        k.deal_random(rows[g], rngs, g, players, sides, deck)
        _play_opponents(rows[g], rngs, g, learners, max_turns)
        seats[g] = rows[g, k.I_SEAT]
        _observe(
            rows[g],
            mode,
            max_turns,
            fvals,
            obs[g % obs.shape[0]],
            ivals,
            words[g % words.shape[0]],
            masks[g],
            scratch,
        )


@k.parallel_kernel
def step_games(
    rows: np.ndarray,
    rngs: np.ndarray,
    actions: np.ndarray,
    learners: np.ndarray,
    max_turns: int,
    mode: int,
    fvals: np.ndarray,
    obs: np.ndarray,
    ivals: np.ndarray,
    words: np.ndarray,
    masks: np.ndarray,
    seats: np.ndarray,
    rewards: np.ndarray,
    terminated: np.ndarray,
    truncated: np.ndarray,
    scratch: np.ndarray,
) -> None:
    """One step of every game (actions already checked against the masks), same-step autoreset,
    then its observation (``mode`` as :func:`_observe`)."""
    for g in k.prange(rows.shape[0]):
        s = rows[g]
        players = s[k.I_PLAYERS]
        sides = s[k.I_SIDES]
        for p in range(rewards.shape[1]):
            rewards[g, p] = 0.0
        terminated[g] = False
        truncated[g] = False
        k.apply(s, rngs, g, actions[g])
        _play_opponents(s, rngs, g, learners, max_turns)
        done = False
        if s[k.I_END] != k.END_NONE:
            terminated[g] = True
            done = True
            winner = s[k.I_WINNER]
            if winner >= 0:
                for p in range(players):
                    rewards[g, p] = 1.0 if p % sides == winner else -1.0
        elif s[k.I_TURN] >= max_turns:
            truncated[g] = True
            done = True
        if done:
            deck = np.empty(DECK_SIZE, dtype=np.int32)
            k.deal_random(s, rngs, g, players, sides, deck)
            _play_opponents(s, rngs, g, learners, max_turns)
        seats[g] = s[k.I_SEAT]
        _observe(
            s,
            mode,
            max_turns,
            fvals,
            obs[g % obs.shape[0]],
            ivals,
            words[g % words.shape[0]],
            masks[g],
            scratch,
        )


@k.kernel
def first_illegal(masks: np.ndarray, actions: np.ndarray) -> int:
    """The first game whose action is out of range or not legal by its mask; -1 if none."""
    for g in range(actions.shape[0]):
        a = actions[g]
        if a < 0 or a >= masks.shape[1] or masks[g, a] == 0:
            return g
    return -1


@k.parallel_kernel
def random_masked(masks: np.ndarray, rngs: np.ndarray, out: np.ndarray) -> None:
    """A uniformly random legal action per game, compiled (the benchmark's agent). The search for
    the chosen one counts down without a branch per action (mispredicted, those cost more than
    the count); no change to ``out[g]`` where nothing is legal."""
    for g in k.prange(masks.shape[0]):
        n = 0
        for a in range(masks.shape[1]):
            n += masks[g, a]
        r = k.below(rngs, g, n)
        if n == 0:
            continue
        a = 0
        r -= masks[g, 0]
        while r >= 0:
            a += 1
            r -= masks[g, a]
        out[g] = a


def random_masked_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Uniform legal actions for a batch of masks, in numpy (no Python loop per game)."""
    weights = rng.random(masks.shape) * masks
    return np.asarray(weights.argmax(axis=1), dtype=np.int64)


def encode_game(
    game: FastGame, max_turns: int = DEFAULT_MAX_TURNS, obs_dtype: npt.DTypeLike = np.float32
) -> tuple[np.ndarray, np.ndarray]:
    """Planes ``(10, 10, NUM_PLANES)`` and mask of one :class:`FastGame`'s seat to play, as
    ``observation.encode(state, state.current_seat, max_turns)`` gives for the same position
    (``quantize`` of it for ``obs_dtype=np.uint8``, written by the packed kernel of the batches)."""
    c = game.config
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    if np.dtype(obs_dtype) == np.uint8:
        words = np.zeros((NUM_CELLS, 3), dtype=np.int64)
        vals = plane_values(c.players, c.sides, max_turns, np.uint8).astype(np.int64)
        encode_row_packed(game.row, vals, max_turns, words, mask, np.zeros(SCRATCH, dtype=np.int64))
        return words.view(np.uint8).reshape(10, 10, NUM_PLANES), mask
    obs = np.zeros((NUM_CELLS, NUM_PLANES), dtype=np.float32)
    encode_row(game.row, plane_values(c.players, c.sides, max_turns, obs_dtype), max_turns, obs, mask)
    return obs.reshape(10, 10, NUM_PLANES), mask


def _warm_up() -> None:
    n, players = 2, 2
    rows = np.zeros((n, k.ROW), dtype=np.int32)
    rngs = np.ones(n, dtype=np.uint64)
    learners = np.ones(players, dtype=np.int8)
    fvals = plane_values(players, 2, 1000, np.float32)
    ivals = plane_values(players, 2, 1000, np.uint8).astype(np.int64)
    obs = np.zeros((n, 100, 24), dtype=np.float32)
    words = np.zeros((n, 100, 3), dtype=np.int64)
    masks = np.zeros((n, 405), dtype=np.int8)
    seats = np.zeros(n, dtype=np.int64)
    scratch = np.zeros((1, SCRATCH), dtype=np.int64)
    reset_games(
        rows, rngs, players, 2, learners, 1000, OBSERVE_FLOAT, fvals, obs, ivals, words, masks, seats, scratch
    )
    actions = np.zeros(n, dtype=np.int64)
    random_masked(masks, rngs, actions)
    first_illegal(masks, actions)
    rewards = np.zeros((n, players), dtype=np.float32)
    flags = np.zeros(n, dtype=np.bool_), np.zeros(n, dtype=np.bool_)
    for mode in (OBSERVE_FLOAT, OBSERVE_PACKED):
        random_masked(masks, rngs, actions)  # legal actions: the step trusts them
        step_games(
            rows,
            rngs,
            actions,
            learners,
            1000,
            mode,
            fvals,
            obs,
            ivals,
            words,
            masks,
            seats,
            rewards,
            *flags,
            scratch,
        )
    encode_row(rows[0], fvals, 1000, obs[0], masks[0])
    encode_row_packed(rows[0], ivals, 1000, words[0], masks[0], scratch[0])


register_warm_up("vector", _warm_up)
