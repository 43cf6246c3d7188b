"""PettingZoo AEC environment ``sequence_v0``: the engine behind the turn-based multi-agent API.

An adapter and nothing more: every rule is the engine's (``GameState.apply``, ``legal_actions``,
``returns``). Agents ``player_0`` .. ``player_{n-1}`` are the seats; the agent to act is
``current_seat`` (the same agent again after a dead-card exchange, R5.1). Rewards are +1 for the
winning side, -1 for the others and 0 for a drawn game (R7), shared by team mates (R2.4); an
episode that reaches ``max_turns`` is truncated with reward 0.

``state()`` gives a centralised critic the acting seat's planes plus every side's hidden cards
(``observation.encode_state_batch``); each agent's ``info`` holds its turn, seat and side, and the
agent to act also finds its legal actions by name there (``info["action_names"]``).

>>> from sequence_game.env.pettingzoo import env as make_env
>>> e = make_env(players=4)
>>> e.reset(seed=1)
>>> e.agents, e.agent_selection in e.agents
(['player_0', 'player_1', 'player_2', 'player_3'], True)
>>> obs, reward, terminated, truncated, info = e.last()
>>> obs["observation"].shape, obs["action_mask"].dtype, e.state().shape
((10, 10, 24), dtype('int8'), (10, 10, 33))
>>> sorted(info)
['action_names', 'seat', 'side', 'turn', 'turns_left']
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..errors import IllegalActionError
from ..features.planes import DEFAULT_MAX_TURNS
from ..state import GameState, new_game
from .observation import action_space, encode, encode_state_batch, observation_space, state_space
from .render import RENDER_MODES, render
from .table import agent_name, as_action, check_max_turns, env_config, seat_info

ObsDict = dict[str, np.ndarray]


class raw_env(AECEnv[str, ObsDict, int]):  # PettingZoo's naming convention
    """The unwrapped AEC environment; illegal actions raise :class:`IllegalActionError`."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo reads it from the class)
        "name": "sequence_v0",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        players: int = 2,
        teams: int | None = None,
        *,
        draw: str = "auto",
        max_turns: int = DEFAULT_MAX_TURNS,
        render_mode: str | None = None,
    ) -> None:
        """``players``/``teams`` as in :class:`GameConfig` (R2); only ``draw="auto"`` is supported."""
        super().__init__()
        self.config = env_config(players, teams, draw)
        self.max_turns = check_max_turns(max_turns)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.possible_agents = [agent_name(s) for s in range(players)]
        self.agent_name_mapping = {name: s for s, name in enumerate(self.possible_agents)}
        # PettingZoo wants the same space object on every call.
        self.observation_spaces = {a: observation_space() for a in self.possible_agents}
        self.action_spaces = {a: action_space() for a in self.possible_agents}
        self.state_space = state_space()
        self._seeder = random.Random()
        self.game: GameState | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game; ``seed`` fixes it and every later unseeded reset (``options`` unused)."""
        if seed is not None:
            self._seeder = random.Random(seed)
        self.game = new_game(self.config, seed=self._seeder.getrandbits(63))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.agent_selection = agent_name(self.game.current_seat)
        self._update_infos()

    def _require_game(self) -> GameState:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game

    def _update_infos(self) -> None:
        game = self._require_game()
        self.infos: dict[str, dict[str, Any]] = {
            a: seat_info(game, self.agent_name_mapping[a], self.max_turns) for a in self.agents
        }

    def observe(self, agent: str) -> ObsDict:
        """The agent's planes and mask (all zeros unless it is the agent to act)."""
        obs, mask = encode(self._require_game(), self.agent_name_mapping[agent], self.max_turns)
        return {"observation": obs, "action_mask": mask}

    def state(self) -> np.ndarray:
        """The whole game for a centralised critic: the planes of the seat to act, then each
        side's hidden cards (``observation.STATE_PLANES``); hidden information, keep it from
        the policy."""
        state: np.ndarray = encode_state_batch([self._require_game()], self.max_turns)[0]
        return state

    def step(self, action: int | None) -> None:
        """Play ``action`` for :attr:`agent_selection`; ``None`` only for a finished agent."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self._require_game()
        if action is None:
            raise IllegalActionError("R5.2", f"{agent} must act: None is only for finished agents")
        game.apply(as_action(action), self.agent_name_mapping[agent])  # validates, naming the rule
        self._cumulative_rewards[agent] = 0.0
        if game.is_terminal():
            self.rewards = dict(zip(self.agents, game.returns(), strict=True))
            self.terminations = dict.fromkeys(self.agents, True)
        elif game.turn >= self.max_turns:
            self.truncations = dict.fromkeys(self.agents, True)
        if not game.is_terminal():
            self.agent_selection = agent_name(game.current_seat)
        self._update_infos()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | np.ndarray | None:
        """The text board (``"ansi"`` returns it, ``"human"`` prints it) or, for
        ``"rgb_array"``, an ``(H, W, 3)`` ``uint8`` picture of it (``render.board_image``)."""
        return render(self._require_game(), self.render_mode)

    def close(self) -> None:
        """Nothing to release; defined because :meth:`render` is (PettingZoo's contract)."""


def env(**kwargs: Any) -> AECEnv[str, ObsDict, int]:
    """:class:`raw_env` in PettingZoo's standard wrappers: an illegal action ends the game with -1
    for the agent that made it; out-of-range actions and calls out of order raise."""
    aec: AECEnv[str, ObsDict, int] = raw_env(**kwargs)
    aec = wrappers.TerminateIllegalWrapper(aec, illegal_reward=-1)
    aec = wrappers.AssertOutOfBoundsWrapper(aec)
    return wrappers.OrderEnforcingWrapper(aec)
