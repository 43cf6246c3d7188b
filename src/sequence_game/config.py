"""Game configuration: players, sides and draw mode (R2), with what follows from them.

>>> GameConfig(players=6, teams=3).hand_size
5
>>> GameConfig(players=5)
Traceback (most recent call last):
...
sequence_game.errors.ConfigError: R2.1: 5 players: Sequence is played by 2, 3, 4, 6, 8, 9, 10 or 12
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Literal

from .errors import ConfigError
from .messages import M_

DrawMode = Literal["auto", "manual"]

#: Allowed numbers of sides for each player count (R2.1, R2.2); the first is the default.
TEAM_OPTIONS: Final[dict[int, tuple[int, ...]]] = {
    2: (2,),
    3: (3,),
    4: (2,),
    6: (2, 3),
    8: (2,),
    9: (3,),
    10: (2,),
    12: (2, 3),
}
#: Cards dealt to each player (R4.2).
HAND_SIZES: Final[dict[int, int]] = {2: 7, 3: 6, 4: 6, 6: 5, 8: 4, 9: 4, 10: 3, 12: 3}
SIDE_COLOURS: Final = ("blue", "green", "red")  # R1.4


@dataclass(frozen=True)
class GameConfig:
    """What is fixed before the deal: the table and its house rules (R6.2)."""

    players: int = 2
    """Seats at the table, in turn order (R2.1)."""
    teams: int | None = None
    """Number of sides S; seat ``i`` plays for side ``i % S`` (R2.3). ``None`` picks the default."""
    draw: DrawMode = "auto"
    """``"auto"`` draws for the player; ``"manual"`` makes the draw an action that can be lost (R5.3)."""
    sides: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        players = self.players
        if not isinstance(players, int) or isinstance(players, bool) or players not in TEAM_OPTIONS:
            raise ConfigError(
                M_(
                    "{players} players: Sequence is played by 2, 3, 4, 6, 8, 9, 10 or 12",
                    players=repr(players),
                ),
                "R2.1",
            )
        options = TEAM_OPTIONS[players]
        teams = options[0] if self.teams is None else self.teams
        if teams not in options:
            allowed = " or ".join(str(t) for t in options)
            raise ConfigError(
                M_(
                    "{players} players cannot form {teams} sides of equal size; allowed: {allowed}",
                    players=players,
                    teams=repr(teams),
                    allowed=allowed,
                ),
                "R2.2",
            )
        if self.draw not in ("auto", "manual"):
            raise ConfigError(
                M_("draw mode {mode} is neither 'auto' nor 'manual'", mode=repr(self.draw)), "R5.3"
            )
        object.__setattr__(self, "teams", teams)
        object.__setattr__(self, "sides", teams)

    @property
    def hand_size(self) -> int:
        """Cards dealt to each seat (R4.2)."""
        return HAND_SIZES[self.players]

    @property
    def sequences_to_win(self) -> int:
        """Two sequences with two sides, one with three (R3.1)."""
        return 2 if self.sides == 2 else 1

    @property
    def team_size(self) -> int:
        return self.players // self.sides

    def side_of(self, seat: int) -> int:
        """The side a seat plays for (R2.3)."""
        return seat % self.sides

    def seats_of(self, side: int) -> tuple[int, ...]:
        """The seats of a side, ascending."""
        return tuple(range(side, self.players, self.sides))
