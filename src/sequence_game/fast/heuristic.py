"""The heuristic bot's policy, compiled: rollouts that play like the opponent a search models.

A fair search over sampled worlds gains over ``heuristic`` only with rollouts that play as that
opponent does (``docs/bots.md``); in Python such a rollout costs about 60 ms. These kernels play
the same one-ply choice over the fast engine's row (:mod:`.kernels`): every R5.2 play scored as
:func:`~sequence_game.bots.heuristic.score_plays` scores it with ``inference=False``, the best
taken, ties broken with the row's random state.

:func:`choose_inferring` also reads the other seats' hands from their last plays, as the
default ``heuristic`` bot does (``inference=True``, :mod:`~sequence_game.bots.inference`), from
the row's log of the last 32 actions. :func:`choose_lite` is the cheap form: the open-window
gain (``evaluation.action_gain``) under the heuristic's weights, jacks' spending costs and the
win (R7.1), without card counting or threats. Each has a ``..._with`` form taking scratch arrays
(:func:`new_work`) for kernels compiled without Numba's runtime, and a playout.

The scores are the Python code's floats (its sums in its order; ``docs/fast.md`` gives the
agreement measured). Speed comes from reading the windows off the row's line masks, counting
threats once a move and, per play, again only through its cell; the choosing kernels also keep
the window tables from one move to the next in their scratch arrays and skip the jacks' plays
whose score a cheap bound puts outside the tie set (:func:`_score_pruned`), so they choose as
:func:`choose_unpruned_with`, which scores every play, does: the same move, the same draws.

The weights are written out here, not imported from ``bots`` (the fast package must not import
the bots, and Numba compiles them in as constants); ``tests/fast/test_heuristic_kernel.py``
holds them equal to :mod:`sequence_game.bots.heuristic`'s.

>>> from sequence_game import GameConfig
>>> from sequence_game.fast.engine import FastGame
>>> game = FastGame.new(GameConfig(players=2), seed=3)
>>> heuristic_action(game, seed=1) in game.legal_actions()
True
"""

from __future__ import annotations

from typing import Final

import numpy as np

from ..actions import DEAD, DISCARD, REMOVE, WILD
from ..board import LAYOUT, LINES, LINES_THROUGH, NUM_CELLS, WINDOW_CELLS
from ..cards import JC, JD, JH, JS, NUM_CARDS, ONE_EYED, TWO_EYED
from . import kernels as k
from .engine import FastGame

# ------------------------------------------------------------------ weights (bots.heuristic)

LINE: Final = np.array([0.0, 1.0, 4.0, 14.0, 50.0, 400.0])
"""``HEURISTIC.line``: an open window of one's own side by how many of its spaces count."""
BLOCK: Final = np.array([0.0, 1.0, 5.0, 20.0, 140.0, 0.0])
"""``HEURISTIC.block``: an opponent's open window, as the cost to us."""
CENTRE_WEIGHT: Final = 2.0
WIN: Final = 100_000.0
TWO_EYED_SPEND: Final = 1000.0
ONE_EYED_SPEND: Final = 400.0
TEAM_FOUR_BONUS: Final = 0.2
THREAT_WEIGHT: Final = 1.0
WINNING_SEQUENCE: Final = 2000.0
REACH: Final = (1.0, 0.6, 0.2)
"""How reachable a space is: its card held, a copy unseen, none left (``heuristic.REACH``)."""
JACK_KEEP: Final = (120.0, 72.0)
"""``HeuristicBot.jack_keep``: what a two-eyed and a one-eyed jack are worth keeping (discards)."""
TIE: Final = 1e-9
"""Scores within this of the best are ties (as ``OnePlyBot``)."""
FULL: Final = 1
"""Policy: :func:`choose`, the heuristic bot with ``inference=False``."""
LITE: Final = 2
"""Policy: :func:`choose_lite`, its cheap form."""
INFERRING: Final = 3
"""Policy: :func:`choose_inferring`, the heuristic bot's default (with inference). The numbers
are ``fast.pimc``'s rollout policies, where 0 is random play."""
GREEDY: Final = 4
"""Policy: :func:`choose_greedy`, the ``greedy`` bot (its weights, no hand, no jack costs): a
model of a player who is not the heuristic, for the other seats of a search's rollouts."""
TUNED: Final = 5
"""Policy: the heuristic with inference playing the tuned numbers (:data:`TUNED_PARAMS`), a little
stronger than the default: a search's rollouts of its own seats."""
OPPONENT_STEP: Final = 0.15
"""``heuristic.opponent_weights``: each side later in the turn order weighs this much less."""
GREEDY_LINE: Final = np.array([0.0, 1.0, 3.0, 9.0, 27.0, 200.0])
GREEDY_BLOCK: Final = np.array([0.0, 1.0, 3.0, 9.0, 27.0, 0.0])

# ------------------------------------------------------------------ parameters (tuning)

P_LINE: Final = 0
"""Offsets in a parameter array (:data:`DEFAULT_PARAMS`): ``weights.line`` (6)."""
P_BLOCK: Final = P_LINE + 6  # ``weights.block`` (6)
P_CENTRE: Final = P_BLOCK + 6  # ``weights.centre``
P_TWO_EYED: Final = P_CENTRE + 1  # ``jack_costs[0]``: spending a two-eyed jack
P_ONE_EYED: Final = P_TWO_EYED + 1  # ``jack_costs[1]``: spending a one-eyed jack
P_THREAT: Final = P_ONE_EYED + 1  # ``threat_weight``
P_REACH: Final = P_THREAT + 1  # ``reach`` (3)
NUM_PARAMS: Final = P_REACH + 3
DEFAULT_PARAMS: Final = np.array(
    [*LINE, *BLOCK, CENTRE_WEIGHT, TWO_EYED_SPEND, ONE_EYED_SPEND, THREAT_WEIGHT, *REACH], dtype=np.float64
)
"""The numbers ``HeuristicBot`` takes as options, as one float64 array: what
:func:`choose_params_with` reads, so that a search over them (``fast.tuning``) needs no
recompiling. These defaults are today's constants; the sequence value in the threat terms
stays ``LINE[5]`` (``heuristic.threat_value`` uses ``HEURISTIC`` whatever the weights)."""
GREEDY_PARAMS: Final = np.array([*GREEDY_LINE, *GREEDY_BLOCK, 0.0, 0.0, 0.0, 0.0, *REACH], dtype=np.float64)
"""The ``greedy`` bot's weights in the same layout (:func:`score_greedy` reads its lines and blocks)."""
TUNED_PARAMS: Final = np.array(
    [
        *(0.0, 1.355, 5.489, 13.96, 50.83, 727.6),
        *(0.0, 0.8759, 3.731, 10.69, 122.4, 0.0),
        2.336,
        489.7,
        288.6,
        0.5999,
        *(1.0, 0.4581, 0.1125),
    ],
    dtype=np.float64,
)
"""The numbers the joint search of ``scripts/tune_heuristic.py`` found (``bots.heuristic.TUNED``,
written out here because the fast package does not import ``bots``): 52.2% against the default
numbers over 5,000 games (``docs/bots.md``, tenth pass). The :data:`TUNED` policy plays them."""

# ------------------------------------------------------------------ tables (board)

NUM_WINDOWS: Final = len(WINDOW_CELLS)
CELLS_5: Final = np.array(WINDOW_CELLS, dtype=np.int64)
THROUGH_N: Final = np.array([len(t) for t in LINES_THROUGH], dtype=np.int64)
THROUGH: Final = np.full((NUM_CELLS, 20), -1, dtype=np.int64)
for _cell, _windows in enumerate(LINES_THROUGH):
    THROUGH[_cell, : len(_windows)] = _windows
