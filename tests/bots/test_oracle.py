"""Oracle mode: a search given the true state, for measurement only (docs/bots.md). It is refused
everywhere a bot may meet people or an agent, and the tournament marks every bot that used it."""

from __future__ import annotations

import json
import random

import pytest

from sequence_game import GameConfig, new_game
from sequence_game.board import LAYOUT, parse_cell
from sequence_game.bots import Limit, MCTSBot, PlannerBot, make_bot
from sequence_game.bots.base import reveal_truth
from sequence_game.bots.deadline import SAFETY, deadline_of
from sequence_game.bots.planner import tactical_policy
from sequence_game.bots.specs import parse_bot_spec
from sequence_game.cards import parse_card
from sequence_game.cli import main
from sequence_game.env.opponents import BotSeats
from sequence_game.testing import position

from .helpers import random_position


@pytest.mark.parametrize(
    "text", ["mcts(oracle=True)", "planner(oracle=True)", "expert(oracle=True, width=3)"]
)
def test_oracle_mode_is_refused_unless_the_caller_opts_in(text: str) -> None:
    with pytest.raises(ValueError, match="measurement tool"):
        parse_bot_spec(text)
    with pytest.raises(ValueError, match="measurement tool"):
        make_bot(text, seed=1)
    assert parse_bot_spec(text, allow_oracle=True).oracle
    assert make_bot(text, seed=1, allow_oracle=True).oracle  # type: ignore[attr-defined]
    assert not parse_bot_spec("mcts(oracle=False)").oracle


def test_the_environments_refuse_an_oracle_opponent() -> None:
    with pytest.raises(ValueError, match="measurement tool"):
        BotSeats(GameConfig(players=2), [0], "planner(oracle=True)", Limit(simulations=2))


def test_an_oracle_bot_without_the_truth_refuses_to_play() -> None:
    state = new_game(GameConfig(players=2), seed=3)
    view = state.view(state.current_seat)
    for bot in (MCTSBot(seed=1, oracle=True), PlannerBot(seed=1, oracle=True)):
        with pytest.raises(ValueError, match="no true state was revealed"):
            bot.select_action(view, Limit(simulations=4))
        other = new_game(GameConfig(players=2), seed=4)
        bot.reveal(other)  # the truth of another game does not fit this view
        with pytest.raises(ValueError, match="no true state was revealed"):
            bot.select_action(view, Limit(simulations=4))


@pytest.mark.parametrize(
    "spec", ["mcts(oracle=True)", "planner(oracle=True)", "planner(oracle=True, model=1, width=2)"]
)
def test_oracle_bots_play_legal_moves_from_the_revealed_truth(spec: str) -> None:
    for players in (2, 3, 4):
        state = random_position(GameConfig(players=players), seed=players, turns=20)
        seat = state.current_seat
        bot = make_bot(spec, seed=1, allow_oracle=True)
        assert reveal_truth(bot, state)
        before = state.copy()
        action = bot.select_action(state.view(seat), Limit(simulations=12))
        assert action in state.legal_actions(seat)
        assert state.view(seat) == before.view(seat)  # the bot planned on a copy
    assert not reveal_truth(make_bot("heuristic", seed=1), state)  # a fair bot is shown nothing


def test_the_tournament_marks_the_bots_that_saw_the_truth(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["tournament", "--bots", "planner(oracle=True, width=2),greedy", "--games", "2"]
    assert main([*args, "--simulations", "4", "--workers", "1", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "ORACLE: planner(oracle=True, width=2) saw the true state" in out
    assert main([*args, "--simulations", "4", "--workers", "1", "--quiet", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["oracle"] == ["planner(oracle=True, width=2)"]
    assert (
        main(["tournament", "--bots", "heuristic,greedy", "--games", "2", "--workers", "1", "--quiet"]) == 0
    )
    assert "ORACLE" not in capsys.readouterr().out


@pytest.mark.parametrize("opponent_holds", [True, False])
def test_the_tactical_rollout_blocks_a_four_only_when_the_opponent_can_fill_it(opponent_holds: bool) -> None:
    # side 1 has four of row 5; seat 0 holds the fifth space's card (and another play)
    row = [parse_cell(f"{c}5") for c in "bcdef"]
    card = LAYOUT[row[4]]
    filler = [card] if opponent_holds else []
    spare = next(c for c in ("2s", "3s", "4s") if parse_card(c) != card)
    state = position(GameConfig(players=2), {1: row[:4]}, {0: [card, spare], 1: [*filler, "kh"]})
    action = tactical_policy(state, random.Random(0), fallback=False)
    assert action == (row[4] if opponent_holds else -1)


def test_the_clock_stops_new_work_before_the_limit() -> None:
    # the limit counts from the call (ranking included); new work stops at 96% of it (issue 14)
    assert deadline_of(10.0, Limit(seconds=1.0)) == pytest.approx(10.0 + 1.0 - SAFETY)
    assert deadline_of(10.0, Limit(simulations=50)) == float("inf")
    assert SAFETY <= 0.05
