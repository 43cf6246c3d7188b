"""Which sequences a placement declares (R3.2-R3.5).

Pure functions over window numbers (see ``board``); the state calls :func:`declare` only when a
window counter says that some window through the new chip is complete, which is rare.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from .board import LINES, LINES_THROUGH, Cell


def complete_windows(cell: Cell, counted: int) -> list[int]:
    """Windows through ``cell`` all of whose five spaces count for a side.

    ``counted`` is the side's chips together with the corners (R3.2).
    """
    return [w for w in LINES_THROUGH[cell] if LINES[w] & counted == LINES[w]]


def shares_at_most_one(a: int, b: int) -> bool:
    """Two windows may both be sequences only if they share at most one space (R3.3)."""
    return (LINES[a] & LINES[b]).bit_count() <= 1


def declare(candidates: Sequence[int], existing: Sequence[int]) -> tuple[int, ...]:
    """The new sequences to declare among ``candidates`` (complete windows, ascending).

    As many as R3.3 allows against the side's ``existing`` sequences and each other; among the
    largest allowed sets, the first in window order (R3.4).

    >>> from sequence_game.board import WINDOW_CELLS
    >>> row = [w for w in range(6) if WINDOW_CELLS[w][0] < 10]  # row 0: windows at columns 0-5
    >>> declare(row[:5], [])  # nine in a row made at once: columns 0-4 and 4-8
    (0, 4)
    >>> declare([1], [0])  # six in a row is still one sequence
    ()
    """
    allowed = [w for w in candidates if all(shares_at_most_one(w, e) for e in existing)]
    for size in range(len(allowed), 0, -1):
        for chosen in combinations(allowed, size):
            if all(shares_at_most_one(a, b) for a, b in combinations(chosen, 2)):
                return chosen
    return ()
