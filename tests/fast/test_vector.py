"""The batched environments on the fast engine: the same planes as ``observation.encode``."""

from __future__ import annotations

import random

import numpy as np
import pytest

from sequence_game import IllegalActionError
from sequence_game.cards import FULL_DECK
from sequence_game.config import GameConfig
from sequence_game.env.fast_vector import FastBatchStepper, FastVectorEnv
from sequence_game.env.observation import PLANES, encode, observation_space, quantize
from sequence_game.fast.differential import CONFIGS
from sequence_game.fast.engine import FastGame
from sequence_game.fast.vector import encode_game, random_masked, random_masked_actions
from sequence_game.state import GameState

pytest.importorskip("gymnasium")


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.players}p{c.sides}s")
def test_planes_match_the_pure_encoder_in_lock_step(config) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(config.players * 10 + config.sides)
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    fast = FastGame(config, deck, 0, seed=1)
    pure = GameState(config, deck, 0, reshuffle_source=lambda pool: fast.last_reshuffle())
    while not pure.is_terminal():
        want_obs, want_mask = encode(pure, pure.current_seat, 300)
        got_obs, got_mask = encode_game(fast, 300)
        packed, packed_mask = encode_game(fast, 300, np.uint8)
        assert np.array_equal(want_mask, got_mask) and np.array_equal(want_mask, packed_mask)
        assert packed.dtype == np.uint8 and got_obs.dtype == np.float32
        for plane, name in enumerate(PLANES):  # value for value, both dtypes
            assert np.array_equal(want_obs[..., plane], got_obs[..., plane]), (name, pure.turn)
            assert np.array_equal(quantize(want_obs[..., plane]), packed[..., plane]), (name, pure.turn)
        action = fast.random_action()
        fast.apply(action)
        pure.apply(action)


def test_planes_match_across_reshuffles_and_turn_caps() -> None:
    """Twelve seats run the draw pile out (R5.4): the discard counts the engine keeps for planes
    8, 14 and 15 restart with the new pile; plane 22 saturates past a small turn cap."""
    config = GameConfig(players=12, teams=3)
    reshuffles = 0
    for seed in range(3):
        rng = random.Random(seed)
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        fast = FastGame(config, deck, seed % 12, seed=seed)
        pure = GameState(config, deck, seed % 12, reshuffle_source=lambda pool, f=fast: f.last_reshuffle())
        while not pure.is_terminal():
            for cap in (7, 1000):
                want_obs, _ = encode(pure, pure.current_seat, cap)
                assert np.array_equal(want_obs, encode_game(fast, cap)[0]), pure.turn
                assert np.array_equal(quantize(want_obs), encode_game(fast, cap, np.uint8)[0]), pure.turn
            action = fast.random_action()
            fast.apply(action)
            pure.apply(action)
        reshuffles += fast.reshuffles
    assert reshuffles > 0


def test_uint8_and_float32_steppers_agree() -> None:
    """The same seed gives the same games; the uint8 planes are ``quantize`` of the float ones."""
    floats = FastBatchStepper(32, players=3, seed=5)
    bytes_ = FastBatchStepper(32, players=3, seed=5, obs_dtype=np.uint8)
    a, b = floats.reset(), bytes_.reset()
    rng = np.random.default_rng(5)
    for _ in range(120):
        assert b.obs.dtype == np.uint8 and np.array_equal(quantize(a.obs), b.obs)
        assert np.array_equal(a.mask, b.mask)
        actions = random_masked_actions(a.mask, rng)
        a, b = floats.step(actions), bytes_.step(actions)
    with pytest.raises(ValueError, match="float32 or uint8"):
        FastBatchStepper(2, obs_dtype=np.float64)


def test_stepper_shapes_autoreset_and_rewards() -> None:
    stepper = FastBatchStepper(16, players=3, seed=2)
    batch = stepper.reset()
    assert batch.obs.shape == (16, 10, 10, len(PLANES)) and batch.mask.shape == (16, 405)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(400):
        batch = stepper.step(random_masked_actions(batch.mask, rng))
        done = batch.terminated | batch.truncated
        ended += int(batch.terminated.sum())
        # R7: one side +1, the others -1, or 0 for all in a drawn game; nothing for others
        assert np.all(batch.rewards[~done] == 0)
        for row in batch.rewards[batch.terminated]:
            assert sorted(row.tolist()) in ([-1.0, -1.0, 1.0], [0.0, 0.0, 0.0])
        # the new deal's first observation: nobody has played yet
        assert np.all(batch.obs[done][..., :3].sum(axis=(1, 2, 3)) == 0)
        assert np.all(batch.mask.sum(axis=1) > 0)
    assert ended > 0


def test_same_seed_same_run() -> None:
    def run() -> list[np.ndarray]:
        stepper = FastBatchStepper(4, players=2, seed=7)
        batch = stepper.reset()
        out = []
        for _ in range(30):
            acts = np.argmax(batch.mask, axis=1)
            batch = stepper.step(acts)
            out.append(batch.obs)
        return out

    assert all(np.array_equal(a, b) for a, b in zip(run(), run(), strict=True))


def test_illegal_actions_raise_naming_the_rule() -> None:
    stepper = FastBatchStepper(2, players=2, seed=0)
    batch = stepper.reset()
    acts = np.argmax(batch.mask, axis=1)
    acts[1] = next(a for a in range(300) if not batch.mask[1, a])
    with pytest.raises(IllegalActionError, match=r"R5\.2: game 1"):
        stepper.step(acts)
    with pytest.raises(ValueError, match="expected 2 integer actions"):
        stepper.step([0])


def test_learner_against_random_opponents_always_acts() -> None:
    stepper = FastBatchStepper(8, players=4, learner_seats=[0, 2], seed=1)
    batch = stepper.reset()
    rngs = np.arange(1, 9, dtype=np.uint64)
    acts = np.zeros(8, dtype=np.int64)
    for _ in range(200):
        assert set(batch.seat.tolist()) <= {0, 2}
        random_masked(batch.mask, rngs, acts)
        batch = stepper.step(acts)
    with pytest.raises(ValueError, match="opponents play at random"):
        FastBatchStepper(2, players=2, learner_seats=[0], opponents="greedy")


@pytest.mark.parametrize("dtype", [np.uint8, np.float32])
def test_gymnasium_vector_env(dtype: type) -> None:
    env = FastVectorEnv(6, players=2, seed=3, obs_dtype=dtype)
    assert env.single_observation_space == observation_space(dtype)
    obs, info = env.reset(seed=3)
    assert obs["observation"].dtype == dtype
    assert env.observation_space.contains(obs) and info["seat"].shape == (6,)
    for _ in range(150):
        actions = random_masked_actions(obs["action_mask"], np.random.default_rng(1))
        obs, rewards, terminated, _truncated, info = env.step(actions)
        assert rewards.shape == (6,) and terminated.dtype == bool
        assert env.observation_space.contains(obs)


def test_gymnasium_vector_env_defaults_to_uint8_and_can_skip_copies() -> None:
    env = FastVectorEnv(4, players=2, seed=1, copy=False)
    obs, _ = env.reset(seed=1)
    assert obs["observation"].dtype == np.uint8
    first = obs["observation"]
    obs, *_ = env.step(random_masked_actions(obs["action_mask"], np.random.default_rng(0)))
    assert obs["observation"] is not first and np.shares_memory(obs["observation"], first)
