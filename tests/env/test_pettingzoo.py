"""The PettingZoo AEC environment: PettingZoo's own API and seed tests, rewards, truncation."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from sequence_game import ConfigError, IllegalActionError, action_name
from sequence_game.actions import DEAD, DISCARD
from sequence_game.env.pettingzoo import env, raw_env

from .conftest import ALL_TABLES

# api_test warns about every Dict observation outside PettingZoo's own list of envs; nothing else
# it says is expected, so any other warning fails the test.
KNOWN = ("Observation is not a NumPy array", "Observation space for each agent probably should be")


def run_quietly(check, *args, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check(*args, **kwargs)
    unexpected = [str(w.message) for w in caught if not str(w.message).startswith(KNOWN)]
    assert not unexpected


@pytest.mark.parametrize(("players", "teams"), ALL_TABLES)
def test_passes_pettingzoos_api_test(players, teams):
    run_quietly(api_test, env(players=players, teams=teams), num_cycles=200)


def test_raw_env_with_ansi_render_passes_api_test():
    run_quietly(api_test, raw_env(players=3, render_mode="ansi"), num_cycles=200)


@pytest.mark.parametrize(("players", "teams"), [(2, None), (3, None), (4, None), (6, 3)])
def test_passes_pettingzoos_seed_test(players, teams):
    run_quietly(seed_test, lambda: env(players=players, teams=teams), num_cycles=100)


def play_out(aec, seed, chooser=None):
    """Play masked random actions to the end; returns the cumulative rewards seen by each agent."""
    rng = np.random.default_rng(seed)
    aec.reset(seed=seed)
    totals = {}
    for agent in aec.agent_iter():
        obs, reward, terminated, truncated, _ = aec.last()
        totals[agent] = totals.get(agent, 0.0) + reward
        if terminated or truncated:
            aec.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        aec.step(int(chooser(legal) if chooser else rng.choice(legal)))
    return totals


@pytest.mark.parametrize(("players", "teams"), [(2, None), (3, None), (6, 2), (6, 3)])
def test_r7_rewards_are_shared_by_each_side(players, teams):
    for seed in range(3):
        aec = raw_env(players=players, teams=teams)
        totals = play_out(aec, seed)
        outcome = aec.unwrapped.game.outcome()
        assert outcome is not None
        for seat in range(players):
            side = seat % aec.config.sides
            expected = 0.0 if outcome.winner is None else (1.0 if side == outcome.winner else -1.0)
            assert totals[f"player_{seat}"] == expected
        assert aec.agents == []


def test_truncation_at_the_turn_cap_gives_no_reward():
    aec = raw_env(players=4, max_turns=6)
    totals = play_out(aec, seed=2)
    assert aec.game.turn == 6 and not aec.game.is_terminal()
    assert set(totals.values()) == {0.0}


def test_truncation_flags_every_agent():
    aec = raw_env(players=2, max_turns=3)
    aec.reset(seed=0)
    while aec.game.turn < 3:
        obs, *_ = aec.last()
        aec.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert all(aec.truncations.values()) and not any(aec.terminations.values())


def test_r5_1_the_same_agent_acts_again_after_a_dead_card_exchange():
    """Prefer dead-card exchanges in random games until one happens; the turn stays put."""
    seen = 0
    for seed in range(40):
        aec = raw_env(players=2)
        rng = np.random.default_rng(seed)
        aec.reset(seed=seed)
        for agent in aec.agent_iter():
            obs, _, terminated, truncated, _ = aec.last()
            if terminated or truncated:
                aec.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            dead = legal[(legal >= DEAD) & (legal < DISCARD)]
            aec.step(int(dead[0] if len(dead) else rng.choice(legal)))
            if len(dead) and not aec.game.is_terminal():
                assert aec.agent_selection == agent
                seen += 1
        if seen >= 3:
            break
    assert seen >= 3


def test_an_illegal_action_raises_naming_the_rule():
    aec = raw_env(players=2)
    aec.reset(seed=5)
    obs, *_ = aec.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError) as info:
        aec.step(illegal)
    assert info.value.rule.startswith("R")


def test_the_wrapped_env_ends_the_game_on_an_illegal_action(caplog):
    aec = env(players=2)
    aec.reset(seed=5)
    agent = aec.agent_selection
    obs, *_ = aec.last()
    aec.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert "Illegal move" in caplog.text
    assert all(aec.terminations.values())
    assert aec.rewards[agent] == -1


def test_same_seed_same_game_and_unseeded_resets_continue_the_sequence():
    a, b = raw_env(players=3), raw_env(players=3)
    a.reset(seed=9)
    b.reset(seed=9)
    assert a.game.initial_deck == b.game.initial_deck
    a.reset()
    b.reset()
    assert a.game.initial_deck == b.game.initial_deck
    b.reset(seed=10)
    assert a.game.initial_deck != b.game.initial_deck


def test_ansi_render_shows_the_board():
    aec = raw_env(players=2, render_mode="ansi")
    aec.reset(seed=1)
    text = aec.render()
    assert text.splitlines()[0].split() == list("abcdefghij")
    assert "to act: seat" in text and len(text.splitlines()) >= 11


def test_r5_3_manual_draw_mode_is_refused_clearly():
    with pytest.raises(ConfigError, match=r"R5\.3: .*draw='auto'"):
        raw_env(players=2, draw="manual")


def test_r2_1_bad_tables_are_refused():
    with pytest.raises(ConfigError, match=r"R2\.1"):
        raw_env(players=5)
    with pytest.raises(ConfigError, match=r"R2\.2"):
        raw_env(players=4, teams=4)


def test_metadata_and_agents():
    aec = raw_env(players=6, teams=3)
    assert aec.metadata["name"] == "sequence_v0"
    assert aec.possible_agents == [f"player_{i}" for i in range(6)]
    assert aec.action_space("player_0").n == 405


def test_actions_may_be_numpy_ints_or_notation_and_junk_is_refused():
    aec = raw_env(players=2)
    aec.reset(seed=3)
    obs, *_ = aec.last()
    first = int(np.flatnonzero(obs["action_mask"])[0])
    aec.step(np.int64(first))
    obs, *_ = aec.last()
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    aec.step(action_name(legal))  # the engine reads notation
    assert aec.game.turn >= 2
    for junk in (2.5, "not a move", True):
        with pytest.raises(IllegalActionError, match=r"^R5\.2"):
            aec.step(junk)
