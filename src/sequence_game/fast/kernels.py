"""The compiled rules: Numba kernels over one flat ``int32`` row per game.

A game is a row of :data:`ROW` ints (offsets ``O_*`` below) plus one ``uint64`` random state, so
that one game, a copy for a rollout, or a batch of thousands (a 2-D array, one row per game) go
through the same kernels. The rules are those of :mod:`sequence_game.state`, the reference, in
auto-draw mode (R5.3) with no table talk pending (R6.1); ``tests/fast`` and
``benchmarks/fast_differential.py`` hold the two engines to the same states, legal actions and
outcomes.

Board bookkeeping: the owner of each cell, the locked cells (R3.5) and, per side, one bit mask
per line of the board (10 rows, 10 columns, 19 diagonals each way) of its chips plus the corners:
a placement sets one bit in each of its four lines and finds a full window through its cell with
a few shifts (as the C reference's bitboards do); only then does the exact declaration of
R3.3/R3.4 run.
"""

from __future__ import annotations

import hashlib
import os
import re
from typing import Any, Final, TypeVar

import numpy as np

from ..actions import DEAD, DISCARD, DRAW, REMOVE, WILD
from ..board import LAYOUT, LINES, LINES_THROUGH, NUM_CELLS, WINDOW_CELLS
from ..cards import DECK_SIZE, JC, JD, JH, JS, NUM_CARDS, ONE_EYED, TWO_EYED

try:
    import numba
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "the fast engine needs Numba: pip install 'sequence-game[fast]' (the pure engine needs nothing)"
    ) from exc

_F = TypeVar("_F")


def _register_package_cache() -> None:
    """Numba keys a cached kernel to its own source file only, but the kernels of ``rollout`` and
    ``vector`` inline those of this module (its row offsets are compiled in as constants): after
    a change here they would load stale machine code. So a kernel is keyed to the contents of its
    own module and of every module of this package that it imports, directly or not (Numba's own
    cache locators, with that one stamp): editing one kernel module does not recompile the
    others, editing this one recompiles them all."""
    try:
        from numba.core import caching
    except ImportError:  # pragma: no cover - a Numba without these classes: its own keys
        return
    locators = getattr(getattr(caching, "CacheImpl", None), "_locator_classes", None)
    if not isinstance(locators, list):  # pragma: no cover
        return
    folder = os.path.dirname(os.path.abspath(__file__))
    sources: dict[str, bytes] = {}
    for name in os.listdir(folder):
        if name.endswith(".py"):
            with open(os.path.join(folder, name), "rb") as source:
                sources[name[:-3]] = source.read()
    imports = re.compile(rb"^\s*from \.(\w*) import ([\w, ]+)", re.MULTILINE)

    def stamp_of(module: str) -> str:
        seen: set[str] = set()
        todo = [module]
        while todo:
            name = todo.pop()
            if name in seen or name not in sources:
                continue
            seen.add(name)
            for found in imports.finditer(sources[name]):
                if found.group(1):
                    todo.append(found.group(1).decode())
                else:  # from . import kernels as k
                    todo.extend(part.split()[0] for part in found.group(2).decode().split(","))
        digest = hashlib.sha256()
        for name in sorted(seen):
            digest.update(name.encode() + b"\0" + sources[name])
        return digest.hexdigest()

    stamps: dict[str, str] = {}

    def keyed(base: Any) -> Any:
        class PackageLocator(base):  # type: ignore[misc]
            def get_source_stamp(self) -> str:
                module = os.path.basename(self._py_file)[:-3]
                if module not in stamps:
                    stamps[module] = stamp_of(module)
                return stamps[module]

            @classmethod
            def from_function(cls, py_func: Any, py_file: str) -> Any:
                if os.path.dirname(os.path.abspath(py_file)) != folder:
                    return None
                return super().from_function(py_func, py_file)

        return PackageLocator

    if not any(getattr(c, "_sequence_fast", False) for c in locators):
        ours = [keyed(caching.InTreeCacheLocator), keyed(caching.UserWideCacheLocator)]
        for c in ours:
            c._sequence_fast = True
        locators[:0] = ours


_register_package_cache()

# Numba's runtime (``_nrt``) keeps reference counts of the arrays passed between kernels: off for
# every kernel that allocates nothing, which made playouts about a third faster (docs/fast.md).
_NO_RUNTIME: Final[dict[str, Any]] = {"cache": True, "nogil": True, "error_model": "numpy", "_nrt": False}


def kernel(fn: _F) -> _F:
    """Compile with Numba, cached on disk (``__pycache__``) so that later processes start fast."""
    compiled: Any = numba.njit(**_NO_RUNTIME)(fn)
    return compiled  # type: ignore[no-any-return]


def allocating_kernel(fn: _F) -> _F:
    """As :func:`kernel`, for the few entry points that allocate arrays (Numba's runtime on)."""
    compiled: Any = numba.njit(cache=True, nogil=True, error_model="numpy")(fn)
    return compiled  # type: ignore[no-any-return]


