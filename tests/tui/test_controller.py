"""The game session behind both interfaces: seats, bots, explanations, log, save and replay."""

from __future__ import annotations

from pathlib import Path

import pytest
from tui_helpers import stacked_game

from sequence_game.actions import DEAD, DRAW, REMOVE, WILD, parse_action
from sequence_game.board import parse_cell
from sequence_game.bots import BOTS
from sequence_game.cards import parse_card
from sequence_game.errors import ConfigError, IllegalActionError
from sequence_game.records import replay
from sequence_game.tui.controller import (
    GameSession,
    ReplayModel,
    bot_for_level,
    group_moves,
    make_seats,
)


def test_levels_fall_back_to_registered_bots() -> None:
    assert bot_for_level("easy") == "random"
    for level in ("medium", "hard", "expert"):
        assert bot_for_level(level) in BOTS
    assert bot_for_level("random") == "random"
    with pytest.raises(ValueError, match="unknown bot level"):
        bot_for_level("grandmaster")


def test_seats_pad_with_the_last_level() -> None:
    from sequence_game import GameConfig

    seats = make_seats(GameConfig(players=4), ["human", "easy", "human"])
    assert [s.is_bot for s in seats] == [False, True, False, False]
    assert [s.side for s in seats] == [0, 1, 0, 1]  # R2.3
    assert [s.is_bot for s in make_seats(GameConfig(players=3), None)] == [False, True, True]


def test_r2_1_refused_table_names_the_rule() -> None:
    with pytest.raises(ConfigError, match=r"R2\.1"):
        GameSession.new(players=5)


def test_bots_play_a_whole_game_to_a_result() -> None:
    session = GameSession.new(players=3, seed=4, seats=["easy"])
    session.step_bots()
    assert session.state.is_terminal()
    assert "R7" in session.log[-1]


def test_r5_2_explains_a_card_on_the_wrong_space() -> None:
    state = stacked_game([["7h"], []])
    session = GameSession(state, make_seats(state.config, ["human", "easy"]))
    reason = session.explain_cell(parse_card("7h"), parse_cell("a1"), 0)
    assert reason is not None and reason.startswith("R5.2") and "d5" in reason
    assert session.explain_cell(parse_card("7h"), parse_cell("d5"), 0) is None
    with pytest.raises(IllegalActionError) as info:
        session.apply(parse_cell("a0"), 0)
    assert info.value.rule == "R5.2"


def test_r5_1_dead_card_offered_for_exchange() -> None:
    state = stacked_game([["7h", "7h", "2s"], ["jd"]])
    state.apply("7h@d5")
    state.apply("jd@i4")  # the other 7h space: the second 7h is now dead
    session = GameSession(state, make_seats(state.config, ["human", "easy"]))
    seven = parse_card("7h")
    assert session.state.is_dead(seven)
    assert session.card_actions(seven, 0) == [DEAD + seven]
    assert session.targets(seven, 0) == {}
    session.apply(DEAD + seven, 0)
    assert "exchanges the dead 7♥ (R5.1)" in session.log[-1]


def test_jack_targets() -> None:
    state = stacked_game([["jd", "js"], ["2s"]])
    state.apply("jd@e4")
    state.apply("2s@b0")
    session = GameSession(state, make_seats(state.config, ["human", "easy"]))
    assert session.targets(parse_card("js"), 0) == {1: REMOVE + 1}
    assert session.explain_cell(parse_card("js"), parse_cell("e4"), 0).startswith("R5.2")  # own chip


def test_manual_draw_bots_wait_for_a_person_to_draw() -> None:
    state = stacked_game([["7h"], []], draw="manual")
    session = GameSession(state, make_seats(state.config, ["human", "easy"]))
    session.apply(parse_action("7h@d5"), 0)
    assert session.human_draw_seats() == [0]
    assert session.bot_to_move() is None  # R5.3: the bot waits for the draw
    session.apply(DRAW, 0)
    assert session.bot_to_move() == 1
    session.step_bots()
    assert not session.state.owes_draw(1)  # bots draw at once


def test_r6_1_table_talk_bots_pay_people_choose() -> None:
    session = GameSession.new(players=4, seed=2, seats=["human", "easy"])
    session.step_bots()
    session.call_table_talk(0)
    assert session.human_to_prompt() == 0
    card = session.state.hand(0)[0]
    session.apply(session.card_actions(card, 0)[0], 0)
    session.step_bots()  # seat 2, a bot, pays its fine
    assert not session.state.penalty_due
    assert any("R6.1" in line for line in session.log)


def test_save_and_resume_round_trip(tmp_path: Path) -> None:
    session = GameSession.new(players=2, seed=9, seats=["human", "easy"])
    for _ in range(5):
        session.apply(session.state.legal_actions(0)[0], 0)
        session.step_bots()
    path = session.save(tmp_path / "game.json")
    resumed = GameSession.resume(path, ["human", "easy"])
    assert resumed.state.history == session.state.history
    assert resumed.state.hand(0) == session.state.hand(0)


def test_replay_steps_forwards_and_backwards(tmp_path: Path) -> None:
    session = GameSession.new(players=2, seed=5, seats=["easy"])
    session.step_bots()
    path = tmp_path / "r.json"
    session.save(path)
    model = ReplayModel(str(path))
    assert model.final.ok
    assert model.goto(model.steps).outcome() == session.state.outcome()
    forward = model.goto(3)
    chips = forward.chips(0) | forward.chips(1)
    model.move(5)
    back = model.move(-5)
    assert back.chips(0) | back.chips(1) == chips
    assert model.step == 3
    assert replay(path).ok


def test_group_moves_names_the_jack_held() -> None:
    lines = group_moves([parse_action("7h@d5"), WILD + 1, DRAW], [parse_card("jc")])
    assert lines == ["7h@ d5", "jc@ b0", "draw"]
