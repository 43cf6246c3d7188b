"""Text forms of positions (action notation lives in ``actions``: ``7h@e4``, ``dead 7h``...).

>>> from sequence_game import GameConfig, new_game
>>> print(board_text(new_game(GameConfig(), seed=1)).splitlines()[0])
* . . . . . . . . *
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import SIZE, card_at

if TYPE_CHECKING:
    from .state import GameState

_CHIP = ".BGR"


def board_text(state: GameState) -> str:
    """The board with chips by side (B, G, R; lower case when locked) and corners as ``*``."""
    rows = []
    for r in range(SIZE):
        line = []
        for c in range(SIZE):
            cell = r * SIZE + c
            side = state.chip_at(cell)
            if card_at(cell) == "jk":
                mark = "*"
            elif side is None:
                mark = "."
            else:
                mark = _CHIP[side + 1]
                if state.locked >> cell & 1:
                    mark = mark.lower()
            line.append(mark)
        rows.append(" ".join(line))
    return "\n".join(rows)
