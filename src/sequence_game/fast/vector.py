"""Batched environments on the compiled engine: thousands of games stepped in one call.

Each step is one compiled call over the whole batch (games spread over threads with ``prange``):
apply every game's action, let the random opponents move (if any), deal a new game where one
ended (same-step autoreset), then write the observation planes and action masks of every game
straight into preallocated numpy arrays. No Python runs per game.

Two faces:

- :class:`FastBatchStepper`: the API of :class:`~sequence_game.env.vector.SequenceVectorEnv`
  (``reset()``/``step(actions)`` returning a :class:`~sequence_game.env.vector.Batch`).
- :class:`FastVectorEnv`: a Gymnasium ``VectorEnv`` (``autoreset_mode`` "same-step") whose
  agent plays every seat (self-play) or ``learner_seats`` against uniformly random opponents.

The planes are those of :mod:`sequence_game.env.observation` (same layout, same values; the
tests compare them plane by plane against ``encode`` on the pure engine in lock step).

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
from typing import Any, Final

import gymnasium
import numpy as np

from ..actions import NUM_ACTIONS
from ..board import NUM_CELLS
from ..cards import DECK_SIZE, JC, JD, JH, JS, NUM_CARDS
from ..env.observation import NUM_PLANES, action_space, observation_space
from ..env.table import DEFAULT_MAX_TURNS, check_max_turns, env_config
from ..env.vector import Batch
from ..errors import IllegalActionError
from . import kernels as k
from .compile import ensure_compiled
from .engine import FastGame

EXPECTED_PLANES: Final = 24
"""The observation layout this encoder writes (``env/observation.py``'s, with 24 planes)."""


@k.inline_kernel
def _side_from(seat: int, sides: int, j: int) -> int:
    return (seat % sides + j) % sides


@k.kernel
def encode_row(s: np.ndarray, max_turns: int, obs: np.ndarray, mask: np.ndarray) -> None:
    """The planes ``(100, NUM_PLANES)`` and mask of the seat to play, as ``observation.encode``."""
    seat = s[k.I_SEAT]
    sides = s[k.I_SIDES]
    players = s[k.I_PLAYERS]
    side = seat % sides
    # card counts in the row's scratch: 0 hand, 1-3 discards by side from the observer's, 4 all
    cards = s[k.O_CARDS : k.O_CARDS + 5 * NUM_CARDS]
    cards[:] = 0
    base = k.O_HAND + seat * k.MAX_HAND
    for i in range(s[k.O_HLEN + seat]):
        cards[s[base + i]] += 1
    for i in range(s[k.I_DISCLEN]):
        card = s[k.O_DISC + i]
        rel = (s[k.O_DSEAT + i] % sides - side) % sides
        cards[(1 + rel) * NUM_CARDS + card] += 1
        cards[4 * NUM_CARDS + card] += 1
    hand = cards.reshape((5, NUM_CARDS))
    two_hand = (hand[0, JD] + hand[0, JC]) * 0.25
    one_hand = (hand[0, JH] + hand[0, JS]) * 0.25
    two_disc = (hand[4, JD] + hand[4, JC]) * 0.25
    one_disc = (hand[4, JH] + hand[4, JS]) * 0.25
    deck = s[k.I_DECKLEN] / DECK_SIZE
    need = s[k.I_NEED] / 2.0
    # one chip can complete two sequences (R3.4), so a side may hold 3: capped at 1 as in the planes
    seq0 = min(s[k.O_NSEQ + _side_from(seat, sides, 0)] / 2.0, 1.0)
    seq1 = min(s[k.O_NSEQ + _side_from(seat, sides, 1)] / 2.0, 1.0)
    seq2 = min(s[k.O_NSEQ + _side_from(seat, sides, 2)] / 2.0, 1.0) if sides == 3 else 0.0
    turn = min(s[k.I_TURN] / max_turns, 1.0)
    three = 1.0 if sides == 3 else 0.0
    table = players / 12.0
    for c in range(NUM_CELLS):  # every value of every cell written once: no zeroing pass
        o = s[k.O_OWNER + c]
        rel = (o - side) % sides if o >= 0 else -1
        obs[c, 0] = 1.0 if rel == 0 else 0.0
        obs[c, 1] = 1.0 if rel == 1 else 0.0
        obs[c, 2] = 1.0 if rel == 2 else 0.0
        obs[c, 3] = 1.0 if o >= 0 and s[k.O_LOCKED + c] == 1 else 0.0
        card = k.LAYOUT_A[c]
        if card >= 0:
            obs[c, 4] = 0.0
            obs[c, 5] = hand[0, card] * 0.5
            obs[c, 8] = hand[4, card] * 0.5
            obs[c, 14] = hand[1, card] * 0.5
            obs[c, 15] = hand[2, card] * 0.5
        else:
            obs[c, 4] = 1.0
            obs[c, 5] = 0.0
            obs[c, 8] = 0.0
            obs[c, 14] = 0.0
            obs[c, 15] = 0.0
        obs[c, 6] = two_hand
        obs[c, 7] = one_hand
        obs[c, 9] = two_disc
        obs[c, 10] = one_disc
        obs[c, 11] = deck
        obs[c, 12] = 0.0
        obs[c, 13] = 0.0
        obs[c, 16] = seq0
        obs[c, 17] = seq1
        obs[c, 18] = seq2
        obs[c, 19] = need
        obs[c, 20] = table
        obs[c, 21] = three
        obs[c, 22] = turn
        obs[c, 23] = 0.0
    if s[k.I_LAST_CELL] >= 0:
        obs[s[k.I_LAST_CELL], 12] = 1.0
    # plane 13: cells the other seats played since this seat's last turn (a dead-card exchange
    # does not end a turn, R5.1)
    logged = s[k.I_LOGGED]
    for back in range(min(logged, k.LOG_SIZE)):
        at = k.O_LOG + 2 * ((logged - 1 - back) % k.LOG_SIZE)
        who = s[at]
        action = s[at + 1]
        board = action < 300
        if who == seat and (board or 352 <= action < 404):
            break
        if board:
            obs[action % NUM_CELLS, 13] = 1.0
    full = k.HAND_SIZES[players]
    for j in range(players):
        other = (seat + j) % players
        obs[j, 23] = min(s[k.O_HLEN + other] / full, 1.0)
    k.legal_mask(s, mask)


@k.kernel
def _play_opponents(s: np.ndarray, rs: np.ndarray, g: int, learners: np.ndarray, max_turns: int) -> None:
    """Random play for the seats that are not learners, until a learner is to act or the end."""
    while s[k.I_END] == k.END_NONE and s[k.I_TURN] < max_turns and learners[s[k.I_SEAT]] == 0:
        k.apply(s, rs, g, k.random_action(s, rs, g))


@k.parallel_kernel
def reset_games(
    rows: np.ndarray,
    rngs: np.ndarray,
    players: int,
    sides: int,
    learners: np.ndarray,
    max_turns: int,
    obs: np.ndarray,
    masks: np.ndarray,
    seats: np.ndarray,
    observe: bool,
) -> None:
    """Deal every game anew and observe it (only its mask unless ``observe``)."""
    for g in k.prange(rows.shape[0]):
        deck = np.empty(DECK_SIZE, dtype=np.int32)
        k.deal_random(rows[g], rngs, g, players, sides, deck)
        _play_opponents(rows[g], rngs, g, learners, max_turns)
        seats[g] = rows[g, k.I_SEAT]
        if observe:
            encode_row(rows[g], max_turns, obs[g], masks[g])
        else:
            k.legal_mask(rows[g], masks[g])


@k.parallel_kernel
def step_games(
    rows: np.ndarray,
    rngs: np.ndarray,
    actions: np.ndarray,
    learners: np.ndarray,
    max_turns: int,
    obs: np.ndarray,
    masks: np.ndarray,
    seats: np.ndarray,
    rewards: np.ndarray,
    terminated: np.ndarray,
    truncated: np.ndarray,
    observe: bool,
) -> None:
    """One step of every game (actions already checked against the masks), same-step autoreset;
    the planes are written only if ``observe`` (the masks always)."""
    for g in k.prange(rows.shape[0]):
        s = rows[g]
        players = s[k.I_PLAYERS]
        sides = s[k.I_SIDES]
        for p in range(rewards.shape[1]):
            rewards[g, p] = 0.0
        terminated[g] = False
        truncated[g] = False
        k.apply(s, rngs, g, actions[g])
        _play_opponents(s, rngs, g, learners, max_turns)
        done = False
        if s[k.I_END] != k.END_NONE:
            terminated[g] = True
            done = True
            winner = s[k.I_WINNER]
            if winner >= 0:
                for p in range(players):
                    rewards[g, p] = 1.0 if p % sides == winner else -1.0
        elif s[k.I_TURN] >= max_turns:
            truncated[g] = True
            done = True
        if done:
            deck = np.empty(DECK_SIZE, dtype=np.int32)
            k.deal_random(s, rngs, g, players, sides, deck)
            _play_opponents(s, rngs, g, learners, max_turns)
        seats[g] = s[k.I_SEAT]
        if observe:
            encode_row(s, max_turns, obs[g], masks[g])
        else:
            k.legal_mask(s, masks[g])


@k.parallel_kernel
def random_masked(masks: np.ndarray, rngs: np.ndarray, out: np.ndarray) -> None:
    """A uniformly random legal action per game, compiled (the benchmark's agent)."""
    for g in k.prange(masks.shape[0]):
        n = 0
        for a in range(masks.shape[1]):
            n += masks[g, a]
        r = k.below(rngs, g, n)
        for a in range(masks.shape[1]):
            if masks[g, a]:
                if r == 0:
                    out[g] = a
                    break
                r -= 1


def random_masked_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Uniform legal actions for a batch of masks, in numpy (no Python loop per game)."""
    weights = rng.random(masks.shape) * masks
    return np.asarray(weights.argmax(axis=1), dtype=np.int64)


class FastBatchStepper:
    """``num_envs`` games of one table on the compiled engine, with ``SequenceVectorEnv``'s API.

    ``learner_seats=None`` (default): the caller plays every seat. Otherwise the other seats play
    uniformly random legal moves (``opponents="random"``, the only bot compiled in).
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
        step costs far less: the planes are 9.6 KB a game (docs/fast.md)."""
        self._seed = seed
        self.rows = np.zeros((num_envs, k.ROW), dtype=np.int32)
        self.rngs = np.zeros(num_envs, dtype=np.uint64)
        self.obs = np.zeros((num_envs, NUM_CELLS, NUM_PLANES), dtype=np.float32)
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
            self.obs,
            self.masks,
            self.seats,
            self.observations,
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
        acts = acts.astype(np.int64)
        in_range = (acts >= 0) & (acts < NUM_ACTIONS)
        legal = np.zeros(n, dtype=bool)
        legal[in_range] = self.masks[np.flatnonzero(in_range), acts[in_range]] == 1
        if not legal.all():
            i = int(np.flatnonzero(~legal)[0])
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
            self.obs,
            self.masks,
            self.seats,
            self.rewards,
            self.terminated,
            self.truncated,
            self.observations,
        )

    def step(self, actions: Any) -> Batch:
        """Apply ``actions[i]`` for the seat to act in game ``i``; illegal ones raise, naming the rule."""
        self.step_arrays(actions)
        return self._batch()


class FastVectorEnv(gymnasium.vector.VectorEnv):
    """A Gymnasium ``VectorEnv`` on the fast engine (same-step autoreset).

    Observations are dicts of batched arrays, ``{"observation": (N, 10, 10, P), "action_mask":
    (N, 405)}``; the reward of game ``i`` is that of the seat that just acted in it (self-play) or,
    with ``learner_seats``, of the first learner seat. ``infos["seat"]`` names the seat to act.
    """

    metadata: dict[str, Any] = {"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP}  # noqa: RUF012

    def __init__(self, num_envs: int, players: int = 2, teams: int | None = None, **kwargs: Any) -> None:
        self.stepper = FastBatchStepper(num_envs, players, teams, **kwargs)
        self.num_envs = num_envs
        self.single_observation_space = observation_space()
        self.single_action_space = action_space()
        self.observation_space = gymnasium.vector.utils.batch_space(self.single_observation_space, num_envs)
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, num_envs)
        learners = np.flatnonzero(self.stepper.learners)
        self._reward_seat = int(learners[0]) if len(learners) < players else -1

    def _obs(self) -> dict[str, np.ndarray]:
        s = self.stepper
        return {
            "observation": s.obs.reshape(s.num_envs, 10, 10, NUM_PLANES).copy(),
            "action_mask": s.masks.copy(),
        }

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
        acting = s.seats.copy()
        s.step_arrays(actions)
        games = np.arange(s.num_envs)
        seat = acting if self._reward_seat < 0 else np.full(s.num_envs, self._reward_seat)
        rewards = s.rewards[games, seat].astype(np.float64)
        return self._obs(), rewards, s.terminated.copy(), s.truncated.copy(), {"seat": s.seats.copy()}


def encode_game(game: FastGame, max_turns: int = DEFAULT_MAX_TURNS) -> tuple[np.ndarray, np.ndarray]:
    """Planes ``(10, 10, NUM_PLANES)`` and mask of one :class:`FastGame`'s seat to play, as
    ``observation.encode(state, state.current_seat, max_turns)`` gives for the same position."""
    obs = np.zeros((NUM_CELLS, NUM_PLANES), dtype=np.float32)
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    encode_row(game.row, max_turns, obs, mask)
    return obs.reshape(10, 10, NUM_PLANES), mask
