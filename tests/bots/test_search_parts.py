"""The parts the searches of issue 14 are built from: the heuristic's incremental threat count,
the oracle planner's budget-dependent width, the heuristic-led rollouts of ``mcts(lead=...)``."""

from __future__ import annotations

import random

import pytest

from sequence_game import GameConfig
from sequence_game.actions import DEAD
from sequence_game.bots import Limit, MCTSBot, PlannerBot, make_bot
from sequence_game.bots.base import reveal_truth
from sequence_game.bots.evaluation import Board, threat_windows, threats, threats_after
from sequence_game.bots.evaluators import GreedyRolloutEvaluator, LedRolloutEvaluator

from .helpers import random_position


@pytest.mark.parametrize("players", [2, 3, 4])
def test_threats_after_a_play_equal_a_full_count_in_the_same_order(players: int) -> None:
    # R3.2 windows, R3.3 declared sequences: the heuristic counts the threats after each candidate
    # play from the windows through the played cell only; the result must be the full count's
    checked = 0
    for seed in range(6):
        state = random_position(GameConfig(players=players), seed=seed, turns=25 + 10 * seed)
        board = Board.of_state(state)
        sides = state.config.sides
        plays = [a for a in state.legal_actions(state.current_seat) if a < DEAD]
        for side in range(sides):
            for s in range(sides):
                before = threat_windows(board, s)
                assert sum(threats(board, s).values()) == len(before)
                for a in plays:
                    after = board.after(a, side)
                    expected = threats(after, s)
                    windows, got = threats_after(board, after, s, a, before)
                    assert got == expected and list(got) == list(expected)
                    assert windows == threat_windows(after, s)
                    checked += 1
    assert checked > 100


def test_the_oracle_planner_plans_more_plays_with_more_budget() -> None:
    state = random_position(GameConfig(players=2), seed=7, turns=20)
    seat = state.current_seat
    used = []
    for budget in (2, 6):
        bot = PlannerBot(seed=1, oracle=True, model=1, width=2, max_width=6)
        assert reveal_truth(bot, state)
        action = bot.select_action(state.view(seat), Limit(simulations=budget))
        assert action in state.legal_actions(seat)
        used.append(bot.last_simulations)
    assert used[0] == 2 and used[1] > 2


def test_mcts_lead_rollouts_start_with_the_heuristic() -> None:
    assert isinstance(MCTSBot(seed=1).evaluator, GreedyRolloutEvaluator)
    bot = make_bot("mcts(lead=2)", seed=1)
    assert isinstance(bot, MCTSBot) and isinstance(bot.evaluator, LedRolloutEvaluator)
    for players in (2, 4):
        state = random_position(GameConfig(players=players), seed=players, turns=18)
        seat = state.current_seat
        action = bot.select_action(state.view(seat), Limit(simulations=12))
        assert action in state.legal_actions(seat)
    world = random_position(GameConfig(players=2), seed=5, turns=18)
    values = LedRolloutEvaluator(lead=2, plies=4).evaluate(world.copy(), random.Random(1))
    assert len(values) == 2 and all(-1.0 <= v <= 1.0 for v in values)
    with pytest.raises(ValueError, match="lead must be at least 0"):
        MCTSBot(lead=-1)


def test_the_oracle_planner_can_be_denied_the_draw_order() -> None:
    state = random_position(GameConfig(players=2), seed=9, turns=20)
    seat = state.current_seat
    before = state.copy()
    bot = make_bot("planner(oracle=True, model=1, width=3, shuffle_draws=True)", seed=1, allow_oracle=True)
    assert reveal_truth(bot, state)
    assert bot.select_action(state.view(seat), Limit(simulations=3)) in state.legal_actions(seat)
    assert state._deck == before._deck  # it shuffled its own copy, not the game's pile
