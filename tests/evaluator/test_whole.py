"""The whole-position judge (sequence_game.evaluator.whole): it reads the other hand, its two
seats' chances sum to one, a draw's luck averages to zero over the pile, and its training rows
are both seats' views of the same moments."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from sequence_game import GameConfig, new_game
from sequence_game.board import LAYOUT, parse_cell
from sequence_game.cards import is_jack, parse_card
from sequence_game.evaluator.model import Evaluator
from sequence_game.evaluator.whole import WholeJudge, whole_positions
from sequence_game.features.position import FEATURE_NAMES, NUM_FEATURES
from sequence_game.testing import position

TWO = GameConfig(players=2)


def test_the_shipped_judge_says_what_it_reads() -> None:
    judge = WholeJudge.load()
    meta = judge.network.meta
    assert judge.version and meta["features"][: len(FEATURE_NAMES)] == [f"mine_{n}" for n in FEATURE_NAMES]
    assert len(meta["features"]) == 2 * NUM_FEATURES and meta["data"]["games"] >= 10_000
    # both hands tell more than one: its held-out log loss is below the one-view evaluator's
    assert meta["validation"]["log_loss"] < meta["validation"]["one_view_log_loss"]


def test_it_sees_the_other_hand_where_a_player_cannot() -> None:
    """Seat 1 has four in a row and seat 0 cannot block: with a two-eyed jack in seat 1's hand
    (it wins next turn, R5.2) seat 0's chance is lower than without; seat 0's own view, all the
    one-view evaluator reads, is the same in both."""
    window = ["b3", "c3", "d3", "e3", "f3"]
    near = {LAYOUT[parse_cell(c)] for c in window}
    spare = [c for c in sorted(set(LAYOUT)) if c >= 0 and c not in near and not is_jack(c)]
    mine, filler = spare[:7], spare[7:14]
    judge, one = WholeJudge.load(), Evaluator.load()
    chances, views = [], []
    for theirs in ([parse_card("jd"), *filler[:6]], filler):
        state = position(TWO, {1: window[:4]}, {0: mine, 1: theirs}, seat=0)
        chances.append(judge.deal(state, 0))
        views.append(one.chance(state.view(0)))
    assert chances[0] < chances[1] - 0.05, chances
    assert views[0] == views[1]


def test_the_two_seats_chances_sum_to_one() -> None:
    judge = WholeJudge.load()
    rng = random.Random(4)
    state = new_game(TWO, seed=9)
    for _ in range(30):
        assert judge.deal(state, 0) + judge.deal(state, 1) == pytest.approx(1.0, abs=1e-9)
        state.apply(state.random_action(rng))


def test_a_draws_luck_averages_to_zero_over_the_pile() -> None:
    """Each card of the pile drawn in turn (the same play before it): the luck of the draws,
    weighted by the card's copies in the pile, sums to zero, as the luck of a random draw must."""
    judge = WholeJudge.load()
    rng = random.Random(1)
    state = new_game(TWO, seed=3)
    for _ in range(8):
        state.apply(state.random_action(rng))
    seat = state.current_seat
    action = next(a for a in state.legal_actions() if a < 100)
    pile = list(state._deck)
    copies = Counter(pile)
    total = 0.0
    for card, n in copies.items():
        drawn = state.copy()
        drawn._deck.remove(card)
        drawn._deck.append(card)  # drawn from the end of the pile (R5.3)
        drawn.apply(action, seat)
        total += n * judge.draw_luck(drawn, seat, card, pile)
    assert total / len(pile) == pytest.approx(0.0, abs=1e-9)
    with pytest.raises(ValueError, match="not in the pile"):
        judge.draw_luck(drawn, seat, card, [c for c in pile if c != card])


def test_it_refuses_other_tables() -> None:
    with pytest.raises(ValueError, match="2-player"):
        WholeJudge.load().deal(new_game(GameConfig(players=3), seed=1), 0)


def test_its_rows_are_both_seats_at_the_same_moments() -> None:
    rows = whole_positions(range(2))
    half = len(rows.y) // 2
    assert rows.x.shape == (2 * half, 2 * NUM_FEATURES)
    # each row once each way: the two halves swapped, the result seen from the other seat
    assert np.array_equal(rows.x[half:, :NUM_FEATURES], rows.x[:half, NUM_FEATURES:])
    assert np.array_equal(rows.x[half:, NUM_FEATURES:], rows.x[:half, :NUM_FEATURES])
    assert np.array_equal(rows.y[half:], 1.0 - rows.y[:half])
    assert set(np.unique(rows.game)) == {0, 1}
