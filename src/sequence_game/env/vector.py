"""A batch stepper: ``N`` games at once, numpy arrays in and out, finished games dealt anew.

Each call takes one action per game (for the seat to act in it) and returns a :class:`Batch`:
the next observations, masks and seats, the rewards of every seat and the done flags. A game that
ends in a step reports its rewards and ``terminated``/``truncated`` there, and the observation
returned for it is already the first of a new deal (Gymnasium's "same-step" autoreset). The
observations of all games are encoded in one numpy pass (``observation.encode_batch``).

With ``learner_seats=None`` (the default) the caller plays every seat (self-play); otherwise the
other seats are bots, as in the single-agent environment.

>>> venv = SequenceVectorEnv(4, players=2, seed=0)
>>> batch = venv.reset()
>>> batch.obs.shape, batch.mask.shape, batch.rewards.shape, venv.state().shape
((4, 10, 10, 24), (4, 405), (4, 2), (4, 10, 10, 33))
>>> rng = np.random.default_rng(0)
>>> actions = [rng.choice(np.flatnonzero(m)) for m in batch.mask]
>>> batch = venv.step(actions)
>>> bool(batch.terminated.any()), float(batch.rewards.sum()), batch.seat.shape
(False, 0.0, (4,))
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import NamedTuple

import numpy as np

from ..actions import NUM_ACTIONS
from ..bots import Limit
from ..errors import IllegalActionError
from ..features.planes import DEFAULT_MAX_TURNS
from ..state import GameState, new_game
from .observation import encode_batch, encode_state_batch
from .opponents import BotSeats
from .table import check_max_turns, env_config


class Batch(NamedTuple):
    """What a batch step returns (first axis: the game)."""

    obs: np.ndarray
    """``(N, 10, 10, NUM_PLANES)`` float32 planes of the seat to act."""
    mask: np.ndarray
    """``(N, NUM_ACTIONS)`` int8 legal-action masks of that seat."""
    seat: np.ndarray
    """``(N,)`` int64: the seat to act."""
    rewards: np.ndarray
    """``(N, players)`` float32: +1/-1/0 per seat in games that ended this step (R7), else 0."""
    terminated: np.ndarray
    """``(N,)`` bool: the game ended by the rules (R7.1, R7.2) this step."""
    truncated: np.ndarray
    """``(N,)`` bool: the game reached ``max_turns`` this step."""


class SequenceVectorEnv:
    """``num_envs`` games of one configuration, stepped together."""

    def __init__(
        self,
        num_envs: int,
        players: int = 2,
        teams: int | None = None,
        *,
        learner_seats: Iterable[int] | None = None,
        opponents: str | Sequence[str] = "random",
        bot_limit: Limit | None = None,
        draw: str = "auto",
        max_turns: int = DEFAULT_MAX_TURNS,
        seed: int | None = None,
    ) -> None:
        if not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive int, not {num_envs!r}")
        self.config = env_config(players, teams, draw)
        self.max_turns = check_max_turns(max_turns)
        self.num_envs = num_envs
        self.num_players = players
        self.bots: list[BotSeats] | None = None
        if learner_seats is not None:
            seats = list(learner_seats)
            self.bots = [BotSeats(self.config, seats, opponents, bot_limit) for _ in range(num_envs)]
            if self.max_turns < players:
                raise ValueError(f"max_turns={max_turns} would end games before every seat has played")
        self._rng = random.Random(seed)
        self.games: list[GameState] = []
        self._mask = np.zeros((num_envs, NUM_ACTIONS), dtype=np.int8)

    def _deal(self, i: int) -> GameState:
        """A new game in slot ``i``, with the bots (if any) played up to a learner's turn."""
        if self.bots is None:
            return new_game(self.config, seed=self._rng.getrandbits(63))
        return self.bots[i].deal(self.config, lambda: self._rng.getrandbits(63), self.max_turns)

    def _batch(self, rewards: np.ndarray, terminated: np.ndarray, truncated: np.ndarray) -> Batch:
        seats = [g.current_seat for g in self.games]
        obs, mask = encode_batch(self.games, seats, self.max_turns)
        self._mask = mask.copy()  # our own copy: the caller may write into theirs
        return Batch(obs, mask, np.array(seats, dtype=np.int64), rewards, terminated, truncated)

    def state(self) -> np.ndarray:
        """``(N, 10, 10, len(STATE_PLANES))``: every game whole, hidden cards included, for a
        centralised critic (see ``observation.encode_state_batch``)."""
        if not self.games:
            raise RuntimeError("call reset() before state()")
        return encode_state_batch(self.games, self.max_turns)

    def reset(self, seed: int | None = None) -> Batch:
        """Deal ``num_envs`` new games (``seed`` makes the whole run repeatable)."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.games = [self._deal(i) for i in range(self.num_envs)]
        n = self.num_envs
        return self._batch(
            np.zeros((n, self.num_players), dtype=np.float32), np.zeros(n, bool), np.zeros(n, bool)
        )

    def step(self, actions: Sequence[int] | np.ndarray) -> Batch:
        """Apply ``actions[i]`` for the seat to act in game ``i``; illegal ones raise, naming the rule."""
        if not self.games:
            raise RuntimeError("call reset() before step()")
        acts = np.asarray(actions)
        n = self.num_envs
        if acts.shape != (n,) or not np.issubdtype(acts.dtype, np.integer):
            raise ValueError(
                f"expected {n} integer actions, got an array of shape {acts.shape} ({acts.dtype})"
            )
        in_range = (acts >= 0) & (acts < NUM_ACTIONS)
        legal = np.zeros(n, dtype=bool)
        legal[in_range] = self._mask[np.flatnonzero(in_range), acts[in_range]] == 1
        if not legal.all():
            i = int(np.flatnonzero(~legal)[0])
            game, action = self.games[i], int(acts[i])
            try:
                game.check(action, game.current_seat)
            except IllegalActionError as exc:
                raise IllegalActionError(exc.rule, f"game {i}: {exc.message}", action) from None
            raise IllegalActionError("R5.2", f"game {i}: action {action} is not legal now", action)
        rewards = np.zeros((n, self.num_players), dtype=np.float32)
        terminated = np.zeros(n, dtype=bool)
        truncated = np.zeros(n, dtype=bool)
        for i, (game, action) in enumerate(zip(self.games, acts.tolist(), strict=True)):
            game._apply(action, game.current_seat)  # trusted: checked against the mask above
            if self.bots is not None:
                self.bots[i].play_until_learner(game, self.max_turns)
            if game.is_terminal():
                terminated[i] = True
                rewards[i] = game.returns()
            elif game.turn >= self.max_turns:
                truncated[i] = True
            else:
                continue
            self.games[i] = self._deal(i)
        return self._batch(rewards, terminated, truncated)
