"""How a game ends: why (:class:`Termination`) and who won (:class:`Outcome`).

Their own module so that the rules engine's parts and its readers can name an ending without
the game state; :mod:`sequence_game.state` re-exports both.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

__all__ = ["Outcome", "Termination"]


class Termination(Enum):
    """Why a game ended."""

    SEQUENCES = "sequences"  # R7.1
    STUCK = "stuck"  # R7.2 via R5.5


@dataclass(frozen=True)
class Outcome:
    """The end of a game: ``winner`` is a side, or ``None`` for a drawn game."""

    termination: Termination
    winner: int | None
    sequences: tuple[int, ...]
