"""Text forms of positions (action notation lives in ``actions``: ``7h@e4``, ``dead 7h``...).

>>> from sequence_game import GameConfig, new_game
>>> print(board_text(new_game(GameConfig(), seed=1)).splitlines()[0])
* . . . . . . . . *
"""

from __future__ import annotations

from typing import Protocol

from .board import SIZE, card_at

_CHIP = ".BGR"


class Board(Protocol):
    """What a board drawing needs: a ``GameState`` and a ``PlayerView`` both have it, so this module
    imports neither (imports flow one way: ``state`` uses this module)."""

    @property
    def locked(self) -> int: ...

    def chip_at(self, cell: int) -> int | None: ...


def board_text(state: Board) -> str:
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