def inline_kernel(fn: _F) -> _F:
    """As :func:`kernel`, inlined into its callers by Numba: a small helper of the hot loop, where a
    call would cost more than its body (arrays passed by struct, reference counts kept)."""
    compiled: Any = numba.njit(**_NO_RUNTIME, inline="always")(fn)
    return compiled  # type: ignore[no-any-return]


def parallel_kernel(fn: _F) -> _F:
    """As :func:`kernel`, with ``prange`` loops spread over threads (the batched environment)."""
    compiled: Any = numba.njit(cache=True, nogil=True, parallel=True, error_model="numpy")(fn)
    return compiled  # type: ignore[no-any-return]


prange = numba.prange

# ------------------------------------------------------------------ tables

MAX_PLAYERS: Final = 12
MAX_SIDES: Final = 3
MAX_HAND: Final = 8  # R4.2: at most 7 dealt; auto-draw hands never grow
LOG_SIZE: Final = 32  # recent actions kept: more than two per seat of a round (observation planes)
MAX_SEQS: Final = 16  # per side: far more than one placement can declare (R3.4)
NUM_WINDOWS: Final = len(WINDOW_CELLS)
PLAYABLE_CELLS: Final = 96

LAYOUT_A: Final = np.array(LAYOUT, dtype=np.int64)
CELL_A: Final = np.array(
    [
        next(c for c in range(NUM_CELLS) if LAYOUT[c] == card) if card not in TWO_EYED | ONE_EYED else -1
        for card in range(NUM_CARDS)
    ],
    dtype=np.int64,
)
CELL_B: Final = np.array(
    [
        [c for c in range(NUM_CELLS) if LAYOUT[c] == card][1] if card not in TWO_EYED | ONE_EYED else -1
        for card in range(NUM_CARDS)
    ],
    dtype=np.int64,
)
#: 0 a normal card, 1 a two-eyed jack, 2 a one-eyed jack (R1.3).
KIND: Final = np.array(
    [1 if c in TWO_EYED else 2 if c in ONE_EYED else 0 for c in range(NUM_CARDS)], np.int64
)
WIN_CELLS: Final = np.array(WINDOW_CELLS, dtype=np.int64)
THROUGH_N: Final = np.array([len(t) for t in LINES_THROUGH], dtype=np.int64)
THROUGH: Final = np.full((NUM_CELLS, 20), -1, dtype=np.int64)
for _cell, _windows in enumerate(LINES_THROUGH):
    THROUGH[_cell, : len(_windows)] = _windows
#: Cells two windows share: two sequences of a side may share at most one (R3.3).
SHARED: Final = np.array([[(a & b).bit_count() for b in LINES] for a in LINES], dtype=np.int8)
CORNERS_IN: Final = np.array([sum(1 for c in w if LAYOUT[c] < 0) for w in WINDOW_CELLS], dtype=np.int64)


def _line_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per cell and direction (row, column, diagonal, anti-diagonal): the line it lies on, its
    bit in that line's mask and the bits where the five-cell windows through it start."""
    line_of = np.zeros((NUM_CELLS, 4), dtype=np.int64)
    bit_of = np.zeros((NUM_CELLS, 4), dtype=np.int64)
    starts = np.zeros((NUM_CELLS, 4), dtype=np.int64)
    for cell in range(NUM_CELLS):
        r, c = divmod(cell, 10)
        for d, (line, at) in enumerate(((r, c), (10 + c, r), (20 + r - c + 9, r), (39 + r + c, r))):
            line_of[cell, d] = line
            bit_of[cell, d] = at
            starts[cell, d] = sum(1 << b for b in range(max(at - 4, 0), at + 1))
    return line_of, bit_of, starts


NUM_LINES: Final = 58
LINE_OF, LINE_BIT, LINE_STARTS = _line_tables()


def _window_lines() -> tuple[np.ndarray, np.ndarray]:
    """Per window: the line it lies on and the bit of its first cell in that line's mask, so that
    ``(mask >> start) & 31 == 31`` says whether a side holds all five of its cells."""
    line_of = np.zeros(NUM_WINDOWS, dtype=np.int64)
    start = np.zeros(NUM_WINDOWS, dtype=np.int64)
    for w, cells in enumerate(WINDOW_CELLS):
        d = next(d for d in range(4) if len({int(LINE_OF[c, d]) for c in cells}) == 1)
        line_of[w] = LINE_OF[cells[0], d]
        start[w] = min(LINE_BIT[c, d] for c in cells)
    return line_of, start


