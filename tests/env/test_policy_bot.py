"""The trained policy as a bot: its numpy network is the example's PyTorch one, its line planes
count what they say, and it plays legal moves at every table."""

from __future__ import annotations

import random
import runpy
from pathlib import Path

import numpy as np
import pytest

from sequence_game import GameConfig, new_game
from sequence_game.board import CORNERS, WINDOW_CELLS
from sequence_game.bots.policy import (
    CELL_ACTIONS,
    INPUT_PLANES,
    LINE_PLANES,
    MASK_PLANES,
    POLICY_WEIGHTS,
    WITHOUT_MASK_PLANES,
    PolicyBot,
    PolicyNetwork,
    line_features,
    policy_input,
)
from sequence_game.env.observation import encode, encode_batch

from .conftest import positions

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_masked_policy.py"


def expected_line_planes(state, seat):
    """Per cell and level k, the windows through it open to a side holding k of its cells (R3.4:
    a corner counts for every side), counted window by window."""
    sides = state.config.sides
    own = state.chips(seat % sides)
    others = 0
    for s in range(sides):
        if s != seat % sides:
            others |= state.chips(s)
    out = np.zeros((100, 10), dtype=np.float32)
    for cells in WINDOW_CELLS:
        for who, (mine, theirs) in enumerate(((own, others), (others, own))):
            if any(theirs >> c & 1 for c in cells):
                continue
            held = sum(1 for c in cells if (mine | CORNERS) >> c & 1)
            if held < 5:
                for c in cells:
                    out[c, who * 5 + held] += 0.25
    return out.reshape(10, 10, 10)


@pytest.mark.parametrize(("players", "teams"), [(2, None), (3, None), (6, 2)])
def test_line_planes_count_the_open_windows(players, teams):
    for state in positions(players, teams, 4, seed=3):
        seat = state.current_seat
        obs, _ = encode(state, seat)
        np.testing.assert_allclose(line_features(obs[None])[0], expected_line_planes(state, seat))
    assert len(LINE_PLANES) == 10


def test_the_shipped_policy_plays_legal_moves_at_every_table():
    bot = PolicyBot()
    rng = random.Random(0)
    for players, teams in [(2, None), (3, None), (4, None), (6, 3)]:
        state = new_game(GameConfig(players=players, teams=teams), seed=players)
        while not state.is_terminal() and state.turn < 60:
            seat = state.current_seat
            action = bot.select_action(state.view(seat)) if seat == 0 else state.random_action(rng)
            state.apply(action, seat)


def test_the_policy_refuses_to_act_out_of_turn():
    state = new_game(GameConfig(players=2), seed=1)
    with pytest.raises(ValueError, match=r"R4\.3"):
        PolicyBot().select_action(state.view(1 - state.current_seat))


def test_weights_for_another_input_are_refused():
    weights = dict(np.load(POLICY_WEIGHTS))
    weights["trunk.0.weight"] = weights["trunk.0.weight"][:, :5]
    with pytest.raises(ValueError, match="input planes"):
        PolicyNetwork(weights)
    with pytest.raises(ValueError, match="lack"):
        PolicyNetwork({})


def test_the_numpy_network_equals_the_examples_torch_network(tmp_path):
    torch = pytest.importorskip("torch", reason="the rl extra (torch==2.13.0) is not installed")
    example = runpy.run_path(str(EXAMPLE))
    torch.manual_seed(0)
    policy = example["MaskedPolicy"](8, 2)  # any depth: the numpy network counts the layers
    path = tmp_path / "w.npz"
    example["save_npz"](policy, str(path))
    states = positions(2, None, 6, seed=9) + positions(4, None, 3, seed=9)
    states = [s for s in states if not s.is_terminal()]
    obs, mask = encode_batch(states, [s.current_seat for s in states])
    with torch.no_grad():
        x = torch.from_numpy(example["policy_input"](obs, mask))
        expected, _ = policy(x, torch.from_numpy(mask))
    got = PolicyNetwork.load(path).logits(obs, mask)
    np.testing.assert_allclose(got, expected.numpy(), rtol=1e-4, atol=1e-4)
    assert example["policy_input"](obs, mask).shape[3] == INPUT_PLANES


def test_the_mask_planes_are_the_cell_actions_of_the_mask():
    states = [s for s in positions(2, None, 5, seed=2) + positions(6, 2, 3, seed=2) if not s.is_terminal()]
    obs, mask = encode_batch(states, [s.current_seat for s in states])
    planes = policy_input(obs, mask)[..., -len(MASK_PLANES) :].reshape(len(states), 100, 3)
    for i in range(len(states)):
        for kind in range(3):  # place, two-eyed jack, one-eyed jack (R5.2): ids kind * 100 + cell
            np.testing.assert_array_equal(planes[i, :, kind], mask[i, kind * 100 : (kind + 1) * 100])
    assert planes.shape[0] * 300 == mask[:, :CELL_ACTIONS].size
    np.testing.assert_array_equal(
        policy_input(obs)[..., :WITHOUT_MASK_PLANES], policy_input(obs, mask)[..., :-3]
    )


def test_weights_without_the_mask_planes_still_play():
    """Weights trained before the mask planes (34 input planes) load and play legal moves."""
    rng = np.random.default_rng(0)
    channels = 4
    weights = {
        "trunk.0.weight": rng.normal(size=(channels, WITHOUT_MASK_PLANES, 3, 3)),
        "trunk.0.bias": rng.normal(size=channels),
        "cell_head.weight": rng.normal(size=(3, channels, 1, 1)),
        "cell_head.bias": rng.normal(size=3),
        "card_head.weight": rng.normal(size=(105, channels)),
        "card_head.bias": rng.normal(size=105),
    }
    network = PolicyNetwork(weights)
    assert not network.mask_planes and network.layers == 1
    states = [s for s in positions(2, None, 4, seed=5) if not s.is_terminal()]
    obs, mask = encode_batch(states, [s.current_seat for s in states])
    chosen = network.logits(obs, mask).argmax(axis=1)
    assert all(mask[i, a] == 1 for i, a in enumerate(chosen))
    assert PolicyNetwork.load().mask_planes in (True, False)


def test_dagger_runs_and_labels_the_networks_own_games(tmp_path):
    """The DAgger phase of the example in its reduced form: rounds of the network's own games,
    the teacher's labels stored, weights saved that the numpy bot plays."""
    pytest.importorskip("torch", reason="the rl extra (torch==2.13.0) is not installed")
    main = runpy.run_path(str(EXAMPLE))["main"]
    save = tmp_path / "p.npz"
    summary = main(
        ["--smoke", "--dagger-minutes", "0.01", "--minutes", "0", "--layers", "2", "--save", str(save)]
    )
    assert summary["dagger"]["rounds"] >= 1 and summary["dagger"]["positions"] > 0
    assert 0.0 <= summary["dagger"]["agreement"] <= 1.0
    state = new_game(GameConfig(players=2), seed=3)
    assert PolicyBot(weights=save).select_action(state.view(state.current_seat)) in state.legal_actions()
