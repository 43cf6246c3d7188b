"""The single-agent Gymnasium environment: Gymnasium's checker, bots in the other seats, rewards."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from sequence_game import ConfigError, IllegalActionError
from sequence_game.bots import BOTS, Limit
from sequence_game.env.gymnasium import ENV_ID, SequenceEnv

QUICK = Limit(simulations=8)  # keeps search bots fast in tests (and their games reproducible)


@pytest.mark.parametrize(
    "kwargs",
    [{"players": 2}, {"players": 4, "seat": 1, "render_mode": "ansi"}, {"players": 6, "teams": 3, "seat": 5}],
)
def test_passes_gymnasiums_env_checker(kwargs):
    """Any warning but the one about testing other render modes (next test) fails."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(SequenceEnv(**kwargs))
    assert [str(w.message) for w in caught if "alternative render modes" not in str(w.message)] == []


def test_made_by_id_passes_the_checker_with_every_render_mode(capsys):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(gymnasium.make(ENV_ID, players=3, seat=2).unwrapped)
    assert [str(w.message) for w in caught] == []
    assert "a   b   c" in capsys.readouterr().out  # the "human" mode printed the board


def play(env, seed, policy=None):
    """Masked random actions to the end; returns the rewards and the last info."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    rewards = []
    while True:
        assert env.game.current_seat == env.seat
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, terminated, truncated, info = env.step(
            int(policy(legal) if policy else rng.choice(legal))
        )
        rewards.append(reward)
        if terminated or truncated:
            return rewards, info, terminated


@pytest.mark.parametrize(("players", "teams", "seat"), [(2, None, 1), (3, None, 0), (4, None, 2), (6, 3, 4)])
def test_r7_the_reward_is_the_seats_return_at_the_end(players, teams, seat):
    env = SequenceEnv(players=players, teams=teams, seat=seat)
    for seed in range(3):
        rewards, info, terminated = play(env, seed)
        assert terminated
        assert set(rewards[:-1]) <= {0.0}
        assert rewards[-1] == env.game.returns()[seat]
        winner = info["winner"]
        assert rewards[-1] == (0.0 if winner is None else 1.0 if seat % env.config.sides == winner else -1.0)


@pytest.mark.parametrize("name", sorted(BOTS))
def test_accepts_every_bot_by_name(name):
    env = SequenceEnv(players=2, opponents=name, bot_limit=QUICK)
    obs, _ = env.reset(seed=1)
    for _ in range(3):
        obs, _, terminated, truncated, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        assert not (terminated or truncated)


def test_one_bot_name_per_other_seat():
    if "greedy" not in BOTS:
        pytest.skip("no greedy bot yet")
    env = SequenceEnv(players=3, seat=1, opponents=["random", "greedy"])
    assert [type(b).__name__ for b in env.bots.bots.values()] == [
        type(BOTS["random"]()).__name__,
        type(BOTS["greedy"]()).__name__,
    ]
    with pytest.raises(ValueError, match="2 bot names for 1 bot seats"):
        SequenceEnv(players=2, opponents=["random", "random"])


def test_unknown_bot_is_refused_with_the_choices():
    with pytest.raises(ValueError, match="random"):
        SequenceEnv(players=2, opponents="grandmaster")


def test_opponents_may_carry_bot_options():
    env = SequenceEnv(players=2, opponents="heuristic(threat_weight=0.5)")
    assert [b.threat_weight for b in env.bots.bots.values()] == [0.5]
    with pytest.raises(ValueError, match="no option 'depth'"):
        SequenceEnv(players=2, opponents="mcts(depth=3)")


def test_same_seed_same_episode():
    a, b = SequenceEnv(players=4, seat=3), SequenceEnv(players=4, seat=3)
    first = play(a, 7, policy=lambda legal: legal[-1])
    assert play(b, 7, policy=lambda legal: legal[-1]) == first
    assert a.game.history == b.game.history


def test_an_illegal_action_ends_the_episode_naming_the_rule():
    env = SequenceEnv(players=2)
    obs, _ = env.reset(seed=2)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["illegal_action"] and info["rule"].startswith("R")
    with pytest.raises(RuntimeError, match="reset"):
        env.step(illegal)


def test_illegal_actions_can_raise_instead():
    env = SequenceEnv(players=2, illegal_action="raise")
    obs, _ = env.reset(seed=2)
    with pytest.raises(IllegalActionError):
        env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))


def test_truncation_at_the_turn_cap():
    env = SequenceEnv(players=2, max_turns=10)
    _, info, terminated = play(env, 0)
    assert not terminated and info["turn"] >= 10


def test_bad_settings_are_refused():
    with pytest.raises(ConfigError, match=r"R5\.3"):
        SequenceEnv(players=2, draw="manual")
    with pytest.raises(ValueError, match="learner seats"):
        SequenceEnv(players=2, seat=2)
    with pytest.raises(ValueError, match="max_turns"):
        SequenceEnv(players=4, max_turns=3)
    with pytest.raises(ValueError, match="render_mode"):
        SequenceEnv(render_mode="svg")
