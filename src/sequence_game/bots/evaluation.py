"""Board evaluation shared by the greedy, heuristic and search bots.

Everything here reads only public information (chips, locked cells, declared sequences) plus, where
a caller passes one, a hand the caller is entitled to see: the bot's own hand, or a sampled hand in
a determinization. The unit is the *window*: one of the 192 five-cell lines of R3.2.

For a side, a window is *open* when no other side has a chip in it and it may still become a new
sequence (it shares at most one space with the side's declared sequences, R3.3). An open window is
worth ``line[n]`` where ``n`` counts the spaces that already count for the side (its chips and the
corners, R3.2); ``line[5]`` is the value of completing it. A side's *potential* is the sum over its
open windows. A window with ``n == 4`` is a *threat*: one card (the one printed on its missing
space, or a two-eyed jack) completes it.

>>> from sequence_game import GameConfig, new_game
>>> state = new_game(GameConfig(players=2), seed=1)
>>> board = Board.of_state(state)
>>> potential(board, 0, GREEDY) == potential(board, 1, GREEDY)  # corners only, equal for both
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from ..actions import DEAD, DISCARD, DRAW, REMOVE, WILD
from ..board import CELLS_OF_CARD, CORNERS, LAYOUT, LINES, LINES_THROUGH, NUM_CELLS, WINDOW_CELLS
from ..cards import JACK_RANK, TWO_EYED
from ..sequences import declare

if TYPE_CHECKING:
    from ..state import GameState
    from ..views import PlayerView

NUM_WINDOWS: Final = len(LINES)
#: Per window, a bit set over windows sharing two or more spaces with it (itself included):
#: the windows a declared sequence rules out as new sequences of the same side (R3.3).
OVERLAPS: Final[tuple[int, ...]] = tuple(
    sum(1 << v for v in range(NUM_WINDOWS) if (LINES[w] & LINES[v]).bit_count() >= 2)
    for w in range(NUM_WINDOWS)
)
#: A small bonus per cell for being near the centre (0 at the rim, 1 in the middle four).
CENTRE: Final[tuple[float, ...]] = tuple(
    (4.5 - max(abs(c // 10 - 4.5), abs(c % 10 - 4.5)) - 0.5) / 4 for c in range(NUM_CELLS)
)
#: Per cell, whether it is next to a corner (the cheapest windows run through corners).
NEAR_CORNER: Final[tuple[bool, ...]] = tuple(
    any(abs(c // 10 - k // 10) <= 1 and abs(c % 10 - k % 10) <= 1 for k in (0, 9, 90, 99)) and LAYOUT[c] >= 0
    for c in range(NUM_CELLS)
)


@dataclass(frozen=True)
class Weights:
    """The numbers of an evaluation; see ``docs/bots.md`` for why each is what it is."""

    line: tuple[float, ...] = (0.0, 1.0, 4.0, 16.0, 64.0, 400.0)
    """Value of an open window of one's own side by how many of its spaces count (index 5: complete)."""
    block: tuple[float, ...] = (0.0, 1.0, 4.0, 16.0, 64.0, 0.0)
    """Value of an opponent's open window, as the cost to us (blocking it gains this)."""
    centre: float = 0.0
    """Per placement, times :data:`CENTRE` of the cell."""


GREEDY: Final = Weights(line=(0.0, 1.0, 3.0, 9.0, 27.0, 200.0), block=(0.0, 1.0, 3.0, 9.0, 27.0, 0.0))


@dataclass(frozen=True)
class Board:
    """The public board in the form the evaluation needs (cheap to build from a state or a view)."""

    chips: tuple[int, ...]
    occupied: int
    locked: int
    forbidden: tuple[int, ...]
    """Per side, a bit set of windows that can no longer become a new sequence of that side."""
    sequences: tuple[int, ...]
    windows: tuple[tuple[int, ...], ...] = ()
    """Per side, its declared sequences as window numbers."""

    @classmethod
    def of_view(cls, view: PlayerView) -> Board:
        return cls.from_parts(view.chips, view.locked, view.sequence_windows)

    @classmethod
    def of_state(cls, state: GameState) -> Board:
        return cls.from_parts(state._chips, state._locked, state._seqs)

    @classmethod
    def from_parts(cls, chips: Sequence[int], locked: int, windows: Sequence[Sequence[int]]) -> Board:
        occ = 0
        for mask in chips:
            occ |= mask
        forbidden = []
        for seqs in windows:
            f = 0
            for w in seqs:
                f |= OVERLAPS[w]
            forbidden.append(f)
        return cls(
            tuple(chips),
            occ,
            locked,
            tuple(forbidden),
            tuple(len(s) for s in windows),
            tuple(map(tuple, windows)),
        )

    def after(self, action: int, side: int) -> Board:
        """The board after ``side`` plays ``action`` (an R5.2 play; the same board for others),
        declaring sequences as the engine does (R3.3-R3.5)."""
        if action >= DEAD:
            return self
        chips = list(self.chips)
        if action >= REMOVE:
            bit = 1 << (action - REMOVE)
            chips = [c & ~bit for c in chips]
            return Board(
                tuple(chips), self.occupied & ~bit, self.locked, self.forbidden, self.sequences, self.windows
            )
        cell = action if action < WILD else action - WILD
        chips[side] |= 1 << cell
        counted = chips[side] | CORNERS
        complete = [w for w in LINES_THROUGH[cell] if LINES[w] & counted == LINES[w]]
        new = declare(complete, self.windows[side]) if complete else ()
        if not new:
            return Board(
                tuple(chips),
                self.occupied | 1 << cell,
                self.locked,
                self.forbidden,
                self.sequences,
                self.windows,
            )
        windows = list(self.windows)
        windows[side] = (*windows[side], *new)
        locked = self.locked
        for w in new:
            locked |= LINES[w] & ~CORNERS
        return Board.from_parts(chips, locked, windows)