WIN_LINE, WIN_START = _window_lines()
CARD_BIT: Final = np.array([1 << c for c in range(NUM_CARDS)], dtype=np.int64)
#: ``CARD_CELL[2 * card + k]``: the card's first (k = 0) or second cell; 0 for jacks (never read).
CARD_CELL: Final = np.array(
    [max(cells[card], 0) for card in range(NUM_CARDS) for cells in (CELL_A, CELL_B)], dtype=np.int64
)
#: The other cell of the same card (R1.1: every normal card has two); -1 for the corners.
PARTNER: Final = np.array(
    [-1 if LAYOUT[c] < 0 else int(CELL_A[LAYOUT[c]] + CELL_B[LAYOUT[c]] - c) for c in range(NUM_CELLS)],
    dtype=np.int64,
)
IS_CORNER: Final = np.array([1 if LAYOUT[c] < 0 else 0 for c in range(NUM_CELLS)], dtype=np.int64)

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
def index(value: int) -> int:
    """``value`` (a card, cell, seat or small count: 0-255) as an unsigned byte, so that the
    compiler knows it is not negative and drops the negative-index fix-up (Python's ``a[-1]``)
    from every index computed from it: on the hot path of a turn that took a quarter of its
    time (``benchmarks/fast_vs_c.py``)."""
    return int(np.uint8(value))


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


@kernel
def deal_random(s: np.ndarray, rs: np.ndarray, g: int, players: int, sides: int, deck: np.ndarray) -> None:
    """A new game with a random dealer (each seat equally likely, as the cut of R4.1) and deck."""
    dealer = below(rs, g, players)
    shuffled_deck(rs, g, deck)
    deal(s, players, sides, dealer, deck)


# ------------------------------------------------------------ the rules


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


@kernel
def _declare(s: np.ndarray, side: int, cell: int) -> None:
    """Declare the new sequences through ``cell`` that R3.3 allows, choosing as R3.4 says."""
    seqs = O_SEQ + side * MAX_SEQS
    lines = O_LINES + side * NUM_LINES
    nseq = s[O_NSEQ + side]
    allowed = s[O_SCRATCH : O_SCRATCH + 20]
    na = 0
    for k in range(THROUGH_N[cell]):
        w = THROUGH[cell, k]
        if (s[lines + WIN_LINE[w]] >> WIN_START[w]) & 31 == 31:  # the side's chips or corners
            ok = True
            for j in range(nseq):
                if SHARED[w, s[seqs + j]] > 1:
                    ok = False
                    break
            if ok:
                allowed[na] = w
                na += 1
    idx = s[O_SCRATCH + 20 : O_SCRATCH + 40]
    for size in range(na, 0, -1):
        for i in range(size):
            idx[i] = i
        while True:
            good = True
            for a in range(size):
                for b in range(a + 1, size):
                    if SHARED[allowed[idx[a]], allowed[idx[b]]] > 1:
                        good = False
                        break
                if not good:
                    break
            if good:
                for a in range(size):
                    w = allowed[idx[a]]
                    s[seqs + nseq] = w
                    nseq += 1
                    for m in range(5):
                        c = WIN_CELLS[w, m]
                        if IS_CORNER[c] == 0 and s[O_LOCKED + c] == 0:
                            s[O_LOCKED + c] = 1
                            s[O_LOCKN + side] += 1
                            _list_del(
                                s, O_UNLOCKED + side * PLAYABLE_CELLS, O_UNLOCKED_AT, O_NUNLOCKED + side, c
                            )
                s[O_NSEQ + side] = nseq
                if nseq >= s[I_NEED]:
                    s[I_END] = END_SEQUENCES
                    s[I_WINNER] = side
                return
            # the next combination in lexicographic order (as itertools.combinations)
            i = size - 1
            while i >= 0 and idx[i] == i + na - size:
                i -= 1
            if i < 0:
                break
            idx[i] += 1
            for j in range(i + 1, size):
                idx[j] = idx[j - 1] + 1


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


@inline_kernel
def outcome(s: np.ndarray) -> int:
    """What a playout returns once it stops: the winning side, -1 for a drawn game, -2 for a game
    stopped unfinished (at its turn limit)."""
    if s[I_END] == END_NONE:
        return -2
    return int(s[I_WINNER])


@kernel
def playout(s: np.ndarray, rs: np.ndarray, g: int, max_turns: int) -> int:
    """Random play (:func:`random_action`) until the game ends or reaches ``max_turns`` turns;
    the winning side, -1 for a drawn game, -2 when stopped unfinished."""
    while s[I_END] == END_NONE and s[I_TURN] < max_turns:
        apply(s, rs, g, random_action(s, rs, g))
    return outcome(s)


@allocating_kernel
def play_games(players: int, sides: int, games: int, seed: int, max_turns: int, stats: np.ndarray) -> None:
    """``games`` random games from ``seed``: per game, ``stats[i] = (winner, turns)`` (winner as
    :func:`playout`). The benchmark's loop, wholly compiled."""
    s = np.empty(ROW, dtype=np.int32)
    rs = np.empty(1, dtype=np.uint64)
    rs[0] = seed_state(seed)
    deck = np.empty(DECK_SIZE, dtype=np.int32)
    for i in range(games):
        deal_random(s, rs, 0, players, sides, deck)
        stats[i, 0] = playout(s, rs, 0, max_turns)
        stats[i, 1] = s[I_TURN]
