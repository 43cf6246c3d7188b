"""The position features (sequence_game.features.position): only what the seat may know, from
its side's point of view, and the few that must be exact (a win in one, a threat let pass)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from sequence_game import GameConfig, GameState, new_game
from sequence_game.board import LINES
from sequence_game.features.position import (
    FEATURE_NAMES,
    NUM_FEATURES,
    features,
    unseen_cards,
    view_features,
    view_parts,
    with_hand,
)
from sequence_game.worlds import sample_world

ALL = (1 << len(LINES)) - 1
COL = {name: i for i, name in enumerate(FEATURE_NAMES)}
TABLES = [
    GameConfig(players=2),
    GameConfig(players=3),
    GameConfig(players=4, teams=2),
    GameConfig(players=6, teams=3),
]


def positions(config: GameConfig, games: int, seed: int) -> list[GameState]:
    """Positions of random games, every few turns."""
    rng = random.Random(seed)
    out = []
    for g in range(games):
        state = new_game(config, seed=seed * 1000 + g)
        while not state.is_terminal():
            if state.turn % 5 == 2:
                out.append(state.copy())
            state.apply(state.random_action(rng))
    return out


@pytest.mark.parametrize("config", TABLES, ids=lambda c: f"{c.players}p{c.sides}s")
def test_the_features_hold_nothing_the_seat_cannot_see(config: GameConfig) -> None:
    """Deal the hidden cards again, consistently with a seat's view: its features do not move."""
    rng = random.Random(7)
    for state in positions(config, 3, 1)[:30]:
        seat = rng.randrange(config.players)
        view = state.view(seat)
        other = sample_world(view, rng)
        assert np.array_equal(view_features([view]), view_features([other.view(seat)]))


def test_sides_are_relative_to_the_seat() -> None:
    for state in positions(GameConfig(players=2), 2, 2)[:20]:
        a, b = view_features([state.view(0), state.view(1)])
        for name in ("sequences", "open_1", "open_2", "open_3", "open_4", "threat_cells", "chips"):
            assert a[COL[f"own_{name}"]] == b[COL[f"next_{name}"]]
            assert a[COL[f"next_{name}"]] == b[COL[f"own_{name}"]]
        assert a[COL["own_to_move"]] + b[COL["own_to_move"]] == 1.0
        assert not a[COL["third_chips"]] and not a[COL["third_open_1"]]


def wins_now(state: GameState) -> bool:
    side = state.current_seat % state.config.sides
    for action in state.legal_actions():
        trial = state.copy()
        trial.apply(action)
        outcome = trial.outcome()
        if outcome is not None and outcome.winner == side:
            return True
    return False


@pytest.mark.parametrize("config", TABLES[:3], ids=lambda c: f"{c.players}p{c.sides}s")
def test_a_win_in_one_is_seen_exactly_when_the_seat_has_one(config: GameConfig) -> None:
    seen = 0
    for state in positions(config, 25, 3):
        if state.is_terminal():
            continue
        x = view_features([state.view(state.current_seat)])[0]
        assert bool(x[COL["own_win_now"]]) == wins_now(state), state.turn
        seen += int(x[COL["own_win_now"]])
    assert seen > 0  # the check met some wins in one


def test_the_windows_a_side_let_pass_are_those_untouched_since_it_acted() -> None:
    """Right after a side places a chip, every window but those through that cell has stayed
    as it was on its turn: a threat there is one it let pass (it held no card for it)."""
    rng = random.Random(4)
    checked = 0
    for state in positions(GameConfig(players=2), 10, 4):
        seat = state.current_seat
        action = next((a for a in state.legal_actions() if a < 200), None)
        if action is None:
            continue
        state.apply(action, seat)
        if state.is_terminal():
            continue
        watcher = view_parts(state.view(1 - seat))  # the mover's side is "next" from here
        through = sum(1 << w for w, line in enumerate(LINES) if line >> (action % 100) & 1)
        assert watcher.stale[1] == ALL & ~through
        assert view_parts(state.view(seat)).stale[0] == ALL & ~through
        checked += 1
        rng.random()
    assert checked > 20


def test_with_hand_gives_back_the_view_with_its_own_hand_and_counts_unseen_cards() -> None:
    for state in positions(GameConfig(players=3), 2, 5)[:10]:
        view = state.view(1)
        parts = view_parts(view)
        assert with_hand(parts, view.hand) == parts
        unseen = unseen_cards(parts)
        assert all(0 <= u <= 2 for u in unseen)
        assert sum(unseen) == 104 - len(view.hand) - sum(len(p) for p in view.discards)


def test_the_batch_is_the_rows_one_by_one() -> None:
    views = [s.view(s.current_seat) for s in positions(GameConfig(players=4, teams=2), 2, 6)[:12]]
    batch = features([view_parts(v) for v in views])
    assert batch.shape == (len(views), NUM_FEATURES) and batch.dtype == np.float32
    for i, view in enumerate(views):
        assert np.array_equal(batch[i], view_features([view])[0])
    assert np.isfinite(batch).all()
