"""Environments on the compiled engine's batched kernels (:mod:`sequence_game.fast.vector`):
thousands of games stepped in one call, no Python per game.

Two faces:

- :class:`FastBatchStepper`: the API of :class:`~sequence_game.env.vector.SequenceVectorEnv`
  (``reset()``/``step(actions)`` returning a :class:`~sequence_game.env.vector.Batch`).
- :class:`FastVectorEnv`: a Gymnasium ``VectorEnv`` (``autoreset_mode`` "same-step") whose
  agent plays every seat (self-play) or ``learner_seats`` against uniformly random opponents.

Needs the ``env`` and ``fast`` extras (Gymnasium, NumPy, Numba).

>>> stepper = FastBatchStepper(8, players=2, seed=0)
>>> batch = stepper.reset()
>>> batch.obs.shape, batch.mask.shape
((8, 10, 10, 24), (8, 405))
>>> actions = random_masked_actions(batch.mask, np.random.default_rng(0))
>>> batch = stepper.step(actions)
>>> batch.rewards.shape, bool(batch.terminated.any())
((8, 2), False)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt

from ..actions import NUM_ACTIONS
from ..board import NUM_CELLS
from ..errors import IllegalActionError
from ..fast import kernels as k
from ..fast.compile import ensure_compiled
from ..fast.vector import (
    EXPECTED_PLANES,
    OBS_DTYPES,
    OBSERVE_FLOAT,
    OBSERVE_NONE,
    OBSERVE_PACKED,
    POOL_SIZE,
    SCRATCH_STRIDE,
    first_illegal,
    plane_values,
    random_masked_actions,
    reset_games,
    step_games,
)
from ..features.planes import DEFAULT_MAX_TURNS, NUM_PLANES
from .observation import action_space, observation_space
from .table import check_max_turns, env_config
from .vector import Batch

__all__ = ["FastBatchStepper", "FastVectorEnv", "random_masked_actions"]


class FastBatchStepper:
    """``num_envs`` games of one table on the compiled engine, with ``SequenceVectorEnv``'s API.

    ``learner_seats=None`` (default): the caller plays every seat. Otherwise the other seats play
    uniformly random legal moves (``opponents="random"``, the only bot compiled in).

    ``obs_dtype``: ``np.float32`` planes (default, as ``SequenceVectorEnv``) or ``np.uint8``
    planes, ``observation.quantize`` of the same values (a quarter of the memory, the fastest).
    """

    def __init__(
        self,
        num_envs: int,
        players: int = 2,
        teams: int | None = None,
        *,
        learner_seats: Iterable[int] | None = None,
        opponents: str = "random",
        draw: str = "auto",
        max_turns: int = DEFAULT_MAX_TURNS,
        seed: int | None = None,
        observations: bool = True,
        obs_dtype: npt.DTypeLike = np.float32,
    ) -> None:
        if not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive int, not {num_envs!r}")
        if NUM_PLANES != EXPECTED_PLANES:
            raise RuntimeError(
                f"the observation has {NUM_PLANES} planes; the fast encoder writes {EXPECTED_PLANES}"
            )
        self.config = env_config(players, teams, draw)
        self.max_turns = check_max_turns(max_turns)
        self.num_envs = num_envs
        self.num_players = players
        self.learners = np.ones(players, dtype=np.int8)
        if learner_seats is not None:
            if opponents != "random":
                raise ValueError(f"the fast environment's opponents play at random, not {opponents!r}")
            seats = sorted(set(learner_seats))
            if not seats or any(not 0 <= s < players for s in seats):
                raise ValueError(f"learner_seats must name seats 0..{players - 1}, not {seats!r}")
            self.learners[:] = 0
            self.learners[seats] = 1
            if self.max_turns < players:
                raise ValueError(f"max_turns={max_turns} would end games before every seat has played")
        ensure_compiled()
        self.observations = observations
        """Whether steps write the planes; without them (masks, seats, rewards and flags only) a
        step costs less: the planes are 2.4 KB (uint8) or 9.6 KB (float32) a game (docs/fast.md)."""
        self.obs_dtype = np.dtype(obs_dtype)
        if self.obs_dtype not in OBS_DTYPES:
            raise ValueError(f"obs_dtype must be float32 or uint8, not {self.obs_dtype}")
        c = self.config
        packed = self.obs_dtype == np.uint8
        self._mode = OBSERVE_NONE if not observations else OBSERVE_PACKED if packed else OBSERVE_FLOAT
        # the kernels take both forms; the one not written is a one-game placeholder
        self._fvals = plane_values(c.players, c.sides, self.max_turns, np.float32)
        self._ivals = plane_values(c.players, c.sides, self.max_turns, np.uint8).astype(np.int64)
        self._words = np.zeros((num_envs if packed else 1, NUM_CELLS, 3), dtype=np.int64)
        self._fobs = np.zeros((1 if packed else num_envs, NUM_CELLS, NUM_PLANES), dtype=np.float32)
        # uint8 planes are the bytes of the packed words (Numba runs on little-endian machines only)
        self.obs = (
            self._words.view(np.uint8).reshape(num_envs, NUM_CELLS, NUM_PLANES) if packed else self._fobs
        )
        self._scratch = np.zeros((POOL_SIZE, SCRATCH_STRIDE), dtype=np.int64)
        self._seed = seed
        self.rows = np.zeros((num_envs, k.ROW), dtype=np.int32)
        self.rngs = np.zeros(num_envs, dtype=np.uint64)
        self.masks = np.zeros((num_envs, NUM_ACTIONS), dtype=np.int8)
        self.seats = np.zeros(num_envs, dtype=np.int64)
        self.rewards = np.zeros((num_envs, players), dtype=np.float32)
        self.terminated = np.zeros(num_envs, dtype=bool)
        self.truncated = np.zeros(num_envs, dtype=bool)
        self._ready = False
        ensure_compiled("vector")

    def _seed_rngs(self, seed: int | None) -> None:
        root = np.random.SeedSequence(seed)
        words = root.generate_state(self.num_envs, dtype=np.uint64)
        self.rngs[:] = words | np.uint64(1)  # xorshift needs a non-zero state

    def _batch(self) -> Batch:
        # copies: the caller may keep or write into what it is given; ours are reused next step
        return Batch(
            self.obs.reshape(self.num_envs, 10, 10, NUM_PLANES).copy(),
            self.masks.copy(),
            self.seats.copy(),
            self.rewards.copy(),
            self.terminated.copy(),
            self.truncated.copy(),
        )

    def reset(self, seed: int | None = None) -> Batch:
        """Deal ``num_envs`` new games (``seed`` makes the whole run repeatable)."""
        self._seed_rngs(seed if seed is not None else self._seed)
        c = self.config
        reset_games(
            self.rows,
            self.rngs,
            c.players,
            c.sides,
            self.learners,
            self.max_turns,
            self._mode,
            self._fvals,
            self._fobs,
            self._ivals,
            self._words,
            self.masks,
            self.seats,
            self._scratch,
        )
        self.rewards[:] = 0
        self.terminated[:] = False
        self.truncated[:] = False
        self._ready = True
        return self._batch()

    def check(self, actions: Any) -> np.ndarray:
        """The actions as an int64 array, or an error naming the first illegal one's rule."""
        if not self._ready:
            raise RuntimeError("call reset() before step()")
        acts = np.asarray(actions)
        n = self.num_envs
        if acts.shape != (n,) or not np.issubdtype(acts.dtype, np.integer):
            raise ValueError(
                f"expected {n} integer actions, got an array of shape {acts.shape} ({acts.dtype})"
            )
        acts = acts.astype(np.int64, copy=False)
        i = first_illegal(self.masks, acts)
        if i >= 0:
            action = int(acts[i])
            rule = "R5.2" if not 300 <= action < 404 else ("R5.1" if action < 352 else "R5.5")
            raise IllegalActionError(rule, f"game {i}: action {action} is not legal now", action)
        return acts

    def step_arrays(self, actions: Any) -> None:
        """Step without copying out: the results are left in ``obs``, ``masks``, ``seats``,
        ``rewards``, ``terminated`` and ``truncated`` (overwritten by the next step)."""
        acts = self.check(actions)
        step_games(
            self.rows,
            self.rngs,
            acts,
            self.learners,
            self.max_turns,
            self._mode,
            self._fvals,
            self._fobs,
            self._ivals,
            self._words,
            self.masks,
            self.seats,
            self.rewards,
            self.terminated,
            self.truncated,
            self._scratch,
        )

    def step(self, actions: Any) -> Batch:
        """Apply ``actions[i]`` for the seat to act in game ``i``; illegal ones raise, naming the rule."""
        self.step_arrays(actions)
        return self._batch()


