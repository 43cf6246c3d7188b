"""What every environment shares: the table it builds, agent names and the turn cap.

The rules set no bound on a game's length (reshuffles, R5.4, can go on for ever in principle), so
the environments cut an episode off with ``truncated`` once ``state.turn`` reaches ``max_turns``.

>>> env_config(players=4).sides
2
>>> env_config(players=2, draw="manual")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
sequence_game.errors.ConfigError: R5.3: the environments support only draw='auto'...
"""

from __future__ import annotations

from typing import Any, Final

from ..config import GameConfig
from ..errors import ConfigError

#: Default turn cap. Random games last about 80-95 turns and the longest of 1,200 seeded random
#: games took 249, so the cap only stops games that have stopped making progress.
DEFAULT_MAX_TURNS: Final = 1000


def env_config(players: int = 2, teams: int | None = None, draw: str = "auto") -> GameConfig:
    """A validated :class:`GameConfig` for an environment (auto draws only, see module doc)."""
    if draw != "auto":
        raise ConfigError(
            f"the environments support only draw='auto', not {draw!r}: in manual-draw mode several "
            "seats may act at once (a late draw is lost to the next player), which a turn-based agent "
            "API cannot express",
            "R5.3",
        )
    return GameConfig(players=players, teams=teams, draw="auto")


def check_max_turns(max_turns: int) -> int:
    """The turn cap, refused unless it is a positive int."""
    if not isinstance(max_turns, int) or isinstance(max_turns, bool) or max_turns < 1:
        raise ValueError(f"max_turns must be a positive int, not {max_turns!r}")
    return max_turns


def agent_name(seat: int) -> str:
    """PettingZoo's name for a seat: ``player_0`` .. ``player_{n-1}``."""
    return f"player_{seat}"


def as_action(action: Any) -> Any:
    """numpy integers become ``int``; anything else goes to ``GameState.apply`` as it is, which
    reads notation strings (``"7h@e4"``) and refuses the rest with an ``IllegalActionError``."""
    return int(action) if hasattr(action, "__index__") and not isinstance(action, bool) else action
