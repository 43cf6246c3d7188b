"""Gymnasium single-agent environment: one seat against bots, for single-agent RL libraries.

The agent plays ``seat``; every other seat, team mates included, is a bot from
``sequence_game.bots`` chosen by name (``opponents``), which sees only its own
:class:`PlayerView`. Observations and the action mask are those of the PettingZoo environment
(see ``observation``). The reward is the seat's return at the end: +1 if its side wins, -1 if
another side wins, 0 for a drawn game (R7); 0 on every other step and on truncation.

An action the mask forbids ends the episode with ``illegal_reward`` and an ``info`` naming the
rule it breaks (``illegal_action="raise"`` raises :class:`IllegalActionError` instead): random
agents and ``check_env`` sample unmasked actions, and a crash would teach them nothing.

The bots think for a number of simulations (``bot_limit``, default ``DEFAULT_BOT_LIMIT``), never
for a time unless asked, so ``reset(seed=s)`` replays the same episode on any machine.

>>> e = SequenceEnv(players=2, opponents="random")
>>> obs, info = e.reset(seed=0)
>>> action = int(obs["action_mask"].nonzero()[0][0])
>>> obs, reward, terminated, truncated, info = e.step(action)
>>> reward, terminated, truncated
(0.0, False, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, Literal

import gymnasium
import numpy as np

from ..bots import Limit
from ..errors import IllegalActionError
from ..features.planes import DEFAULT_MAX_TURNS
from ..state import GameState
from .observation import action_space, encode, encode_state_batch, observation_space
from .opponents import BotSeats
from .render import RENDER_MODES, render
from .table import as_action, check_max_turns, env_config, seat_info

ENV_ID: Final = "sequence_game/Sequence-v0"
ObsDict = dict[str, np.ndarray]


class SequenceEnv(gymnasium.Env[ObsDict, np.int64]):
    """One seat of a game of Sequence, the other seats played by bots."""

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        players: int = 2,
        teams: int | None = None,
        *,
        seat: int = 0,
        opponents: str | Sequence[str] = "random",
        draw: str = "auto",
        max_turns: int = DEFAULT_MAX_TURNS,
        bot_limit: Limit | None = None,
        illegal_action: Literal["terminate", "raise"] = "terminate",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        """``opponents``: one bot name (see ``sequence_game.bots.BOTS``) for every other seat, or
        one name per other seat in seat order; ``bot_limit`` is the budget passed to each bot
        (``DEFAULT_BOT_LIMIT``, a number of simulations, when ``None``)."""
        self.config = env_config(players, teams, draw)
        self.max_turns = check_max_turns(max_turns)
        if self.max_turns < players:
            raise ValueError(f"max_turns={max_turns} would end the game before every seat has played")
        if illegal_action not in ("terminate", "raise"):
            raise ValueError(f"illegal_action must be 'terminate' or 'raise', not {illegal_action!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']}")
        self.seat = seat
        self.bots = BotSeats(self.config, [seat], opponents, bot_limit)
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.observation_space = observation_space()  # type: ignore[assignment, unused-ignore]  # a Dict of Box spaces
        self.action_space = action_space()
        self.game: GameState | None = None
        self._done = True

    def _observe(self) -> ObsDict:
        obs, mask = encode(self._require_game(), self.seat, self.max_turns)
        return {"observation": obs, "action_mask": mask}

    def _info(self) -> dict[str, Any]:
        return seat_info(self._require_game(), self.seat, self.max_turns)

    def state(self) -> np.ndarray:
        """The whole game (hidden cards included) for a centralised critic, as in the PettingZoo
        environment's ``state()``: planes of the seat to act, then every side's hand."""
        state: np.ndarray = encode_state_batch([self._require_game()], self.max_turns)[0]
        return state

    def _require_game(self) -> GameState:
        if self.game is None:
            raise RuntimeError("call reset() before step()")
        return self.game

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsDict, dict[str, Any]]:
        """Deal, then let the bots play up to the agent's first turn (``options`` unused)."""
        super().reset(seed=seed)
        game = self.bots.deal(self.config, lambda: int(self.np_random.integers(2**63)), self.max_turns)
        self.game = game
        self._done = False
        if self.render_mode == "human":
            self.render()
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[ObsDict, float, bool, bool, dict[str, Any]]:
        """Play the agent's action, then the bots' until the agent is to act again or the game ends."""
        game = self._require_game()
        if self._done:
            raise RuntimeError("the episode is over: call reset()")
        try:
            game.apply(as_action(action), self.seat)
        except IllegalActionError as exc:
            if self.illegal_action == "raise":
                raise
            self._done = True
            info = self._info() | {"illegal_action": True, "rule": exc.rule, "message": exc.message}
            return self._observe(), self.illegal_reward, True, False, info
        self.bots.play_until_learner(game, self.max_turns)
        terminated = game.is_terminal()
        truncated = not terminated and game.turn >= self.max_turns
        self._done = terminated or truncated
        reward = game.returns()[self.seat] if terminated else 0.0
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, terminated, truncated, self._info()

    def render(self) -> str | np.ndarray | None:  # type: ignore[override, unused-ignore]  # gymnasium 1.2 types it narrower
        """The text board (``"ansi"`` returns it, ``"human"`` prints it) or its picture
        (``"rgb_array"``: ``(H, W, 3)`` ``uint8``)."""
        return render(self._require_game(), self.render_mode)


def register() -> None:
    """Make ``gymnasium.make("sequence_game/Sequence-v0", ...)`` available (idempotent)."""
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point=f"{__name__}:SequenceEnv")


register()
