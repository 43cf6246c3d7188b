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

from collections.abc import Iterator, Mapping
from typing import Any, Final

from ..actions import action_name_for
from ..bots import Limit
from ..cards import Card
from ..config import GameConfig
from ..errors import ConfigError
from ..state import GameState

#: The bots' budget when an environment is given none: a count of simulations, not seconds, so
#: that ``reset(seed=s)`` replays the same episode on any machine under any load (a time budget
#: such as ``mcts``'s own default of one second makes the search's depth, and so its moves, depend
#: on the machine). 200 simulations take ``mcts`` about 0.3 s of CPU a move (measured over 12
#: two-player positions on the development machine), near what ``mcts`` plays at 0.3 s.
DEFAULT_BOT_LIMIT: Final = Limit(simulations=200)


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


class ActionNames(Mapping[int, str]):
    """The notation of each legal action id of a seat, worked out on first access: an ``info``
    entry that costs nothing unless read (``{id: "7h@e4", ...}``, jacks named as held)."""

    def __init__(self, actions: list[int], hand: list[Card]) -> None:
        self._actions = actions
        self._hand = hand
        self._names: dict[int, str] | None = None

    def _all(self) -> dict[int, str]:
        if self._names is None:
            self._names = {a: action_name_for(a, self._hand) for a in self._actions}
        return self._names

    def __getitem__(self, action: int) -> str:
        return self._all()[action]

    def __iter__(self) -> Iterator[int]:
        return iter(self._actions)

    def __len__(self) -> int:
        return len(self._actions)

    def __repr__(self) -> str:
        return f"ActionNames({self._all()!r})"


def seat_info(game: GameState, seat: int, max_turns: int) -> dict[str, Any]:
    """The ``info`` of a seat: turn, seat and side, turns left before truncation, and for the seat
    to act its legal actions by name (``"action_names"``); the outcome once the game is over."""
    info: dict[str, Any] = {
        "turn": game.turn,
        "turns_left": max(max_turns - game.turn, 0),
        "seat": seat,
        "side": game.side_of(seat),
    }
    outcome = game.outcome()
    if outcome is not None:
        info["winner"] = outcome.winner
        info["termination"] = outcome.termination.value
    elif game.current_seat == seat:
        info["action_names"] = ActionNames(game.legal_actions(seat), game.hand(seat))
    return info
