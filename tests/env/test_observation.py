"""The observation planes and masks hold exactly what the seat may know, laid out as documented."""

from __future__ import annotations

import random
import subprocess
import sys

import numpy as np
import pytest

from sequence_game import NUM_ACTIONS, GameConfig, new_game
from sequence_game.board import CORNERS, LAYOUT
from sequence_game.cards import DECK_SIZE, is_one_eyed, is_two_eyed
from sequence_game.env.observation import (
    NUM_PLANES,
    OBS_SHAPE,
    PLANES,
    encode,
    encode_batch,
    encode_view,
    observation_space,
)
from sequence_game.worlds import sample_world

from .conftest import ALL_TABLES, positions


def expected_planes(state, seat):
    """The planes computed cell by cell from the engine, the slow obvious way."""
    sides = state.config.sides
    side = seat % sides
    hand = state.hand(seat)
    discards = [c for s in range(state.players) for c in state.discard_pile(s)]
    planes = np.zeros(OBS_SHAPE, dtype=np.float32)
    for cell in range(100):
        r, c = divmod(cell, 10)
        for k in range(min(sides, 3)):
            planes[r, c, k] = state.chip_at(cell) == (side + k) % sides
        planes[r, c, 3] = state.locked >> cell & 1
        planes[r, c, 4] = CORNERS >> cell & 1
        card = LAYOUT[cell]
        planes[r, c, 5] = hand.count(card) / 2 if card >= 0 else 0
        planes[r, c, 6] = sum(map(is_two_eyed, hand)) / 4
        planes[r, c, 7] = sum(map(is_one_eyed, hand)) / 4
        planes[r, c, 8] = discards.count(card) / 2 if card >= 0 else 0
        planes[r, c, 9] = sum(map(is_two_eyed, discards)) / 4
        planes[r, c, 10] = sum(map(is_one_eyed, discards)) / 4
        planes[r, c, 11] = state.deck_size / DECK_SIZE
    return planes


@pytest.mark.parametrize(("players", "teams"), [(2, None), (3, None), (4, None), (6, 3), (12, 2)])
def test_planes_match_the_engine_cell_by_cell(players, teams):
    for state in positions(players, teams, 6, seed=players):
        for seat in range(players):
            obs, mask = encode(state, seat)
            assert obs.shape == OBS_SHAPE and obs.dtype == np.float32
            np.testing.assert_array_equal(obs, expected_planes(state, seat))
            assert mask.dtype == np.int8
            assert mask.tolist() == [int(b) for b in state.legal_action_mask(seat)]


def test_r2_3_chip_planes_start_from_the_observers_side_in_turn_order():
    state = new_game(GameConfig(players=3), seed=4)
    state.playout(random.Random(4), max_turns=30)
    for seat in range(3):
        obs, _ = encode(state, seat)
        for k in range(3):
            chips = state.chips((seat + k) % 3)
            assert obs[..., k].reshape(100).tolist() == [chips >> c & 1 for c in range(100)]


def test_two_sides_leave_the_third_chip_plane_empty():
    for state in positions(4, None, 4):
        assert not encode(state, 1)[0][..., 2].any()


@pytest.mark.parametrize(("players", "teams"), ALL_TABLES)
def test_the_view_gives_the_same_planes_as_the_state(players, teams):
    for state in positions(players, teams, 3, seed=7):
        for seat in range(players):
            obs, mask = encode(state, seat)
            view_obs, view_mask = encode_view(state.view(seat))
            np.testing.assert_array_equal(obs, view_obs)
            np.testing.assert_array_equal(mask, view_mask)


@pytest.mark.parametrize(("players", "teams"), [(2, None), (4, None), (9, None)])
def test_hidden_cards_do_not_change_the_observation(players, teams):
    """Any world consistent with a seat's view (other hands, deck order) encodes identically."""
    rng = random.Random(3)
    for state in positions(players, teams, 4, seed=11):
        if state.is_terminal():
            continue
        seat = state.current_seat
        world = sample_world(state.view(seat), rng)
        np.testing.assert_array_equal(encode(world, seat)[0], encode(state, seat)[0])


def test_a_batch_equals_the_games_encoded_one_by_one():
    states = positions(2, None, 5) + positions(3, None, 5) + positions(6, 2, 5)
    seats = [i % s.players for i, s in enumerate(states)]
    obs, masks = encode_batch(states, seats)
    assert obs.shape == (15, *OBS_SHAPE) and masks.shape == (15, NUM_ACTIONS)
    for i, (state, seat) in enumerate(zip(states, seats, strict=True)):
        one_obs, one_mask = encode(state, seat)
        np.testing.assert_array_equal(obs[i], one_obs)
        np.testing.assert_array_equal(masks[i], one_mask)


def test_observations_lie_in_the_declared_space():
    space = observation_space()
    for state in positions(2, None, 10) + positions(12, 3, 5):
        obs, mask = encode(state, 0)
        assert space.contains({"observation": obs, "action_mask": mask})


def test_plane_names_match_the_shape():
    assert len(PLANES) == NUM_PLANES == OBS_SHAPE[2]


def test_mismatched_batch_is_refused():
    with pytest.raises(ValueError, match="2 states but 1 seats"):
        encode_batch(positions(2, None, 2), [0])


def test_the_engine_does_not_load_the_environment_or_numpy():
    """The env is a leaf adapter: importing the engine and bots must not pull it in."""
    code = (
        "import sys, sequence_game, sequence_game.bots, sequence_game.records\n"
        "print(sorted(m for m in ('numpy', 'gymnasium', 'pettingzoo', 'sequence_game.env') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
