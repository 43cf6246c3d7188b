"""Rollouts for search on the fast engine, and ``sequence bench --engine fast``."""

from __future__ import annotations

import json
import random

from sequence_game import GameConfig, new_game
from sequence_game.bots.base import Limit
from sequence_game.bots.mcts import MCTSBot
from sequence_game.cli import main
from sequence_game.fast.rollout import FastRolloutEvaluator, rollout_outcomes


def test_rollout_outcomes_count_every_playout() -> None:
    state = new_game(GameConfig(players=6, teams=3), seed=4)
    state.playout(random.Random(0), max_turns=40)
    tally = rollout_outcomes(state, 200, seed=1)
    assert tally.shape == (5,) and int(tally.sum()) == 200
    assert state.turn == 40 and not state.is_terminal()  # the pure state is left alone


def test_rollouts_from_mid_game_are_mostly_decided() -> None:
    """Random two-player games from turn 30 end in sequences far more often than not (R7.1):
    catches rollouts that run on a stale or wrong row layout (every game "drawn" at once)."""
    state = new_game(GameConfig(players=2), seed=5)
    state.playout(random.Random(1), max_turns=30)
    tally = rollout_outcomes(state, 200, seed=2)
    assert int(tally[:2].sum()) >= 150 and min(int(tally[0]), int(tally[1])) > 0


def test_rollouts_from_a_finished_game_give_its_result() -> None:
    state = new_game(GameConfig(players=2), seed=4)
    outcome = state.playout(random.Random(0))
    assert outcome is not None
    tally = rollout_outcomes(state, 10)
    index = outcome.winner if outcome.winner is not None else 2
    assert tally[index] == 10


def test_mcts_runs_its_rollouts_on_the_fast_engine() -> None:
    state = new_game(GameConfig(players=2), seed=8)
    bot = MCTSBot(seed=1, evaluator=FastRolloutEvaluator(playouts=2), paired=False)
    action = bot.select_action(state.view(state.current_seat), Limit(simulations=30))
    assert action in state.legal_actions() and bot.last_simulations > 0


def test_bench_fast_json(capsys) -> None:  # type: ignore[no-untyped-def]
    assert (
        main(["bench", "--engine", "fast", "--players", "4", "--games", "300", "--warmup", "10", "--json"])
        == 0
    )
    result = json.loads(capsys.readouterr().out)
    assert result["engine"] == "fast" and result["games"] == 300
    assert result["games_per_second"] > 0 and result["compile_seconds"] >= 0
    assert sum(result["wins_by_side"]) + result["draws"] + result["truncated"] == 300