#: 1 where two windows share two or more spaces: both cannot be sequences of one side (R3.3).
CLASH: Final = np.array([[int((a & b).bit_count() >= 2) for b in LINES] for a in LINES], dtype=np.int8)
CARD_OF: Final = np.array(LAYOUT, dtype=np.int64)
"""The card printed on each cell, -1 on the corners."""
CENTRE: Final = np.array(
    [(4.5 - max(abs(c // 10 - 4.5), abs(c % 10 - 4.5)) - 0.5) / 4 for c in range(NUM_CELLS)]
)
"""``evaluation.CENTRE``: 0 at the rim, 1 in the middle four."""


def _window_lines() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per window, the line of the row's line masks (``kernels.O_LINES``: rows, columns,
    diagonals, anti-diagonals) it lies on and the bit its first cell has there (a window's cells
    ascend with the line's bits); per line, the bits of the corners on it."""
    line_of = np.zeros(NUM_WINDOWS, dtype=np.int64)
    start = np.zeros(NUM_WINDOWS, dtype=np.int64)
    corner_bits = np.zeros(k.NUM_LINES, dtype=np.int64)
    for w, cells in enumerate(WINDOW_CELLS):
        r, c = divmod(cells[0], 10)
        step = cells[1] - cells[0]
        line, at = {1: (r, c), 10: (10 + c, r), 11: (20 + r - c + 9, r), 9: (39 + r + c, r)}[step]
        line_of[w] = line
        start[w] = at
        for m, cell in enumerate(cells):
            if LAYOUT[cell] < 0:
                corner_bits[line] |= 1 << (at + m)
    return line_of, start, corner_bits


WINDOW_LINE, WINDOW_START, CORNER_BITS = _window_lines()
THROUGH_AT: Final = np.array(
    [
        [WINDOW_CELLS[THROUGH[c, j]].index(c) if THROUGH[c, j] >= 0 else 0 for j in range(20)]
        for c in range(NUM_CELLS)
    ],
    dtype=np.int64,
)
"""Per cell and window through it, the cell's place in the window (0-4)."""
POPCOUNT_5: Final = np.array([i.bit_count() for i in range(32)], dtype=np.int64)
LOWEST_ZERO_5: Final = np.array(
    [next((b for b in range(5) if not i >> b & 1), -1) for i in range(32)], dtype=np.int64
)
"""Per five-bit window of a line mask: how many spaces count, and which one is missing (of four)."""
JACK_KIND: Final = np.array([1 if c in TWO_EYED else 2 if c in ONE_EYED else 0 for c in range(NUM_CARDS)])
"""0 a natural card, 1 a two-eyed jack (wild), 2 a one-eyed jack (removes a chip), R1.3."""

# ------------------------------------------------------------------ the workspace

I_PLAYS: Final = 0  # up to 300 candidate R5.2 plays, ascending
I_ALLOWED: Final = I_PLAYS + 300  # 20: complete windows R3.3 allows (a declaration)
I_IDX: Final = I_ALLOWED + 20  # 20: a combination of them (R3.4)
I_NEW: Final = I_IDX + 20  # 20: the windows a placement declares
I_HAND: Final = I_NEW + 20  # 52: copies of each card in the seat's hand
I_UNSEEN: Final = I_HAND + NUM_CARDS  # 52: copies the seat cannot see (``worlds.unseen_cards``)
I_BEFORE_NEXT: Final = I_UNSEEN + NUM_CARDS  # 3: per side, cards held by seats acting before our next turn
I_OPEN: Final = I_BEFORE_NEXT + k.MAX_SIDES  # 3 x 192: per side and window, its count if open, else -1
I_MISSING: Final = I_OPEN + k.MAX_SIDES * NUM_WINDOWS  # 3 x 192: per side, a threat's missing cell or -1
I_THREATS: Final = I_MISSING + k.MAX_SIDES * NUM_WINDOWS  # 3 x 100: per side, its threats per missing cell
I_HOT: Final = I_THREATS + k.MAX_SIDES * NUM_CELLS  # 3 x 100: per side and cell, its windows there of 3+
I_LIST: Final = I_HOT + k.MAX_SIDES * NUM_CELLS  # 3 x 100: per side, the cells its threats miss
I_LISTN: Final = I_LIST + k.MAX_SIDES * NUM_CELLS  # 3: their numbers
I_AFTER: Final = I_LISTN + k.MAX_SIDES  # 100: the cells one side's threats miss after a play
I_COUNT: Final = I_AFTER + NUM_CELLS  # 100: threats per missing cell, counted afresh (after a sequence)
I_WAS: Final = I_COUNT + NUM_CELLS  # 20: per window through the played cell, its missing cell before
I_NOW: Final = I_WAS + 20  # 20: ... and after the play
I_MARK: Final = I_NOW + 20  # 100: cells listed for the current play (stamps)
I_STAMP: Final = I_MARK + NUM_CELLS  # 1
I_SAVED: Final = I_STAMP + 1  # 2 x 32 (of 100) + 3: the cells undone with their owners, sequence counts
I_LAST: Final = I_SAVED + NUM_CELLS + k.MAX_SIDES  # 12: per seat, the log entry of its last R5.2 play
I_INFERRED: Final = I_LAST + k.MAX_PLAYERS  # 12: per seat, 1 when its hand is inferred
I_ABSENT: Final = I_INFERRED + k.MAX_PLAYERS  # 12: per seat, the cards it did not hold (a bit per card)
I_FRESH: Final = I_ABSENT + k.MAX_PLAYERS  # 12: per seat, cards taken in since that play
I_KNOWN: Final = I_FRESH + k.MAX_PLAYERS  # 1: the sides the window tables (I_OPEN to I_LISTN) are for, 0 none
I_KNOWN_BOARD: Final = I_KNOWN + 1  # 100: the owners they were counted on
I_KNOWN_SEQ: Final = I_KNOWN_BOARD + NUM_CELLS  # 3 + 3 x 16: the sequences then: counts, windows
I_CHANGED: Final = I_KNOWN_SEQ + k.MAX_SIDES * (1 + k.MAX_SEQS)  # 100: the cells whose chip changed since
INT_WORK: Final = I_CHANGED + NUM_CELLS
MAX_REWINDOW: Final = 8
"""More changed cells than this, and the window tables are counted afresh (:func:`_window_tables`)."""
F_SCORES: Final = 0  # 300: the score of each candidate
F_RISK: Final = F_SCORES + 300  # 3: per opponent side, its completion risk before the play
F_REACH: Final = F_RISK + k.MAX_SIDES  # 3 x 100: per side, how reachable each open space is, else 1
F_GAIN: Final = F_REACH + k.MAX_SIDES * NUM_CELLS  # 100: per open cell, its placement's window gain
FLOAT_WORK: Final = F_GAIN + NUM_CELLS


def new_work() -> tuple[np.ndarray, np.ndarray]:
    """The scratch arrays :func:`choose_with` needs (one pair per thread; ``INT_WORK`` int64s and
    ``FLOAT_WORK`` float64s, for callers that allocate their own)."""
    return np.zeros(INT_WORK, dtype=np.int64), np.zeros(FLOAT_WORK, dtype=np.float64)


# ------------------------------------------------------------------ kernels


@k.inline_kernel
def _clashes(s: np.ndarray, iw: np.ndarray, side: int, w: int, extra: int) -> bool:
    """Whether window ``w`` can no longer be a new sequence of ``side`` (R3.3): it shares two
    spaces with one of its sequences, or with one of the ``extra`` windows just declared."""
    base = k.O_SEQ + side * k.MAX_SEQS
    for j in range(s[k.O_NSEQ + side]):
        if CLASH[w, s[base + j]]:
            return True
    for j in range(extra):  # noqa: SIM110 - Numba compiles no generator expressions
        if CLASH[w, iw[I_NEW + j]]:
            return True
    return False


@k.inline_kernel
def _completes(s: np.ndarray, side: int, cell: int) -> bool:
    """Whether a chip of ``side`` on ``cell`` fills a window of its own (from the row's line
    masks, which do not show the chip yet): only then can it declare a sequence."""
    own_at = k.O_LINES + side * k.NUM_LINES
    for j in range(THROUGH_N[cell]):
        w = THROUGH[cell, j]
        if ((s[own_at + WINDOW_LINE[w]] >> WINDOW_START[w]) & 31) | (1 << THROUGH_AT[cell, j]) == 31:
            return True
    return False


@k.kernel
def _declares(s: np.ndarray, iw: np.ndarray, side: int, cell: int) -> int:
    """How many sequences a chip of ``side`` just placed on ``cell`` declares (R3.3, R3.4: as
    many as allowed, the first such set in window order), written to ``iw[I_NEW:]``. The chip
    is on the board already (its owner set; the line masks need not show it)."""
    if not _completes(s, side, cell):
        return 0
    na = 0
    for i in range(THROUGH_N[cell]):
        w = THROUGH[cell, i]
        full = True
        for m in range(5):
            c = CELLS_5[w, m]
            if CARD_OF[c] >= 0 and s[k.O_OWNER + c] != side:
                full = False
                break
        if full and not _clashes(s, iw, side, w, 0):
            iw[I_ALLOWED + na] = w
            na += 1
    for size in range(na, 0, -1):
        for i in range(size):
            iw[I_IDX + i] = i
        while True:
            good = True
            for a in range(size):
                for b in range(a + 1, size):
                    if CLASH[iw[I_ALLOWED + iw[I_IDX + a]], iw[I_ALLOWED + iw[I_IDX + b]]]:
                        good = False
                        break
                if not good:
                    break
            if good:
                for a in range(size):
                    iw[I_NEW + a] = iw[I_ALLOWED + iw[I_IDX + a]]
                return size
            i = size - 1
            while i >= 0 and iw[I_IDX + i] == i + na - size:
                i -= 1
            if i < 0:
                break
            iw[I_IDX + i] += 1
            for j in range(i + 1, size):
                iw[I_IDX + j] = iw[I_IDX + j - 1] + 1
    return 0


@k.inline_kernel
def _opponent_weight(side: int, t: int, sides: int) -> float:
    """``heuristic.opponent_weights``: 1 for the side right after us, 0.15 less per side later."""
    return _stepped_weight(side, t, sides, OPPONENT_STEP)


@k.inline_kernel
def _stepped_weight(side: int, t: int, sides: int, step: float) -> float:
    """How much side ``t``'s windows weigh to ``side``: 1 for the side right after it, ``step``
    less per side later (0 weighs every opponent alike, as ``greedy`` does)."""
    return 1.0 - step * (((t - side) % sides) - 1)


@k.inline_kernel
def _window_bits(s: np.ndarray, iw: np.ndarray, t: int, w: int) -> int:
    """Window ``w`` for side ``t`` as five bits of its line mask (the side's chips and the
    corners), or -1 when it is not open: another side's chip in it, or it cannot be a new
    sequence (R3.3)."""
    line = WINDOW_LINE[w]
    at = WINDOW_START[w]
    others = 0
    for o in range(s[k.I_SIDES]):
        if o != t:
            others |= s[k.O_LINES + o * k.NUM_LINES + line]
    if ((others & ~CORNER_BITS[line]) >> at) & 31:
        return -1  # another side's chip blocks it
    if _clashes(s, iw, t, w, 0):
        return -1
    return int((s[k.O_LINES + t * k.NUM_LINES + line] >> at) & 31)


@k.kernel
def _open_gain(
    s: np.ndarray, iw: np.ndarray, side: int, action: int, four: float, p: np.ndarray, step: float
) -> float:
    """``evaluation.action_gain`` of an R5.2 play under the heuristic's weights (our fours worth
    ``four``), each opponent's windows weighted by :func:`_opponent_weight` with ``step``; the
    weights from the parameter array ``p`` (:data:`DEFAULT_PARAMS`). A window's count and whether another
    side's chip blocks it come from the row's line masks (a side's chips and the corners)."""
    sides = s[k.I_SIDES]
    gain = 0.0
    if action < REMOVE:
        cell = action if action < WILD else action - WILD
        for i in range(THROUGH_N[cell]):
            w = THROUGH[cell, i]
            for t in range(sides):
                bits = _window_bits(s, iw, t, w)
                if bits < 0:
                    continue
                n = POPCOUNT_5[bits]
                if t == side:
                    hi = four if n + 1 == 4 else p[P_LINE + n + 1]
                    lo = four if n == 4 else p[P_LINE + n]
                    gain += hi - lo
                else:
                    gain += p[P_BLOCK + n] * _stepped_weight(side, t, sides, step)
        return float(gain + p[P_CENTRE] * CENTRE[cell])
    cell = action - REMOVE
    owner = s[k.O_OWNER + cell]
    for i in range(THROUGH_N[cell]):
        w = THROUGH[cell, i]
        line = WINDOW_LINE[w]
        at = WINDOW_START[w]
        for t in range(sides):
            if _clashes(s, iw, t, w, 0):
                continue
            others = 0
            for o in range(sides):
                if o != t:
                    others |= s[k.O_LINES + o * k.NUM_LINES + line]
            # another side's chips in the window, the removed one included
            blocked = ((others & ~CORNER_BITS[line]) >> at) & 31
            n = POPCOUNT_5[(s[k.O_LINES + t * k.NUM_LINES + line] >> at) & 31]
            scale = 1.0 if t == side else -_stepped_weight(side, t, sides, step)
            if t == owner:
                if blocked:
                    continue
                if t == side:
                    hi = four if n == 4 else p[P_LINE + n]
                    lo = four if n - 1 == 4 else p[P_LINE + n - 1]
                    gain += scale * (lo - hi)
                else:
                    gain += scale * (p[P_BLOCK + n - 1] - p[P_BLOCK + n])
            else:
                if blocked & ~(1 << THROUGH_AT[cell, i]):
                    continue  # blocked by another side's chip once the removed one is gone
                if t == side:
                    gain += scale * (four if n == 4 else p[P_LINE + n])
                else:
                    gain += scale * p[P_BLOCK + n]
    return gain


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


@k.kernel
def score_lite(s: np.ndarray, iw: np.ndarray, fw: np.ndarray) -> int:
    """Score the R5.2 plays of the seat to move as :func:`choose_lite` does: their number, the
    plays in ``iw[I_PLAYS:]`` and the scores in ``fw[F_SCORES:]``; a forced action (R5.1, R5.5)
    as ``-1 - action``; 0 when the game is over."""
    if s[k.I_END] != k.END_NONE:
        return 0
    n = _candidates(s, iw)
    if n < 0:
        return n
    seat = s[k.I_SEAT]
    sides = s[k.I_SIDES]
    side = seat % sides
    team = s[k.I_PLAYERS] // sides
    four = LINE[4] * (1.0 + TEAM_FOUR_BONUS * (team - 1))
    need = s[k.I_NEED]
    for i in range(n):
        a = iw[I_PLAYS + i]
        score = _open_gain(s, iw, side, a, four, DEFAULT_PARAMS, OPPONENT_STEP)
        if a >= REMOVE:
            score -= ONE_EYED_SPEND
        else:
            cell = a
            if a >= WILD:
                score -= TWO_EYED_SPEND
                cell = a - WILD
            s[k.O_OWNER + cell] = side
            if s[k.O_NSEQ + side] + _declares(s, iw, side, cell) >= need:
                score += WIN  # R7.1
            s[k.O_OWNER + cell] = -1
        fw[F_SCORES + i] = score
    return n


@k.kernel
def score_greedy(s: np.ndarray, iw: np.ndarray, fw: np.ndarray) -> int:
    """Score the R5.2 plays of the seat to move as the ``greedy`` bot does: the open-window gain
    under its weights (``evaluation.GREEDY``), every opponent weighted alike, nothing for the
    hand, a jack's cost or the win beyond the sequence's own weight. Returns as :func:`score_lite`."""
    if s[k.I_END] != k.END_NONE:
        return 0
    n = _candidates(s, iw)
    if n < 0:
        return n
    side = s[k.I_SEAT] % s[k.I_SIDES]
    for i in range(n):
        fw[F_SCORES + i] = _open_gain(s, iw, side, iw[I_PLAYS + i], GREEDY_LINE[4], GREEDY_PARAMS, 0.0)
    return n


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
def _list_threats(iw: np.ndarray, t: int) -> None:
    """The cells side ``t``'s threats miss (``I_THREATS`` above 0), ascending, to ``I_LIST``."""
    counts = I_THREATS + t * NUM_CELLS
    listed = I_LIST + t * NUM_CELLS
    ln = 0
    for c in range(NUM_CELLS):
        if iw[counts + c] > 0:
            iw[listed + ln] = c
            ln += 1
    iw[I_LISTN + t] = ln


@k.inline_kernel
def _count_window(s: np.ndarray, iw: np.ndarray, t: int, w: int) -> None:
    """Window ``w``'s terms for side ``t`` put into the tables: its count if open (``I_OPEN``), its
    missing cell if a threat (``I_MISSING``, counted in ``I_THREATS``) and, at three or more, a
    mark on each of its cells (``I_HOT``)."""
    opened = I_OPEN + t * NUM_WINDOWS
    missing = I_MISSING + t * NUM_WINDOWS
    iw[opened + w] = -1
    iw[missing + w] = -1
    bits = _window_bits(s, iw, t, w)
    if bits < 0:
        return
    n = POPCOUNT_5[bits]
    iw[opened + w] = n
    if n >= 3:
        hot = I_HOT + t * NUM_CELLS
        for m in range(5):
            iw[hot + CELLS_5[w, m]] += 1
    if n == 4:
        empty = CELLS_5[w, LOWEST_ZERO_5[bits]]
        iw[missing + w] = empty
        iw[I_THREATS + t * NUM_CELLS + empty] += 1


@k.kernel
def _windows_of(s: np.ndarray, iw: np.ndarray, t: int) -> None:
    """Side ``t``'s windows before the play: per window its count if open (``I_OPEN``, else -1),
    its missing cell if a threat (``I_MISSING``); per cell the threats it completes
    (``I_THREATS``), its windows of three or more (``I_HOT``) and the list of the cells threats
    miss, ascending (``I_LIST``). From the row's line masks: a few shifts a window."""
    counts = I_THREATS + t * NUM_CELLS
    iw[counts : counts + NUM_CELLS] = 0
    hot = I_HOT + t * NUM_CELLS
    iw[hot : hot + NUM_CELLS] = 0
    for w in range(NUM_WINDOWS):
        _count_window(s, iw, t, w)
    _list_threats(iw, t)


@k.kernel
def _rewindow(s: np.ndarray, iw: np.ndarray, t: int, cell: int) -> None:
    """:func:`_windows_of` for the windows through ``cell`` only, after its chip changed: each
    one's old terms taken out of the per-cell counts, its new ones put in (the list is left to
    :func:`_list_threats`)."""
    opened = I_OPEN + t * NUM_WINDOWS
    missing = I_MISSING + t * NUM_WINDOWS
    counts = I_THREATS + t * NUM_CELLS
    hot = I_HOT + t * NUM_CELLS
    for j in range(THROUGH_N[cell]):
        w = THROUGH[cell, j]
        if iw[opened + w] >= 3:
            for m in range(5):
                iw[hot + CELLS_5[w, m]] -= 1
        if iw[missing + w] >= 0:
            iw[counts + iw[missing + w]] -= 1
        _count_window(s, iw, t, w)


@k.kernel
def _window_tables(s: np.ndarray, iw: np.ndarray, incremental: bool) -> None:
    """:func:`_windows_of` for every side. They depend only on the board (its owners, with the
    line masks in step) and the sequences (R3.3), which are kept with them (``I_KNOWN``): with
    ``incremental``, when the sequences are those of the tables and a few cells changed, as
    from one turn of a rollout to the next (or none, from one world of a search to another),
    only the windows through those cells are counted again."""
    sides = s[k.I_SIDES]
    same = incremental and iw[I_KNOWN] == sides
    if same:
        for t in range(sides):
            nseq = s[k.O_NSEQ + t]
            if iw[I_KNOWN_SEQ + t] != nseq:
                same = False
            else:
                for j in range(nseq):
                    if iw[I_KNOWN_SEQ + k.MAX_SIDES + t * k.MAX_SEQS + j] != s[k.O_SEQ + t * k.MAX_SEQS + j]:
                        same = False
    changed = 0
    if same:
        for c in range(NUM_CELLS):
            if iw[I_KNOWN_BOARD + c] != s[k.O_OWNER + c]:
                if changed == MAX_REWINDOW:
                    same = False
                    break
                iw[I_CHANGED + changed] = c
                changed += 1
    if same:
        if changed > 0:
            for j in range(changed):
                cell = iw[I_CHANGED + j]
                for t in range(sides):
                    _rewindow(s, iw, t, cell)
                iw[I_KNOWN_BOARD + cell] = s[k.O_OWNER + cell]
            for t in range(sides):
                _list_threats(iw, t)
        return
    for t in range(sides):
        _windows_of(s, iw, t)
    for c in range(NUM_CELLS):
        iw[I_KNOWN_BOARD + c] = s[k.O_OWNER + c]
    for t in range(sides):
        iw[I_KNOWN_SEQ + t] = s[k.O_NSEQ + t]
        for j in range(s[k.O_NSEQ + t]):
            iw[I_KNOWN_SEQ + k.MAX_SIDES + t * k.MAX_SEQS + j] = s[k.O_SEQ + t * k.MAX_SEQS + j]
    iw[I_KNOWN] = sides


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


@k.inline_kernel
def _window_gain(
    fw: np.ndarray,
    p: np.ndarray,
    w: int,
    t: int,
    n: int,
    cell: int,
    side: int,
    sides: int,
    four: float,
) -> float:
    """What a placement on ``cell`` is worth through window ``w``, open to side ``t`` with ``n``
    spaces counted: our line's step up (``four`` for a four) or, for an opponent's window, its
    block, each scaled by how reachable the window's other empty spaces are (``F_REACH``)."""
    f = 1.0
    for m in range(5):  # the other open spaces' reach (1 elsewhere, a product unchanged by it)
        c = CELLS_5[w, m]
        if c != cell:
            f *= fw[F_REACH + t * NUM_CELLS + c]
    if t == side:
        hi = four if n + 1 == 4 else p[P_LINE + n + 1]
        lo = four if n == 4 else p[P_LINE + n]
        return float((hi - lo) * f)
    return float(p[P_BLOCK + n] * f * _opponent_weight(side, t, sides))


@k.kernel
def _aware_gain(
    s: np.ndarray, iw: np.ndarray, fw: np.ndarray, side: int, cell: int, four: float, p: np.ndarray
) -> float:
    """``evaluation.aware_gain`` of a placement on ``cell`` under the heuristic's weights, each
    window scaled by how reachable its other missing spaces are (``F_REACH``)."""
    sides = s[k.I_SIDES]
    gain = 0.0
    for i in range(THROUGH_N[cell]):
        w = THROUGH[cell, i]
        for t in range(sides):
            n = iw[I_OPEN + t * NUM_WINDOWS + w]
            if n >= 0:
                gain += _window_gain(fw, p, w, t, n, cell, side, sides, four)
    return float(gain + p[P_CENTRE] * CENTRE[cell])


@k.kernel
def _aware_gains(
    s: np.ndarray, iw: np.ndarray, fw: np.ndarray, side: int, four: float, p: np.ndarray
) -> None:
    """:func:`_aware_gain` of every open cell at once, into ``F_GAIN`` (for a hand with a
    two-eyed jack, which may play on any of them): one pass over the open windows, each adding
    to its empty cells. Windows ascend and every cell's windows ascend (``LINES_THROUGH``), so
    each cell's terms are added in the same order as one by one: the same floats."""
    sides = s[k.I_SIDES]
    for c in range(NUM_CELLS):
        fw[F_GAIN + c] = 0.0
    for w in range(NUM_WINDOWS):
        for t in range(sides):
            n = iw[I_OPEN + t * NUM_WINDOWS + w]
            if n < 0 or n == 5:
                continue
            for e in range(5):
                cell = CELLS_5[w, e]
                if CARD_OF[cell] >= 0 and s[k.O_OWNER + cell] < 0:
                    fw[F_GAIN + cell] += _window_gain(fw, p, w, t, n, cell, side, sides, four)
    for c in range(NUM_CELLS):
        fw[F_GAIN + c] += p[P_CENTRE] * CENTRE[c]


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


@k.kernel
def _play_score(
    s: np.ndarray,
    iw: np.ndarray,
    fw: np.ndarray,
    p: np.ndarray,
    a: int,
    gain: float,
    side: int,
    need: int,
    wild: int,
    remover: int,
    total: int,
    mine_before: float,
) -> float:
    """The score of play ``a`` (:func:`_score`) from its window ``gain`` (:func:`_aware_gain` of a
    placement's cell, :func:`_open_gain` of a removal): the jack's spending cost, the win (R7.1),
    the change in our threats' value and in each opponent's completion risk, added in
    ``score_plays``' order so that the floats are its floats."""
    sides = s[k.I_SIDES]
    placed = a < REMOVE
    score = gain
    if placed:
        cell = a if a < WILD else a - WILD
        if a < WILD:
            spent = CARD_OF[cell]
        else:
            spent = JD if iw[I_HAND + JD] > 0 else JC
            score -= p[P_TWO_EYED]
    else:
        cell = a - REMOVE
        spent = JS if iw[I_HAND + JS] > 0 else JH
        score -= p[P_ONE_EYED]
    owner = s[k.O_OWNER + cell]
    s[k.O_OWNER + cell] = side if placed else -1
    declared = _declares(s, iw, side, cell) if placed else 0
    if s[k.O_NSEQ + side] + declared >= need:
        s[k.O_OWNER + cell] = owner
        return float(score + WIN)  # R7.1
    iw[I_HAND + spent] -= 1  # the hand our threats are filled from next turn
    for q in range(sides):  # our side first, then the others in order (as score_plays adds them)
        t = side if q == 0 else q - 1 if q - 1 < side else q
        if t == side and declared > 0:  # sequences ruled windows out (R3.3): count them all again
            at, ln = I_AFTER, _recount(s, iw, t, declared)
        else:
            ln = _threats_after(s, iw, t, cell, placed, side)
            at = I_AFTER
            if ln < 0:
                if t != side:
                    continue  # the same threats: no change in the risk (exactly 0)
                at, ln = I_LIST + t * NUM_CELLS, iw[I_LISTN + t]
        if t == side:
            mine = _threat_value(
                iw,
                at,
                ln,
                side,
                sides,
                _sequence_value(s[k.O_NSEQ + side] + declared, need),
                wild,
                remover,
                total,
            )
            score += p[P_THREAT] * (mine - mine_before)
        else:
            lost = (
                _completion_risk(s, iw, at, ln, t, _sequence_value(s[k.O_NSEQ + t], need), wild, total)
                - fw[F_RISK + t]
            )
            score -= p[P_THREAT] * _opponent_weight(side, t, sides) * lost
    iw[I_HAND + spent] += 1
    s[k.O_OWNER + cell] = owner
    return float(score)


@k.kernel
def _mine_after(
    s: np.ndarray,
    iw: np.ndarray,
    side: int,
    cell: int,
    spent: int,
    need: int,
    wild: int,
    remover: int,
    total: int,
) -> float:
    """Our threats' value (:func:`_threat_value`) after our chip on ``cell`` (-1: a play that
    changes none of our threats) that declares no sequence, having spent ``spent``: what
    :func:`_play_score` computes for such a play."""
    iw[I_HAND + spent] -= 1
    at = I_LIST + side * NUM_CELLS
    ln = iw[I_LISTN + side]
    if cell >= 0:
        s[k.O_OWNER + cell] = side
        changed = _threats_after(s, iw, side, cell, True, side)
        s[k.O_OWNER + cell] = -1
        if changed >= 0:
            at, ln = I_AFTER, changed
    mine = _threat_value(
        iw, at, ln, side, s[k.I_SIDES], _sequence_value(s[k.O_NSEQ + side], need), wild, remover, total
    )
    iw[I_HAND + spent] += 1
    return mine


@k.inline_kernel
def _below_best(bound: float, best: float, slack: float) -> bool:
    """Whether a play whose score is at most ``bound`` (up to rounding, ``slack``) scores below
    ``best`` by more than :data:`TIE`: outside the tie set, whatever its exact score."""
    return bound + slack + 1e-9 * abs(best) < best - TIE


@k.kernel
def _score_pruned(
    s: np.ndarray,
    iw: np.ndarray,
    fw: np.ndarray,
    p: np.ndarray,
    n: int,
    side: int,
    need: int,
    four: float,
    wild: int,
    remover: int,
    total: int,
    mine_before: float,
) -> int:
    """The scores of :func:`_score`'s ``n`` plays, but ``-inf`` for a jack's play that cannot
    come within :data:`TIE` of the best (branch and bound; ``docs/fast.md``). The natural
    cards' placements are scored in full first; then the jacks' plays, each against an upper
    bound of its score that costs far less than the score, and scored only when the bound does
    not rule it out.

    None of them may declare a sequence (those are scored in full): a two-eyed jack on a cell
    that no four of ours misses, a one-eyed jack whose removal opens no four of ours. Our
    threat term is then exact (:func:`_mine_after`; the same for every removal and every
    placement in no window of three or more of ours); an opponent's risk can only fall (a
    placement blocks, a removal breaks the owner's windows), at most by what it was, and not
    at all where the cell is in no window of three or more of that side (``I_HOT``); a third
    side's risk can only rise (a cost, with a threat weight that is not negative). A removal's
    window gain is exact (:func:`_open_gain`, from the line masks). A placement's: each window
    through the cell adds at most its step (from the window counts, ``I_OPEN``; where no window
    of ours is of three or more, at most the largest step from two or less, and per opponent
    at most its largest block of two or less, four or less in its ``I_HOT`` windows), scaled by
    at most the largest reach to the fourth power."""
    sides = s[k.I_SIDES]
    best = -np.inf
    for i in range(n):  # the natural cards' placements, in full
        a = iw[I_PLAYS + i]
        if a < WILD:
            gain = _aware_gain(s, iw, fw, side, a, four, p)
            score = _play_score(s, iw, fw, p, a, gain, side, need, wild, remover, total, mine_before)
            fw[F_SCORES + i] = score
            best = max(best, score)
    holds_wild = iw[I_HAND + JD] > 0 or iw[I_HAND + JC] > 0
    holds_remover = iw[I_HAND + JS] > 0 or iw[I_HAND + JH] > 0
    if not (holds_wild or holds_remover):
        return n
    reach = max(1.0, abs(p[P_REACH]), abs(p[P_REACH + 1]), abs(p[P_REACH + 2]))
    reach = reach * reach * reach * reach
    step = 0.0  # our window of two or less
    for c in range(3):
        step = max(step, abs(p[P_LINE + c + 1] - p[P_LINE + c]))
    low_block = 0.0  # an opponent's window of two or less, of four or less
    high_block = 0.0
    for c in range(5):
        high_block = max(high_block, abs(p[P_BLOCK + c]))
        if c < 3:
            low_block = max(low_block, abs(p[P_BLOCK + c]))
    # a two-eyed jack where no window of ours is of 3+: per window through the cell, per window
    # of 3+ of each opponent (the side after us, the one after that), and that side's risk
    quiet_window = step
    for t in range(sides):
        if t != side:
            quiet_window += abs(_opponent_weight(side, t, sides)) * low_block
    quiet_window *= reach
    next_side = (side + 1) % sides
    next_hot = abs(_opponent_weight(side, next_side, sides)) * (high_block - low_block) * reach
    next_risk = max(0.0, p[P_THREAT] * _opponent_weight(side, next_side, sides)) * fw[F_RISK + next_side]
    last_side = (side + 2) % sides  # with two sides, ourselves: never hot for an opponent
    last_hot = 0.0
    last_risk = 0.0
    if sides == 3:
        last_hot = abs(_opponent_weight(side, last_side, sides)) * (high_block - low_block) * reach
        last_risk = max(0.0, p[P_THREAT] * _opponent_weight(side, last_side, sides)) * fw[F_RISK + last_side]
    third_ok = sides == 2 or p[P_THREAT] >= 0.0
    wild_spent = JD if iw[I_HAND + JD] > 0 else JC
    remove_spent = JS if iw[I_HAND + JS] > 0 else JH
    quiet_change = 0.0  # the rest of its score: our threats' change, the jack's cost
    quiet_slack = 0.0
    remove_mine = 0.0  # ... after any removal that opens no four of ours
    for q in range(4):  # 0: plays that may declare, in full; 1: removals; 2, 3: wilds, ours of 3+ first
        if q == 1 and third_ok and holds_remover:
            remove_mine = _mine_after(s, iw, side, -1, remove_spent, need, wild, remover, total)
        if q == 3 and holds_wild:
            quiet_mine = _mine_after(s, iw, side, -1, wild_spent, need, wild, remover, total)
            quiet_change = p[P_THREAT] * (quiet_mine - mine_before) - p[P_TWO_EYED]
            quiet_slack = abs(p[P_TWO_EYED]) + abs(p[P_THREAT] * (quiet_mine - mine_before))
        for i in range(n):
            a = iw[I_PLAYS + i]
            if a < WILD:
                continue
            if a < REMOVE:
                cell = a - WILD
                if q < 2:
                    if q == 0 and iw[I_THREATS + side * NUM_CELLS + cell] > 0:  # it completes a four
                        fw[F_SCORES + i] = _play_score(
                            s,
                            iw,
                            fw,
                            p,
                            a,
                            _aware_gain(s, iw, fw, side, cell, four, p),
                            side,
                            need,
                            wild,
                            remover,
                            total,
                            mine_before,
                        )
                        best = max(best, fw[F_SCORES + i])
                    continue
                if iw[I_THREATS + side * NUM_CELLS + cell] > 0:
                    continue
                ours = iw[I_HOT + side * NUM_CELLS + cell] > 0
                if ours != (q == 2):
                    continue
                if not ours:
                    bound = THROUGH_N[cell] * quiet_window + abs(p[P_CENTRE] * CENTRE[cell])
                    hot = iw[I_HOT + next_side * NUM_CELLS + cell]
                    if hot > 0:
                        bound += hot * next_hot + next_risk
                    if sides == 3:
                        hot = iw[I_HOT + last_side * NUM_CELLS + cell]
                        if hot > 0:
                            bound += hot * last_hot + last_risk
                    slack = 1e-9 * (1.0 + bound + quiet_slack)
                    if _below_best(bound + quiet_change, best, slack):
                        fw[F_SCORES + i] = -np.inf
                        continue
                    gain = _aware_gain(s, iw, fw, side, cell, four, p)
                    score = _play_score(s, iw, fw, p, a, gain, side, need, wild, remover, total, mine_before)
                    fw[F_SCORES + i] = score
                    best = max(best, score)
                    continue
                risk = 0.0
                for t in range(sides):
                    if t != side and iw[I_HOT + t * NUM_CELLS + cell] > 0:
                        risk += max(0.0, p[P_THREAT] * _opponent_weight(side, t, sides)) * fw[F_RISK + t]
                mine = _mine_after(s, iw, side, cell, wild_spent, need, wild, remover, total)
                bound = 0.0
                for j in range(THROUGH_N[cell]):
                    w = THROUGH[cell, j]
                    for t in range(sides):
                        m = iw[I_OPEN + t * NUM_WINDOWS + w]
                        if m < 0:
                            continue
                        if t == side:
                            hi = four if m + 1 == 4 else p[P_LINE + m + 1]
                            lo = four if m == 4 else p[P_LINE + m]
                            bound += abs(hi - lo)
                        else:
                            bound += abs(p[P_BLOCK + m] * _opponent_weight(side, t, sides))
                bound = bound * reach + abs(p[P_CENTRE] * CENTRE[cell])
                change = p[P_THREAT] * (mine - mine_before)
                slack = 1e-9 * (1.0 + bound + abs(p[P_TWO_EYED]) + abs(change) + risk)
                if _below_best(bound - p[P_TWO_EYED] + change + risk, best, slack):
                    fw[F_SCORES + i] = -np.inf
                    continue
                gain = _aware_gain(s, iw, fw, side, cell, four, p)
            else:
                if q >= 2:
                    continue
                cell = a - REMOVE
                quiet = third_ok and not _completes(s, side, cell)
                if quiet != (q == 1):
                    continue
                gain = _open_gain(s, iw, side, a, four, p, OPPONENT_STEP)
                if quiet:
                    owner = s[k.O_OWNER + cell]
                    risk = 0.0
                    if iw[I_HOT + owner * NUM_CELLS + cell] > 0:
                        risk = (
                            max(0.0, p[P_THREAT] * _opponent_weight(side, owner, sides)) * fw[F_RISK + owner]
                        )
                    change = p[P_THREAT] * (remove_mine - mine_before)
                    slack = 1e-9 * (1.0 + abs(gain) + abs(p[P_ONE_EYED]) + abs(change) + risk)
                    if _below_best(gain - p[P_ONE_EYED] + change + risk, best, slack):
                        fw[F_SCORES + i] = -np.inf
                        continue
            score = _play_score(s, iw, fw, p, a, gain, side, need, wild, remover, total, mine_before)
            fw[F_SCORES + i] = score
            best = max(best, score)
    return n


@k.kernel
def _score(
    s: np.ndarray, iw: np.ndarray, fw: np.ndarray, inference: bool, p: np.ndarray, prune: bool = False
) -> int:
    """As :func:`score_lite`, scoring as ``heuristic.score_plays`` does: card-counted window
    gains, jacks' spending costs, the win (R7.1), and the change in our threats' value and in
    each opponent's chance to complete a sequence before our next turn; ``inference`` as its
    argument of that name; the numbers from the parameter array ``p`` (:data:`DEFAULT_PARAMS`).

    With ``prune`` (the choosing kernels), a play proven to score below the best by more than
    :data:`TIE` is not scored but given ``-inf`` (:func:`_score_pruned`): the tie set, so the choice
    and the random draw that breaks ties, stay those of the full scoring."""
    if s[k.I_END] != k.END_NONE:
        return 0
    n = _candidates(s, iw)
    if n < 0:
        return n
    seat = s[k.I_SEAT]
    players = s[k.I_PLAYERS]
    sides = s[k.I_SIDES]
    side = seat % sides
    need = s[k.I_NEED]
    four = p[P_LINE + 4] * (1.0 + TEAM_FOUR_BONUS * (players // sides - 1))
    # what the seat cannot see: not in its hand, not face up on a discard pile (worlds.unseen_cards)
    total = 0
    for card in range(NUM_CARDS):
        u = 2 - iw[I_HAND + card] - s[k.O_DCOUNT + 3 * k.COLUMNS + card]
        u = max(u, 0)
        iw[I_UNSEEN + card] = u
        total += u
    total = max(total, 1)
    wild = iw[I_UNSEEN + JD] + iw[I_UNSEEN + JC]
    remover = iw[I_UNSEEN + JH] + iw[I_UNSEEN + JS]
    floor = p[P_REACH + 1] if iw[I_HAND + JD] > 0 or iw[I_HAND + JC] > 0 else p[P_REACH + 2]
    for t in range(sides):  # heuristic.reach_table
        for c in range(NUM_CELLS):
            card = CARD_OF[c]
            r = 1.0  # a corner, a chip: no factor in a window's reach (_window_gain)
            if card >= 0 and s[k.O_OWNER + c] < 0:
                if t == side and iw[I_HAND + card] > 0:
                    r = p[P_REACH]
                elif iw[I_UNSEEN + card] > 0:
                    r = p[P_REACH + 1]
                else:
                    r = floor if t == side else p[P_REACH + 2]
            fw[F_REACH + t * NUM_CELLS + c] = r
    if inference:
        _infer(s, iw)
    else:
        for other in range(players):
            iw[I_INFERRED + other] = 0
    for t in range(k.MAX_SIDES):
        iw[I_BEFORE_NEXT + t] = 0
    for j in range(1, players):
        other = (seat + j) % players
        if iw[I_INFERRED + other] == 0:  # the inferred hands are counted apart (_completion_risk)
            iw[I_BEFORE_NEXT + other % sides] += s[k.O_HLEN + other]
    # the position's own terms, the same for every play
    _window_tables(s, iw, prune)
    iw[I_MARK : I_MARK + NUM_CELLS] = 0
    iw[I_STAMP] = 0
    mine_before = _threat_value(
        iw,
        I_LIST + side * NUM_CELLS,
        iw[I_LISTN + side],
        side,
        sides,
        _sequence_value(s[k.O_NSEQ + side], need),
        wild,
        remover,
        total,
    )
    risk_before = fw[F_RISK : F_RISK + k.MAX_SIDES]
    for t in range(sides):
        risk_before[t] = 0.0
        if t != side:
            risk_before[t] = _completion_risk(
                s,
                iw,
                I_LIST + t * NUM_CELLS,
                iw[I_LISTN + t],
                t,
                _sequence_value(s[k.O_NSEQ + t], need),
                wild,
                total,
            )
    if prune:
        return _score_pruned(s, iw, fw, p, n, side, need, four, wild, remover, total, mine_before)
    batch = iw[I_HAND + JD] > 0 or iw[I_HAND + JC] > 0  # a two-eyed jack: every open cell is a candidate
    if batch:
        _aware_gains(s, iw, fw, side, four, p)
    for i in range(n):
        a = iw[I_PLAYS + i]
        if a < REMOVE:
            cell = a if a < WILD else a - WILD
            gain = fw[F_GAIN + cell] if batch else _aware_gain(s, iw, fw, side, cell, four, p)
        else:
            gain = _open_gain(s, iw, side, a, four, p, OPPONENT_STEP)
        fw[F_SCORES + i] = _play_score(s, iw, fw, p, a, gain, side, need, wild, remover, total, mine_before)
    return n


@k.kernel
def score_full(s: np.ndarray, iw: np.ndarray, fw: np.ndarray) -> int:
    """As :func:`score_lite`, scoring as :func:`choose` does (``heuristic.score_plays`` with
    ``inference=False``)."""
    return _score(s, iw, fw, False, DEFAULT_PARAMS)


@k.kernel
def score_inferring(s: np.ndarray, iw: np.ndarray, fw: np.ndarray) -> int:
    """As :func:`score_lite`, scoring as :func:`choose_inferring` does (``score_plays`` with
    ``inference=True``, the default ``heuristic`` bot)."""
    return _score(s, iw, fw, True, DEFAULT_PARAMS)


@k.kernel
def score_params(s: np.ndarray, iw: np.ndarray, fw: np.ndarray, p: np.ndarray, inference: bool) -> int:
    """As :func:`score_full` (``inference``: :func:`score_inferring`), with the weights, jack
    costs, threat weight and reach of the parameter array ``p`` (:data:`DEFAULT_PARAMS`)."""
    return _score(s, iw, fw, inference, p)


@k.kernel
def score_policy(s: np.ndarray, iw: np.ndarray, fw: np.ndarray, policy: int) -> int:
    """The scores of :data:`LITE`, :data:`FULL` or :data:`INFERRING` play (:func:`score_lite`,
    :func:`score_full`, :func:`score_inferring`): one entry point, so that a rollout can take
    its policy as a number."""
    if policy == LITE:
        return score_lite(s, iw, fw)
    if policy == GREEDY:
        return score_greedy(s, iw, fw)
    if policy == TUNED:
        return _score(s, iw, fw, True, TUNED_PARAMS)
    return _score(s, iw, fw, policy == INFERRING, DEFAULT_PARAMS)


@k.inline_kernel
def _chosen(s: np.ndarray, rs: np.ndarray, g: int, iw: np.ndarray, fw: np.ndarray, n: int) -> int:
    """The action for a scorer's result ``n``: a forced one (``-1 - action``), -1 when the game
    is over, else the best of the ``n`` scored plays, ties broken with ``rs[g]``."""
    if n <= 0:
        return -1 if n == 0 else -1 - n
    return _pick(s, rs, g, iw, fw, n)


@k.kernel
def choose_policy_with(
    s: np.ndarray, rs: np.ndarray, g: int, iw: np.ndarray, fw: np.ndarray, policy: int
) -> int:
    """The action of ``policy`` (:data:`LITE`, :data:`FULL`, :data:`INFERRING`, :data:`GREEDY`, :data:`TUNED`)
    with the caller's scratch arrays (:func:`new_work`): no allocation, for kernels that run
    without Numba's runtime."""
    if policy == LITE:
        return _chosen(s, rs, g, iw, fw, score_lite(s, iw, fw))
    if policy == GREEDY:
        return _chosen(s, rs, g, iw, fw, score_greedy(s, iw, fw))
    if policy == TUNED:
        return _chosen(s, rs, g, iw, fw, _score(s, iw, fw, True, TUNED_PARAMS, True))
    return _chosen(s, rs, g, iw, fw, _score(s, iw, fw, policy == INFERRING, DEFAULT_PARAMS, True))


@k.kernel
def choose_params_with(
    s: np.ndarray, rs: np.ndarray, g: int, iw: np.ndarray, fw: np.ndarray, p: np.ndarray, inference: bool
) -> int:
    """:func:`choose_with` (``inference``: :func:`choose_inferring`) playing with the numbers of
    ``p``: ``HeuristicBot(weights=..., jack_costs=..., threat_weight=..., reach=...)`` compiled,
    for tuning them (``fast.tuning``). With :data:`DEFAULT_PARAMS` it is :func:`choose_with`."""
    return _chosen(s, rs, g, iw, fw, _score(s, iw, fw, inference, p, True))


@k.kernel
def choose_unpruned_with(
    s: np.ndarray, rs: np.ndarray, g: int, iw: np.ndarray, fw: np.ndarray, p: np.ndarray, inference: bool
) -> int:
    """:func:`choose_params_with` as it chose before its branch and bound: every play scored in
    full (:func:`score_params`) and the window tables counted afresh. The same action and the
    same draws from ``rs`` (``tests/fast/test_heuristic_kernel.py``), at about half the speed:
    the reference the pruned choice is tested and measured against."""
    return _chosen(s, rs, g, iw, fw, _score(s, iw, fw, inference, p, False))


@k.kernel
def playout_unpruned_with(
    s: np.ndarray,
    rs: np.ndarray,
    g: int,
    max_turns: int,
    iw: np.ndarray,
    fw: np.ndarray,
    p: np.ndarray,
    inference: bool,
) -> int:
    """:func:`playout_policy_with`, every seat playing :func:`choose_unpruned_with` (for
    ``benchmarks/fast_heuristic.py speed``)."""
    while s[k.I_END] == k.END_NONE and s[k.I_TURN] < max_turns:
        k.apply(s, rs, g, choose_unpruned_with(s, rs, g, iw, fw, p, inference))
    return k.outcome(s)


@k.kernel
def choose_with(s: np.ndarray, rs: np.ndarray, g: int, iw: np.ndarray, fw: np.ndarray) -> int:
    """:func:`choose` with the caller's scratch arrays (:func:`new_work`)."""
    return choose_policy_with(s, rs, g, iw, fw, FULL)


@k.kernel
def playout_policy_with(
    s: np.ndarray, rs: np.ndarray, g: int, max_turns: int, iw: np.ndarray, fw: np.ndarray, policy: int
) -> int:
    """As ``kernels.playout`` (the winning side, -1 for a drawn game, -2 when stopped at
    ``max_turns`` turns), every seat playing ``policy``, with the caller's scratch arrays."""
    return playout_sides_with(s, rs, g, max_turns, iw, fw, policy, 0, policy)


@k.kernel
def playout_sides_with(
    s: np.ndarray,
    rs: np.ndarray,
    g: int,
    max_turns: int,
    iw: np.ndarray,
    fw: np.ndarray,
    policy: int,
    side: int,
    others: int,
) -> int:
    """:func:`playout_policy_with` where the seats of ``side`` play ``policy`` and every other
    seat ``others``: a search's own side and its model of the opponents."""
    while s[k.I_END] == k.END_NONE and s[k.I_TURN] < max_turns:
        mover = policy if s[k.I_SEAT] % s[k.I_SIDES] == side else others
        k.apply(s, rs, g, choose_policy_with(s, rs, g, iw, fw, mover))
    return k.outcome(s)


@k.kernel
def playout_with(
    s: np.ndarray, rs: np.ndarray, g: int, max_turns: int, iw: np.ndarray, fw: np.ndarray
) -> int:
    """:func:`heuristic_playout` with the caller's scratch arrays (:func:`new_work`)."""
    return playout_policy_with(s, rs, g, max_turns, iw, fw, FULL)


@k.allocating_kernel
def _work() -> tuple[np.ndarray, np.ndarray]:
    """Fresh scratch arrays, inside a kernel (:func:`new_work` is the same from Python)."""
    return np.zeros(INT_WORK, dtype=np.int64), np.zeros(FLOAT_WORK, dtype=np.float64)


@k.allocating_kernel
def choose(s: np.ndarray, rs: np.ndarray, g: int) -> int:
    """The compiled heuristic's action for the seat to move in row ``s`` (auto draw, no table
    talk); ties broken with the row's random state ``rs[g]``. Dead cards exchanged (R5.1), stuck
    hands discard like ``best_discard`` (R5.5). -1 when the game is over."""
    iw, fw = _work()
    return choose_policy_with(s, rs, g, iw, fw, FULL)


@k.allocating_kernel
def choose_inferring(s: np.ndarray, rs: np.ndarray, g: int) -> int:
    """As :func:`choose`, reading the other seats' hands from their last plays as the default
    ``heuristic`` bot does (``bots.inference``; from the row's log of the last 32 actions)."""
    iw, fw = _work()
    return choose_policy_with(s, rs, g, iw, fw, INFERRING)


@k.allocating_kernel
def choose_lite(s: np.ndarray, rs: np.ndarray, g: int) -> int:
    """The lite heuristic's action for the seat to move in row ``s`` (auto draw, no table talk):
    the open-window gain of each R5.2 play under the heuristic's weights, minus a jack's
    spending cost, plus the win (R7.1); ties broken with ``rs[g]``. Dead cards are exchanged
    (R5.1), stuck hands discard as ``best_discard`` (R5.5). -1 when the game is over."""
    iw, fw = _work()
    return choose_policy_with(s, rs, g, iw, fw, LITE)


@k.allocating_kernel
def choose_greedy(s: np.ndarray, rs: np.ndarray, g: int) -> int:
    """The ``greedy`` bot's action for the seat to move in row ``s`` (auto draw, no table talk),
    ties broken with ``rs[g]``; dead cards and stuck hands as :func:`choose`. -1 when the game
    is over."""
    iw, fw = _work()
    return choose_policy_with(s, rs, g, iw, fw, GREEDY)


@k.allocating_kernel
def heuristic_playout(s: np.ndarray, rs: np.ndarray, g: int, max_turns: int) -> int:
    """As ``kernels.playout`` (the winning side, -1 for a drawn game, -2 when stopped at
    ``max_turns`` turns), every seat playing :func:`choose`."""
    iw, fw = _work()
    return playout_policy_with(s, rs, g, max_turns, iw, fw, FULL)


@k.allocating_kernel
def inferring_playout(s: np.ndarray, rs: np.ndarray, g: int, max_turns: int) -> int:
    """As :func:`heuristic_playout`, every seat playing :func:`choose_inferring`."""
    iw, fw = _work()
    return playout_policy_with(s, rs, g, max_turns, iw, fw, INFERRING)


@k.allocating_kernel
def lite_playout(s: np.ndarray, rs: np.ndarray, g: int, max_turns: int) -> int:
    """As :func:`heuristic_playout`, every seat playing :func:`choose_lite`."""
    iw, fw = _work()
    return playout_policy_with(s, rs, g, max_turns, iw, fw, LITE)


# ------------------------------------------------------------------ from Python


def heuristic_action(game: FastGame, seed: int = 0, *, lite: bool = False, inference: bool = False) -> int:
    """The compiled heuristic's action in ``game`` (not applied), ties broken from ``seed``:
    :func:`choose`, :func:`choose_lite` or :func:`choose_inferring`."""
    if game.is_terminal():
        raise ValueError("R7.1: the game is over; there is no action to choose")
    rs = np.array([k.seed_state(seed & ((1 << 63) - 1))], dtype=np.uint64)
    iw, fw = new_work()
    policy = LITE if lite else INFERRING if inference else FULL
    return int(choose_policy_with(game.row, rs, 0, iw, fw, policy))


def heuristic_scores(
    game: FastGame, *, lite: bool = False, inference: bool = False, params: np.ndarray | None = None
) -> dict[int, float] | int:
    """The compiled scores of the R5.2 plays of the seat to move, or its forced action (R5.1,
    R5.5): what tests and the agreement measurement compare with ``bots.heuristic``. With
    ``params`` (:data:`DEFAULT_PARAMS`' layout), :func:`score_params` scores them."""
    if game.is_terminal():
        raise ValueError("R7.1: the game is over; there is no action to choose")
    iw, fw = new_work()
    if params is not None:
        if lite:
            raise ValueError("the lite heuristic takes no parameter array")
        n = int(score_params(game.row, iw, fw, check_params(params), inference))
    else:
        n = int(score_policy(game.row, iw, fw, LITE if lite else INFERRING if inference else FULL))
    if n < 0:
        return -1 - n
    return {int(iw[I_PLAYS + i]): float(fw[F_SCORES + i]) for i in range(n)}


def check_params(params: np.ndarray) -> np.ndarray:
    """``params`` as the kernels read it (float64, :data:`NUM_PARAMS` finite numbers), or a
    ValueError saying what is wrong: the kernels do not check their input."""
    out = np.ascontiguousarray(params, dtype=np.float64)
    if out.shape != (NUM_PARAMS,):
        raise ValueError(f"a heuristic parameter array holds {NUM_PARAMS} numbers, not shape {out.shape}")
    if not np.all(np.isfinite(out)):
        raise ValueError("heuristic parameters must be finite numbers")
    return out