class FastVectorEnv(gymnasium.vector.VectorEnv):  # type: ignore[type-arg, unused-ignore]  # generic in some releases
    """A Gymnasium ``VectorEnv`` on the fast engine (same-step autoreset).

    Observations are dicts of batched arrays, ``{"observation": (N, 10, 10, P), "action_mask":
    (N, 405)}``; the reward of game ``i`` is that of the seat that just acted in it (self-play) or,
    with ``learner_seats``, of the first learner seat. ``infos["seat"]`` names the seat to act.

    The planes are ``uint8`` by default (``obs_dtype=np.float32`` for the float planes): the
    values of ``observation.quantize``, ``rint(v * 255)``, so ``planes / 255`` is within 1/510 of
    the float value; a quarter of the memory, which is what bounds a step at large batches.
    ``copy=False`` (as Gymnasium's ``SyncVectorEnv``) returns the stepper's own arrays, which the
    next step overwrites.
    """

    metadata: dict[str, Any] = {"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int,
        players: int = 2,
        teams: int | None = None,
        *,
        obs_dtype: npt.DTypeLike = np.uint8,
        copy: bool = True,
        **kwargs: Any,
    ) -> None:
        self.stepper = FastBatchStepper(num_envs, players, teams, obs_dtype=obs_dtype, **kwargs)
        self.num_envs = num_envs
        self.copy = copy
        self.single_observation_space = observation_space(obs_dtype)
        self.single_action_space = action_space()
        self.observation_space = gymnasium.vector.utils.batch_space(self.single_observation_space, num_envs)
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, num_envs)
        learners = np.flatnonzero(self.stepper.learners)
        self._reward_seat = int(learners[0]) if len(learners) < players else -1
        self._reward_seats = np.full(num_envs, max(self._reward_seat, 0))
        self._games = np.arange(num_envs)

    def _obs(self) -> dict[str, np.ndarray]:
        s = self.stepper
        planes = s.obs.reshape(s.num_envs, 10, 10, NUM_PLANES)
        if not self.copy:
            return {"observation": planes, "action_mask": s.masks}
        return {"observation": planes.copy(), "action_mask": s.masks.copy()}

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        if isinstance(seed, list):
            seed = seed[0] if seed else None
        self.stepper.reset(seed)
        return self._obs(), {"seat": self.stepper.seats.copy()}

    def step(
        self, actions: Any
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        s = self.stepper
        acting = s.seats.copy() if self._reward_seat < 0 else self._reward_seats
        s.step_arrays(actions)
        rewards = s.rewards[self._games, acting].astype(np.float64)
        flags = (s.terminated.copy(), s.truncated.copy()) if self.copy else (s.terminated, s.truncated)
        return self._obs(), rewards, *flags, {"seat": s.seats.copy()}
