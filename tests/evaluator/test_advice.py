"""Chances of plays and hints on the evaluator: from the view alone, the win first, and a reason
that is true of the board."""

from __future__ import annotations

import random

import pytest

from sequence_game import GameConfig, GameState, new_game
from sequence_game.evaluator.advice import REASONS, advise, advise_state
from sequence_game.evaluator.model import Evaluator
from sequence_game.evaluator.moves import play_chances, view_play_chances
from sequence_game.features.position import threat_cells, view_parts


def midgame(config: GameConfig, seed: int, turns: int) -> GameState:
    rng = random.Random(seed)
    state = new_game(config, seed=seed)
    for _ in range(turns):
        if state.is_terminal():
            break
        state.apply(state.random_action(rng))
    return state


@pytest.mark.parametrize("config", [GameConfig(players=2), GameConfig(players=3)], ids=["2p", "3p"])
def test_the_chances_of_plays_come_from_the_view_alone(config: GameConfig) -> None:
    """The true state and a world dealt from the mover's view give the same chances."""
    judge = Evaluator.load()
    for seed in range(4):
        state = midgame(config, seed, 12 + 5 * seed)
        if state.is_terminal():
            continue
        seat = state.current_seat
        truth = play_chances(judge, state, seat)
        dealt = view_play_chances(judge, state.view(seat), random.Random(seed))
        assert truth.keys() == set(state.legal_actions()) == dealt.keys()
        assert all(abs(truth[a] - dealt[a]) < 1e-6 for a in truth)


def test_sampled_draws_approximate_the_exact_average() -> None:
    judge = Evaluator.load()
    state = midgame(GameConfig(players=2), 11, 20)
    exact = play_chances(judge, state, state.current_seat)
    sampled = play_chances(judge, state, state.current_seat, draws=24, rng=random.Random(1))
    assert max(abs(exact[a] - sampled[a]) for a in exact) < 0.1


def test_a_hint_takes_a_win_and_says_so() -> None:
    seen = 0
    for seed in range(60):
        rng = random.Random(seed)
        state = new_game(GameConfig(players=2), seed=seed)
        while not state.is_terminal():
            seat = state.current_seat
            side = seat % 2
            winning = []
            for a in state.legal_actions():
                trial = state.copy()
                trial.apply(a)
                outcome = trial.outcome()
                if outcome is not None and outcome.winner == side:
                    winning.append(a)
            if winning:
                advice = advise(state.view(seat), rng)
                assert advice.action in winning and advice.reason == "wins" and advice.chance == 1.0
                seen += 1
                break
            state.apply(state.random_action(rng))
        if seen >= 5:
            break
    assert seen >= 5


def test_a_hints_reason_is_true_of_the_board() -> None:
    judge = Evaluator.load()
    reasons = set()
    for seed in range(30):
        state = midgame(GameConfig(players=2), 100 + seed, 20 + seed)
        if state.is_terminal():
            continue
        seat = state.current_seat
        advice = advise_state(state, seat, judge)
        assert advice.reason in REASONS and advice.action in state.legal_actions()
        assert len(advice.alternatives) <= 3
        assert all(advice.chance >= p - 1e-9 for _, p in advice.alternatives) or advice.reason == "wins"
        before = view_parts(state.view(seat))
        after_state = state.copy()
        after_state.apply(advice.action)
        after = view_parts(after_state.view(seat))
        if advice.reason == "blocks":
            k = (advice.side - seat % 2) % 2
            assert set(advice.cells) <= threat_cells(before, k) and not set(advice.cells) & threat_cells(
                after, k
            )
        if advice.reason == "threatens":
            assert set(advice.cells) <= threat_cells(after, 0) - threat_cells(before, 0)
        reasons.add(advice.reason)
    assert len(reasons) >= 2


def test_the_search_bot_can_rank_its_plays_by_the_evaluator() -> None:
    pytest.importorskip("numba")
    from sequence_game.bots import Limit, make_bot

    bot = make_bot("pimc(judge=4, width=3)", seed=1)
    for seed in range(3):
        state = midgame(GameConfig(players=2), 200 + seed, 16)
        if state.is_terminal():
            continue
        view = state.view(state.current_seat)
        assert bot.select_action(view, Limit(simulations=30)) in state.legal_actions()
    with pytest.raises(ValueError, match="judge"):
        make_bot("pimc(judge=-1)")
