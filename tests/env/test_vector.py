"""The batch stepper: the same games as the engine, rewards at the end, autoreset, clear errors."""

from __future__ import annotations

import numpy as np
import pytest

from sequence_game import IllegalActionError
from sequence_game.bots import BOTS
from sequence_game.env.observation import encode
from sequence_game.env.vector import SequenceVectorEnv

OPPONENT = "greedy" if "greedy" in BOTS else "random"


def random_actions(rng, mask):
    return np.argmax(rng.random(mask.shape) * mask, axis=1)


def test_steps_match_the_engine_and_autoreset_after_the_end():
    venv = SequenceVectorEnv(6, players=3, seed=1)
    rng = np.random.default_rng(1)
    batch = venv.reset()
    ended = 0
    for _ in range(400):
        before = [g.copy() for g in venv.games]
        actions = random_actions(rng, batch.mask)
        batch = venv.step(actions)
        for i, (old, action) in enumerate(zip(before, actions.tolist(), strict=True)):
            old.apply(action)  # the validating path agrees with the trusted one
            if batch.terminated[i]:
                ended += 1
                assert old.is_terminal()
                assert batch.rewards[i].tolist() == old.returns()
                assert venv.games[i].turn == 0  # a new deal
            else:
                assert not old.is_terminal() and old.history == venv.games[i].history
                assert not batch.rewards[i].any()
            obs, mask = encode(venv.games[i], int(batch.seat[i]))
            np.testing.assert_array_equal(batch.obs[i], obs)
            np.testing.assert_array_equal(batch.mask[i], mask)
        if ended >= 3:
            break
    assert ended >= 3


def test_same_seed_same_batches():
    a, b = SequenceVectorEnv(4, players=4, seed=5), SequenceVectorEnv(4, players=4, seed=5)
    ba, bb = a.reset(), b.reset()
    rng = np.random.default_rng(0)
    for _ in range(30):
        actions = random_actions(rng, ba.mask)
        ba, bb = a.step(actions), b.step(actions)
        for x, y in zip(ba, bb, strict=True):
            np.testing.assert_array_equal(x, y)


def test_truncation_at_the_turn_cap_resets_the_game():
    venv = SequenceVectorEnv(3, players=2, max_turns=4, seed=0)
    batch = venv.reset()
    rng = np.random.default_rng(0)
    truncated = np.zeros(3, bool)
    for _ in range(8):
        batch = venv.step(random_actions(rng, batch.mask))
        truncated |= batch.truncated
        assert not batch.rewards.any()
    assert truncated.all()
    assert all(g.turn < 4 for g in venv.games)


def test_learner_seats_against_bots():
    venv = SequenceVectorEnv(4, players=4, learner_seats=[0, 2], opponents=OPPONENT, seed=3)
    batch = venv.reset()
    rng = np.random.default_rng(3)
    finished = 0
    for _ in range(200):
        assert set(batch.seat.tolist()) <= {0, 2}
        batch = venv.step(random_actions(rng, batch.mask))
        done = batch.terminated
        finished += int(done.sum())
        # team mates share the result (R2.4)
        np.testing.assert_array_equal(batch.rewards[:, 0], batch.rewards[:, 2])
        np.testing.assert_array_equal(batch.rewards[:, 1], batch.rewards[:, 3])
        if finished:
            break
    assert finished


def test_an_illegal_action_raises_with_the_game_and_rule():
    venv = SequenceVectorEnv(3, players=2, seed=2)
    batch = venv.reset()
    actions = np.argmax(batch.mask, axis=1)
    actions[1] = int(np.flatnonzero(batch.mask[1] == 0)[0])
    games = [g.copy() for g in venv.games]
    with pytest.raises(IllegalActionError, match=r"^R\d\.\d: game 1: ") as info:
        venv.step(actions)
    assert info.value.rule.startswith("R")
    assert [g.history for g in venv.games] == [g.history for g in games]  # nothing applied
    with pytest.raises(IllegalActionError, match="game 0"):
        venv.step(np.array([405, 0, 0]))


def test_writing_into_a_returned_mask_does_not_unlock_actions():
    venv = SequenceVectorEnv(1, players=2, seed=2)
    batch = venv.reset()
    illegal = int(np.flatnonzero(batch.mask[0] == 0)[0])
    batch.mask[0, illegal] = 1
    with pytest.raises(IllegalActionError):
        venv.step([illegal])


def test_bad_calls_are_refused():
    venv = SequenceVectorEnv(2, players=2)
    with pytest.raises(RuntimeError, match="reset"):
        venv.step([0, 0])
    venv.reset(seed=0)
    with pytest.raises(ValueError, match="2 integer actions"):
        venv.step([0])
    with pytest.raises(ValueError, match="integer actions"):
        venv.step([0.5, 1.0])
    with pytest.raises(ValueError, match="num_envs"):
        SequenceVectorEnv(0)
