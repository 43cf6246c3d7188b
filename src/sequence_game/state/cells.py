"""Per-card and per-cell tables the game state's hot paths index instead of computing.

Derived once from the board (R1.1) and the cards (R1.3); shared by the state's layers
(:mod:`~sequence_game.state_fields`, :mod:`~sequence_game.state_legality`,
:mod:`~sequence_game.state_apply`, :mod:`~sequence_game.state_playout`).
"""

from __future__ import annotations

from typing import Final

from ..board import CELLS_OF_CARD, LAYOUT
from ..cards import ONE_EYED, TWO_EYED, is_jack

__all__ = ["ALL_OPEN", "BIT_A", "BIT_B", "CELL_A", "CELL_B", "KIND", "OTHER_CELL"]

#: Per card, its first and second cell on the board (-1 for jacks).
CELL_A: Final = tuple(cells[0] if cells else -1 for cells in CELLS_OF_CARD)
CELL_B: Final = tuple(cells[1] if cells else -1 for cells in CELLS_OF_CARD)
#: The same cells as bit masks (0 for jacks).
BIT_A: Final = tuple(1 << c if c >= 0 else 0 for c in CELL_A)
BIT_B: Final = tuple(1 << c if c >= 0 else 0 for c in CELL_B)
#: Per card: 0 normal card, 1 two-eyed jack, 2 one-eyed jack.
KIND: Final = tuple(1 if c in TWO_EYED else 2 if c in ONE_EYED else 0 for c in range(52))
#: The other cell showing the same card (-1 for corners).
OTHER_CELL: Final = tuple(
    -1 if LAYOUT[c] < 0 else next(o for o in CELLS_OF_CARD[LAYOUT[c]] if o != c) for c in range(100)
)
#: Open cells per card on an empty board; ``None`` for jacks.
ALL_OPEN: Final[list[tuple[int, ...] | None]] = [None if is_jack(c) else CELLS_OF_CARD[c] for c in range(52)]