def potential(board: Board, side: int, weights: Weights) -> float:
    """The sum of ``weights.line[n]`` over the side's open windows (see the module docstring)."""
    own = board.chips[side] | CORNERS
    blocked = board.occupied & ~board.chips[side]
    forbidden = board.forbidden[side]
    line = weights.line
    total = 0.0
    for w in range(NUM_WINDOWS):
        mask = LINES[w]
        if mask & blocked or forbidden >> w & 1:
            continue
        total += line[(mask & own).bit_count()]
    return total


def threats(board: Board, side: int) -> dict[int, int]:
    """The side's threats: missing cell -> how many open four-of-five windows it would complete."""
    own = board.chips[side] | CORNERS
    blocked = board.occupied & ~board.chips[side]
    forbidden = board.forbidden[side]
    out: dict[int, int] = {}
    for w in range(NUM_WINDOWS):
        mask = LINES[w]
        if mask & blocked or forbidden >> w & 1:
            continue
        missing = mask & ~own
        if missing.bit_count() == 1:
            cell = missing.bit_length() - 1
            out[cell] = out.get(cell, 0) + 1
    return out


def threat_windows(board: Board, side: int, among: Sequence[int] | None = None) -> list[tuple[int, int]]:
    """The side's open four-of-five windows as ``(window, missing cell)`` in window order, over
    all windows or only ``among`` (sorted window numbers): the parts :func:`threats` sums."""
    own = board.chips[side] | CORNERS
    blocked = board.occupied & ~board.chips[side]
    forbidden = board.forbidden[side]
    out: list[tuple[int, int]] = []
    for w in range(NUM_WINDOWS) if among is None else among:
        mask = LINES[w]
        if mask & blocked or forbidden >> w & 1:
            continue
        missing = mask & ~own
        if missing.bit_count() == 1:
            out.append((w, missing.bit_length() - 1))
    return out


def threats_after(
    board: Board, after: Board, side: int, action: int, before: list[tuple[int, int]]
) -> tuple[list[tuple[int, int]], dict[int, int]]:
    """:func:`threats` of ``after`` (``board`` after one R5.2 play), equal to it entry for entry
    and in the same order, from the threat windows ``before`` of ``board``: only the windows
    through the played cell can change, unless the play declared a sequence (then every window
    is looked at again). The heuristic asks this for every candidate play, so it must be cheap."""
    if after.forbidden is not board.forbidden or action >= DEAD:
        windows = threat_windows(after, side)
    else:
        cell = action - REMOVE if action >= REMOVE else action - WILD if action >= WILD else action
        through = LINES_THROUGH[cell]
        bit = 1 << cell
        kept = [p for p in before if not LINES[p[0]] & bit]
        fresh = threat_windows(after, side, through)
        windows = sorted(kept + fresh) if fresh else kept
    out: dict[int, int] = {}
    for _, c in windows:
        out[c] = out.get(c, 0) + 1
    return windows, out


