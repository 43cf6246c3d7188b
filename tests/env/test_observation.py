"""The observation planes and masks hold exactly what the seat may know, laid out as documented."""

from __future__ import annotations

import random
import subprocess
import sys

import numpy as np
import pytest

from sequence_game import NUM_ACTIONS, GameConfig, new_game
from sequence_game.actions import DEAD, DISCARD, DRAW
from sequence_game.board import CORNERS, LAYOUT
from sequence_game.cards import DECK_SIZE, is_one_eyed, is_two_eyed
from sequence_game.env.observation import (
    HIDDEN_PLANES,
    NUM_PLANES,
    OBS_SHAPE,
    PLANES,
    STATE_SHAPE,
    encode,
    encode_batch,
    encode_state_batch,
    encode_view,
    observation_space,
    state_space,
)
from sequence_game.features.planes import DEFAULT_MAX_TURNS
from sequence_game.worlds import sample_world

from .conftest import ALL_TABLES, positions


def recent_history(state, seat):
    """(latest board cell or None, cells the other seats played since ``seat``'s last turn),
    walking the history forwards."""
    board = [(i, e[0], e[1] % 100) for i, e in enumerate(state.history) if e[0] >= 0 and e[1] < DEAD]
    turns = [
        i for i, e in enumerate(state.history) if e[0] == seat and (e[1] < DEAD or DISCARD <= e[1] < DRAW)
    ]
    since = turns[-1] if turns else -1
    recent = {cell for i, who, cell in board if i > since and who != seat}
    return (board[-1][2] if board else None), recent


def expected_planes(state, seat, max_turns=DEFAULT_MAX_TURNS):
    """The planes computed cell by cell from the engine, the slow obvious way."""
    sides = state.config.sides
    side = seat % sides
    hand = state.hand(seat)
    discards = [c for s in range(state.players) for c in state.discard_pile(s)]
    side_discards = [
        [c for s in range(state.players) if s % sides == (side + k) % sides for c in state.discard_pile(s)]
        for k in range(2)
    ]
    last, recent = recent_history(state, seat)
    counts = state.sequence_counts()
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
        planes[r, c, 12] = cell == last
        planes[r, c, 13] = cell in recent
        for k in range(2):
            planes[r, c, 14 + k] = side_discards[k].count(card) / 2 if card >= 0 else 0
        for k in range(3):
            planes[r, c, 16 + k] = min(counts[(side + k) % sides] / 2, 1) if k < sides else 0
        planes[r, c, 19] = (2 if sides == 2 else 1) / 2  # R7.1
        planes[r, c, 20] = state.players / 12
        planes[r, c, 21] = sides == 3
        planes[r, c, 22] = min(state.turn / max_turns, 1)
        if cell < state.players:
            planes[r, c, 23] = len(state.hand((seat + cell) % state.players)) / state.config.hand_size
    return planes


@pytest.mark.parametrize(("players", "teams"), [(2, None), (3, None), (4, None), (6, 3), (8, None), (12, 2)])
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


def test_the_turn_plane_counts_towards_the_environments_cap():
    state = new_game(GameConfig(players=2), seed=1)
    state.playout(random.Random(1), max_turns=30)
    assert state.turn == 30
    obs, _ = encode(state, 0, max_turns=60)
    np.testing.assert_array_equal(obs, expected_planes(state, 0, max_turns=60))
    assert obs[0, 0, PLANES.index("turn")] == pytest.approx(state.turn / 60)


def test_r5_1_a_dead_card_exchange_does_not_end_the_seats_turn_in_the_history_planes():
    """After exchanging a dead card the seat is still to act: the other seats' moves since its
    previous turn are still recent."""
    for state in positions(2, None, 300, seed=5):
        seat = state.current_seat
        dead = [a for a in state.legal_actions(seat) if DEAD <= a < DISCARD]
        if state.is_terminal() or not dead or state.turn < 4:
            continue
        before, _ = encode(state, seat)
        state.apply(dead[0], seat)
        after, _ = encode(state, seat)
        recent = PLANES.index("recent_moves")
        np.testing.assert_array_equal(after[..., recent], before[..., recent])
        assert after[..., recent].sum() == 1  # the one other seat's last play
        return
    pytest.fail("no position with a dead card found")


@pytest.mark.parametrize(("players", "teams"), [(2, None), (3, None), (6, 2), (12, 3)])
def test_the_critics_state_adds_every_sides_hidden_cards(players, teams):
    states = positions(players, teams, 4, seed=2)
    full = encode_state_batch(states)
    assert full.shape == (4, *STATE_SHAPE)
    for state, planes in zip(states, full, strict=True):
        seat = state.current_seat
        np.testing.assert_array_equal(planes[..., :NUM_PLANES], encode(state, seat)[0])
        sides = state.config.sides
        for k in range(3):
            held = [c for s in range(players) if s % sides == (seat + k) % sides for c in state.hand(s)]
            held = held if k < sides else []
            hidden = planes[..., NUM_PLANES + 3 * k : NUM_PLANES + 3 * k + 3].reshape(100, 3)
            for cell in range(100):
                card = LAYOUT[cell]
                assert hidden[cell, 0] == (held.count(card) / 2 if card >= 0 else 0)
            assert hidden[0, 1] == sum(map(is_two_eyed, held)) / 4
            assert hidden[0, 2] == sum(map(is_one_eyed, held)) / 4
        assert state_space().contains(planes)
    assert len(HIDDEN_PLANES) == STATE_SHAPE[2] - NUM_PLANES


def test_r3_4_a_side_ending_with_three_sequences_stays_in_the_space():
    """One chip can complete two sequences (R3.4), so a side may end a two-sequence game with
    three; the plane caps at 1, inside the observation space."""
    rng = random.Random(0)
    for i in range(200):
        state = new_game(GameConfig(players=4), seed=i)
        state.playout(rng, max_turns=2000)
        if max(state.sequence_counts()) > 2:
            obs, mask = encode(state, 0)
            assert observation_space().contains({"observation": obs, "action_mask": mask})
            np.testing.assert_array_equal(obs, expected_planes(state, 0))
            return
    pytest.fail("no game ended with three sequences in 200")
