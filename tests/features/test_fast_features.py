"""The fast features (``features.position``: the board's part once a view, the hand's once a row)
give the very vectors, bit for bit, of the straightforward code they replaced (``reference.py``,
kept verbatim): every table, jacks, dead cards, sequences, finished games and reshuffled piles,
and every card a play might draw, as the post-game analysis builds its rows."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sequence_game import GameConfig, GameState, new_game
from sequence_game.cards import NUM_CARDS, ONE_EYED, TWO_EYED
from sequence_game.config import TEAM_OPTIONS
from sequence_game.evaluator.moves import position_marks, seat_parts
from sequence_game.features.position import (
    NUM_FEATURES,
    ViewParts,
    draw_features,
    features,
    unseen_cards,
    view_parts,
    with_hand,
)

from .reference import reference_features, reference_view_parts

CONFIGS = [
    GameConfig(players=p, teams=t, draw=d)
    for p, options in TEAM_OPTIONS.items()
    for t in options
    for d in ("auto", "manual")
]
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_state(config: GameConfig, seed: int, turns: int) -> GameState:
    """A state some random actions into a game (random play spends jacks and leaves dead cards)."""
    rng = random.Random(seed)
    state = new_game(config, rng=rng)
    for _ in range(turns):
        if state.is_terminal():
            break
        seats = state.seats_to_act()
        seat = seats[rng.randrange(len(seats))]
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    return state


def hand_list(parts: ViewParts) -> list[int]:
    return [c for c in range(NUM_CARDS) for _ in range(parts.hand[c])]


def straightforward(parts: list[ViewParts], index: list[int], cards: list[int]) -> np.ndarray:
    """The rows as the analysis first built them: one full view per row, then the old features."""
    rows = [
        parts[i] if c < 0 else with_hand(parts[i], [*hand_list(parts[i]), c])
        for i, c in zip(index, cards, strict=True)
    ]
    return reference_features(rows)


@SETTINGS
@given(st.sampled_from(CONFIGS), st.integers(0, 2**32 - 1), st.integers(0, 400))
def test_every_views_features_are_the_straightforward_ones(config: GameConfig, seed: int, turns: int) -> None:
    state = random_state(config, seed, turns)
    views = [state.view(seat) for seat in range(config.players)]
    parts = [view_parts(v) for v in views]
    assert parts == [reference_view_parts(v) for v in views]
    x = features(parts)
    assert x.shape == (len(parts), NUM_FEATURES) and x.dtype == np.float32
    assert np.array_equal(x, reference_features(parts))


@SETTINGS
@given(st.sampled_from(CONFIGS), st.integers(0, 2**32 - 1), st.integers(0, 400))
def test_the_parts_after_each_play_read_from_the_state_are_the_views(
    config: GameConfig, seed: int, turns: int
) -> None:
    """``evaluator.moves`` reads the mover's parts after every play straight from the state, its
    history's reading carried on from the position's: the parts of the full view, read as first
    written (every seat's, too, as the analysis reads them after the move)."""
    state = random_state(config, seed, turns)
    if state.is_terminal():
        assert all(seat_parts(state, s) == reference_view_parts(state.view(s)) for s in range(config.players))
        return
    marks = position_marks(state)
    for seat in state.seats_to_act():
        for action in state.legal_actions(seat):
            world = state.copy()
            world.apply(action, seat)
            assert seat_parts(world, seat, marks) == reference_view_parts(world.view(seat))
            assert view_parts(world.view(seat), marks) == reference_view_parts(world.view(seat))
        for other in range(config.players):
            assert seat_parts(world, other) == reference_view_parts(world.view(other))


@SETTINGS
@given(
    st.sampled_from(CONFIGS),
    st.integers(0, 2**32 - 1),
    st.integers(0, 400),
    st.lists(st.tuples(st.integers(0, 11), st.integers(0, 7), st.integers(-1, NUM_CARDS - 1)), max_size=40),
)
def test_rows_with_a_drawn_card_are_the_straightforward_ones(
    config: GameConfig, seed: int, turns: int, rows: list[tuple[int, int, int]]
) -> None:
    """Any view with any few cards taken out of its hand, plus any card (even one already seen
    twice) or none: the same row as a full view with that hand."""
    state = random_state(config, seed, turns)
    parts = []
    for seat in range(config.players):
        p = view_parts(state.view(seat))
        parts += [p, with_hand(p, hand_list(p)[1:]), with_hand(p, hand_list(p)[2:])]
    index = [i % len(parts) for i, _, _ in rows]
    cards = [c for _, _, c in rows]
    assert np.array_equal(draw_features(parts, index, cards), straightforward(parts, index, cards))


def test_the_analysis_rows_of_many_positions_are_the_straightforward_ones() -> None:
    """Every table, positions every few turns of random games, every seat's hand less one card,
    plus every card it has not seen (the post-game analysis' rows), in one batch; the sweep meets
    jacks, dead cards, sequences, finished games and reshuffled piles."""
    met = {"two-eyed": 0, "one-eyed": 0, "dead": 0, "sequence": 0, "over": 0, "reshuffled": 0}
    for g, config in enumerate(CONFIGS):
        parts: list[ViewParts] = []
        kept: list[ViewParts] = []
        rng = random.Random(g)
        state = new_game(config, rng=rng)
        while True:
            if state.turn % 7 == 3 or state.is_terminal():
                for seat in range(config.players):
                    view = state.view(seat)
                    parts.append(view_parts(view))
                    met["two-eyed"] += any(c in TWO_EYED for c in view.hand)
                    met["one-eyed"] += any(c in ONE_EYED for c in view.hand)
                    met["dead"] += parts[-1].dead > 0
                    met["sequence"] += any(view.sequence_windows)
                    met["over"] += view.is_over
                    met["reshuffled"] += view.reshuffles > 0
                mover = parts[-1 - state.turn % config.players]  # a seat a position: its hand less one
                kept.append(with_hand(mover, hand_list(mover)[1:]))
            if state.is_terminal():
                break
            seats = state.seats_to_act()
            seat = seats[rng.randrange(len(seats))]
            state.apply(rng.choice(state.legal_actions(seat)), seat)
        index, cards = [], []
        for i, k in enumerate(kept):
            drawable = [c for c, n in enumerate(unseen_cards(k)) if n > 0]
            index += [i] * (len(drawable) + 1)
            cards += [*drawable, -1]
        assert np.array_equal(features(parts), reference_features(parts))
        assert np.array_equal(draw_features(kept, index, cards), straightforward(kept, index, cards))
    assert all(n > 0 for n in met.values()), met
