"""What a researcher expects of a PettingZoo/Gymnasium game: the versioned module, a Gymnasium id,
a centralised state, informative ``info``, pictures, and seeded resets that replay exactly."""

from __future__ import annotations

import functools
import importlib
import random
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, render_test

from sequence_game import GameConfig, new_game
from sequence_game.bots import Limit, make_bot
from sequence_game.env import sequence_v0
from sequence_game.env.gymnasium import ENV_ID, SequenceEnv
from sequence_game.env.observation import NUM_PLANES, STATE_SHAPE, encode
from sequence_game.env.opponents import BotSeats
from sequence_game.env.render import CELL_PIXELS, CHIP_RGB, board_image
from sequence_game.env.table import DEFAULT_BOT_LIMIT
from sequence_game.env.vector import SequenceVectorEnv

from .test_pettingzoo import run_quietly


def test_sequence_v0_is_the_aec_environment_under_its_versioned_name():
    aec = sequence_v0.env(players=4)
    assert aec.metadata["name"] == "sequence_v0"
    run_quietly(api_test, aec, num_cycles=100)
    assert isinstance(sequence_v0.raw_env(players=2), sequence_v0.raw_env)


def test_gymnasium_finds_the_id_by_importing_the_module_it_names():
    """Gymnasium's documented ``"module:id"`` form: no import needed beforehand."""
    env = gymnasium.make(f"sequence_game.env:{ENV_ID}", players=2)
    obs, _ = env.reset(seed=0)
    assert obs["observation"].shape == (10, 10, NUM_PLANES)


def test_pettingzoos_render_test_covers_every_mode(capsys):
    render_test(functools.partial(sequence_v0.raw_env, players=3))
    assert "a   b   c" in capsys.readouterr().out  # "human" printed the board


def test_pettingzoos_state_checks_pass():
    """PettingZoo's ``state_test`` without its parallel half (this is an AEC environment)."""
    checks = importlib.import_module("pettingzoo.test.state_test")  # the name is also a function's
    aec = sequence_v0.env(players=3)
    run_quietly(checks.test_state_space, aec)
    run_quietly(checks.test_state, aec, num_cycles=50)
    assert aec.unwrapped.state().shape == STATE_SHAPE


def test_the_rgb_array_shows_each_chip_in_its_sides_colour():
    state = new_game(GameConfig(players=3), seed=2)
    state.playout(random.Random(2), max_turns=60)
    image = board_image(state)
    assert image.dtype == np.uint8 and image.shape[2] == 3
    for cell in range(100):
        side = state.chip_at(cell)
        centre = image[
            cell // 10 * CELL_PIXELS + CELL_PIXELS // 4, cell % 10 * CELL_PIXELS + CELL_PIXELS // 2
        ]
        if side is not None:
            assert tuple(centre) == CHIP_RGB[side]
        else:
            assert tuple(centre) not in CHIP_RGB


def test_the_gymnasium_env_renders_rgb_and_passes_the_checker():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(gymnasium.make(ENV_ID, players=2, render_mode="rgb_array").unwrapped)
    assert [str(w.message) for w in caught] == []
    env = SequenceEnv(players=2, render_mode="rgb_array")
    env.reset(seed=1)
    frame = env.render()
    assert isinstance(frame, np.ndarray) and frame.shape == board_image(env.game).shape


def test_info_names_the_legal_actions_of_the_agent_to_act():
    aec = sequence_v0.raw_env(players=2)
    aec.reset(seed=42)
    for _ in range(6):
        obs, _, _, _, info = aec.last()
        legal = np.flatnonzero(obs["action_mask"]).tolist()
        assert list(info["action_names"]) == legal
        view = aec.game.view(info["seat"])
        assert dict(info["action_names"]) == {a: view.action_name(a) for a in legal}  # jacks as held
        other = next(a for a in aec.agents if a != aec.agent_selection)
        assert "action_names" not in aec.infos[other]
        assert aec.infos[other]["turns_left"] == aec.max_turns - aec.game.turn
        aec.step(legal[0])


def test_gymnasium_info_and_state():
    env = SequenceEnv(players=4, seat=1, opponents="greedy")
    obs, info = env.reset(seed=3)
    assert list(info["action_names"]) == np.flatnonzero(obs["action_mask"]).tolist()
    assert info["seat"] == 1 and info["side"] == 1
    state = env.state()
    assert state.shape == STATE_SHAPE
    np.testing.assert_array_equal(state[..., :NUM_PLANES], obs["observation"])  # seat 1 is to act


def test_the_batch_stepper_gives_the_critics_states():
    venv = SequenceVectorEnv(3, players=2, seed=0)
    batch = venv.reset()
    states = venv.state()
    assert states.shape == (3, *STATE_SHAPE)
    np.testing.assert_array_equal(states[..., :NUM_PLANES], batch.obs)


def test_bots_get_a_simulation_budget_by_default():
    assert DEFAULT_BOT_LIMIT.seconds is None and DEFAULT_BOT_LIMIT.simulations
    assert BotSeats(GameConfig(players=2), [0], "mcts").limit == DEFAULT_BOT_LIMIT


def test_a_time_budget_warns_that_seeded_resets_no_longer_replay():
    with pytest.warns(UserWarning, match="no longer replays"):
        SequenceEnv(players=2, opponents="mcts", bot_limit=Limit(seconds=0.01))


def test_a_seeded_reset_replays_the_same_episode_against_the_search_bot():
    """``mcts`` on its own default would think for a second, so its moves would depend on the load
    of the machine; on a budget of simulations two runs agree move for move."""
    small = Limit(simulations=12)

    def first_moves(seed):
        env = SequenceEnv(players=2, seat=1, opponents="mcts", bot_limit=small)
        obs, _ = env.reset(seed=seed)
        seen = [obs["observation"]]
        for _ in range(2):
            obs, *_ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
            seen.append(obs["observation"])
        return seen, env.game.history

    (a, history_a), (b, history_b) = first_moves(5), first_moves(5)
    assert history_a == history_b
    for x, y in zip(a, b, strict=True):
        np.testing.assert_array_equal(x, y)


def test_the_search_bot_under_the_default_budget_repeats_its_move():
    state = new_game(GameConfig(players=2), seed=9)
    view = state.view(state.current_seat)
    moves = {make_bot("mcts", seed=4).select_action(view, Limit(simulations=40)) for _ in range(2)}
    assert len(moves) == 1
    assert encode(state, state.current_seat)[1][moves.pop()] == 1