def action_gain(
    board: Board, side: int, action: int, weights: Weights, opponent_weight: Sequence[float] | None = None
) -> float:
    """How much a play by ``side`` changes its potential minus the opponents' (one ply, exact for
    the potential; R5.2 placements and removals, 0 for other actions).

    ``opponent_weight`` scales each side's blocked value (default 1 for every opponent).
    """
    if action >= DEAD:
        return 0.0
    chips = board.chips
    occ = board.occupied
    forbidden = board.forbidden
    line, block = weights.line, weights.block
    sides = len(chips)
    gain = 0.0
    if action < REMOVE:
        cell = action if action < WILD else action - WILD
        for w in LINES_THROUGH[cell]:
            mask = LINES[w]
            for t in range(sides):
                if forbidden[t] >> w & 1:
                    continue
                mine = chips[t]
                if mask & occ & ~mine:
                    continue  # already blocked for t
                n = (mask & (mine | CORNERS)).bit_count()
                if t == side:
                    gain += line[n + 1] - line[n]
                else:
                    gain += block[n] * (1.0 if opponent_weight is None else opponent_weight[t])
        return gain + weights.centre * CENTRE[cell]
    cell = action - REMOVE
    bit = 1 << cell
    owner = next(t for t in range(sides) if chips[t] & bit)
    after = occ & ~bit
    for w in LINES_THROUGH[cell]:
        mask = LINES[w]
        for t in range(sides):
            if forbidden[t] >> w & 1:
                continue
            mine = chips[t]
            scale = 1.0 if t == side else -(1.0 if opponent_weight is None else opponent_weight[t])
            table = line if t == side else block
            if t == owner:
                if mask & occ & ~mine:
                    continue
                n = (mask & (mine | CORNERS)).bit_count()
                gain += scale * (table[n - 1] - table[n])
            else:
                if mask & after & ~mine:
                    continue  # still blocked by another chip
                n = (mask & (mine | CORNERS)).bit_count()
                gain += scale * table[n]
    return gain


def side_values(
    board: Board, weights: Weights, scale: float, extra: Sequence[float] | None = None
) -> list[float]:
    """Per side, a value in (-1, 1): its potential (plus ``extra``) minus the best opponent's,
    squashed; used as the leaf value of search."""
    import math

    sides = len(board.chips)
    raw = [
        potential(board, s, weights) + weights.line[5] * board.sequences[s] + (extra[s] if extra else 0.0)
        for s in range(sides)
    ]
    out = []
    for s in range(sides):
        best_other = max(raw[t] for t in range(sides) if t != s)
        out.append(math.tanh((raw[s] - best_other) / scale))
    return out


def window_cells(w: int) -> tuple[int, ...]:
    """The five cells of window ``w`` (for docs and tests)."""
    return WINDOW_CELLS[w]


def card_value(
    board: Board, side: int, card: int, weights: Weights, jack_values: tuple[float, float]
) -> float:
    """What keeping ``card`` is worth: its best placement now (0 when dead, R5.1), or a jack's
    fixed value (``jack_values``: two-eyed, one-eyed). Used to choose discards (R5.5, R6.1)."""
    if card >> 2 == JACK_RANK:
        return jack_values[0] if card in TWO_EYED else jack_values[1]
    best = 0.0
    for cell in CELLS_OF_CARD[card]:
        if not board.occupied >> cell & 1:
            best = max(best, 1.0 + action_gain(board, side, cell, weights))
    return best


def best_discard(
    board: Board, side: int, acts: Sequence[int], weights: Weights, jack_values: tuple[float, float]
) -> int:
    """The discard action (R5.5 stuck hand, R6.1 fine) that throws away the least useful card."""
    return min(
        (a for a in acts if DISCARD <= a < DRAW),
        key=lambda a: (card_value(board, side, a - DISCARD, weights, jack_values), a),
    )


def aware_gain(
    board: Board,
    side: int,
    cell: int,
    weights: Weights,
    reach: Sequence[Sequence[float]],
    opponent_weight: Sequence[float] | None = None,
) -> float:
    """:func:`action_gain` of a placement on ``cell``, each window scaled by how reachable its
    other missing spaces are for the side it belongs to: ``reach[t][c]`` in (0, 1] is the chance
    side ``t`` can still fill space ``c`` (1 when its card is in our hand, low when no copy of the
    card is left to draw and only a two-eyed jack would do). A window nobody can finish is worth
    little to build and nothing much to block."""
    chips = board.chips
    occ = board.occupied
    forbidden = board.forbidden
    line, block = weights.line, weights.block
    sides = len(chips)
    bit = 1 << cell
    gain = 0.0
    for w in LINES_THROUGH[cell]:
        mask = LINES[w]
        for t in range(sides):
            if forbidden[t] >> w & 1:
                continue
            mine = chips[t]
            if mask & occ & ~mine:
                continue
            counted = mine | CORNERS
            n = (mask & counted).bit_count()
            missing = mask & ~counted & ~bit
            f = 1.0
            r = reach[t]
            while missing:
                low = missing & -missing
                f *= r[low.bit_length() - 1]
                missing ^= low
            if t == side:
                gain += (line[n + 1] - line[n]) * f
            else:
                gain += block[n] * f * (1.0 if opponent_weight is None else opponent_weight[t])
    return gain + weights.centre * CENTRE[cell]
