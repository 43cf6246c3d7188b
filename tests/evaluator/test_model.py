"""The evaluator (sequence_game.evaluator): the shipped weights judge real positions sensibly,
its training recovers what it is shown, and its self-play data is what it claims to be."""

from __future__ import annotations

import random

import numpy as np
import pytest

from sequence_game import GameConfig, new_game
from sequence_game.evaluator.model import ASSUMES, Evaluator, Network
from sequence_game.evaluator.training import fit, log_loss, platt, reliability
from sequence_game.features.position import FEATURE_NAMES, NUM_FEATURES, view_features

COL = {name: i for i, name in enumerate(FEATURE_NAMES)}


def test_the_shipped_weights_load_and_say_what_they_assume() -> None:
    judge = Evaluator.load()
    assert judge.assumes == ASSUMES and judge.version != "unversioned"
    assert judge.network.meta["features"] == list(FEATURE_NAMES)
    assert judge.network.meta["data"]["games"] >= 10_000


def test_chances_are_batched_deterministic_and_relative_to_the_seat() -> None:
    judge = Evaluator.load()
    rng = random.Random(2)
    state = new_game(GameConfig(players=2), seed=5)
    for _ in range(20):
        state.apply(state.random_action(rng))
    views = [state.view(0), state.view(1)]
    both = judge.chances(views)
    assert both.shape == (2,) and ((both > 0) & (both < 1)).all()
    assert [judge.chance(v) for v in views] == pytest.approx(both.tolist(), abs=1e-6)
    assert np.array_equal(both, judge.chances(views))


def test_a_seat_that_can_win_now_on_its_turn_is_nearly_sure_to() -> None:
    judge = Evaluator.load()
    rng = random.Random(3)
    found = 0
    for g in range(40):
        state = new_game(GameConfig(players=2), seed=100 + g)
        while not state.is_terminal():
            view = state.view(state.current_seat)
            x = view_features([view])[0]
            if x[COL["own_win_now"]]:
                assert judge.chance(view) > 0.85
                found += 1
            state.apply(state.random_action(rng))
    assert found > 5


def test_training_recovers_a_known_logistic_model_and_platt_its_scale() -> None:
    rng = np.random.default_rng(0)
    x = rng.standard_normal((20_000, NUM_FEATURES)).astype(np.float32)
    true = 1.5 * x[:, 0] - x[:, 1]
    y = (rng.random(len(x)) < 1 / (1 + np.exp(-true))).astype(np.float32)
    net = fit(x, y, hidden=(16,), epochs=12, batch=256, seed=1)
    p = net.predict(x)
    best = 1 / (1 + np.exp(-true))
    assert log_loss(p, y) < log_loss(np.full_like(y, y.mean()), y) - 0.1
    assert log_loss(p, y) < log_loss(best, y) + 0.02
    a, b = platt(2.0 * true, y)  # logits twice too large: halved back
    assert a == pytest.approx(0.5, abs=0.05) and b == pytest.approx(0.0, abs=0.05)


def test_a_calibrated_predictor_has_a_small_ece_and_a_biased_one_not() -> None:
    rng = np.random.default_rng(1)
    p = rng.random(50_000)
    y = (rng.random(len(p)) < p).astype(np.float64)
    games = np.arange(len(p)) // 10
    good = reliability(p, y, games)
    bad = reliability(np.clip(p + 0.1, 0, 1), y, games)
    assert good.ece < 0.01 < 0.05 < bad.ece
    assert all(b["actual_low"] <= b["actual"] <= b["actual_high"] for b in good.bins)


def test_a_network_survives_saving(tmp_path: object) -> None:
    judge = Evaluator.load()
    path = f"{tmp_path}/w.npz"
    judge.network.save(path)
    again = Network.load(path)
    x = np.random.default_rng(2).random((5, NUM_FEATURES)).astype(np.float32)
    assert np.allclose(again.predict(x), judge.network.predict(x))
    assert again.meta == judge.network.meta


def test_self_play_keeps_two_views_a_turn_labelled_with_the_result() -> None:
    pytest.importorskip("numba")
    from sequence_game.evaluator.selfplay import generate

    pos = generate(range(3), tables=[(GameConfig(players=2), 1.0)])
    assert set(np.unique(pos.y)) <= {0.0, 0.5, 1.0}
    assert pos.x.shape == (len(pos), NUM_FEATURES) and np.isfinite(pos.x).all()
    movers = np.flatnonzero(pos.mover)
    assert len(movers) * 2 == len(pos) and (~pos.mover[movers + 1]).all()
    # the two views of one moment are of the two sides: one won, one lost (or both drew)
    assert np.all(pos.y[movers] + pos.y[movers + 1] == 1.0)
    assert (pos.turn <= pos.length).all()
