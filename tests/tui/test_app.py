"""The Textual app driven headless by its pilot: keys, mouse, jacks, dead cards, bots, screens."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Select, Static
from tui_helpers import settle, stacked_game

from sequence_game.board import parse_cell
from sequence_game.cards import parse_card
from sequence_game.tui.app import SequenceApp
from sequence_game.tui.controller import GameSession, make_seats
from sequence_game.tui.game_screen import GameScreen
from sequence_game.tui.replay_screen import ReplayScreen
from sequence_game.tui.screens import NewGameScreen, PassScreen, ResultScreen
from sequence_game.tui.widgets import BoardView, HandView

# anyio's pytest plugin (anyio comes with httpx in the test extra) runs the async tests.
pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def session_of(state, seats=("human", "easy")) -> GameSession:  # type: ignore[no-untyped-def]
    return GameSession(state, make_seats(state.config, list(seats)), seed=1)


def message(app: SequenceApp) -> str:
    return str(app.screen.query_one("#message", Static).render())


def digit(session: GameSession, card: str, seat: int = 0) -> str:
    return str(session.state.hand(seat).index(parse_card(card)) + 1)


def board_offset(board: BoardView, cell: str) -> tuple[int, int]:
    """A click offset (inside the border) onto a cell."""
    row, col = divmod(parse_cell(cell), 10)
    return (1 + 2 + col * board.cell_width + 2, 1 + 1 + row * board.row_height)


async def test_play_a_card_with_keys() -> None:
    session = session_of(stacked_game([["7h"], []]))
    app = SequenceApp(session, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press(digit(session, "7h"))
        board = app.screen.query_one(BoardView)
        assert board.picture.targets == {parse_cell("d5"), parse_cell("i4")}
        assert board.cursor == parse_cell("i4") or board.cursor == parse_cell("d5")
        await pilot.press("left", "right")  # the cursor moves and comes back
        cell = board.cursor
        await pilot.press("enter")
        await settle(pilot)
        assert session.state.chip_at(cell) == 0
        assert session.state.turn >= 2  # the bot answered


async def test_play_a_card_with_the_mouse() -> None:
    session = session_of(stacked_game([["7h"], []]))
    app = SequenceApp(session, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        hand = app.screen.query_one(HandView)
        index = session.state.hand(0).index(parse_card("7h"))
        line, start, _end = hand._spans[index]
        await pilot.click(HandView, offset=(start + 1, line))
        assert app.screen.selected == index
        board = app.screen.query_one(BoardView)
        await pilot.click(BoardView, offset=board_offset(board, "d5"))
        await settle(pilot)
        assert session.state.chip_at(parse_cell("d5")) == 0


async def test_r5_2_illegal_choice_is_explained() -> None:
    session = session_of(stacked_game([["7h"], []]))
    app = SequenceApp(session, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press(digit(session, "7h"))
        board = app.screen.query_one(BoardView)
        await pilot.click(BoardView, offset=board_offset(board, "a1"))
        assert message(app).startswith("R5.2: a1 shows 6♣, not 7♥")
        assert session.state.turn == 0


async def test_r5_1_exchange_a_dead_card() -> None:
    state = stacked_game([["7h", "7h", "2s"], ["jd"]])
    state.apply("7h@d5")
    state.apply("jd@i4")
    session = session_of(state)
    app = SequenceApp(session, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert parse_card("7h") in app.screen.query_one(HandView).dead
        await pilot.press(digit(session, "7h"))
        assert "dead (R5.1)" in message(app)
        assert not app.screen.query_one(BoardView).picture.targets
        await pilot.press("x")
        await settle(pilot)
        assert "exchanges the dead 7♥ (R5.1)" in "\n".join(session.log)
        assert session.state.dead_card_exchanged and session.state.current_seat == 0  # still our turn


async def test_two_eyed_jack_offers_every_open_space() -> None:
    session = session_of(stacked_game([["jd"], []]))
    app = SequenceApp(session, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press(digit(session, "jd"))
        board = app.screen.query_one(BoardView)
        assert len(board.picture.targets) == 96  # every space but the corners (R5.2)
        await pilot.press("down")
        cell = board.cursor
        await pilot.press("enter")
        await settle(pilot)
        assert session.state.chip_at(cell) == 0


async def test_one_eyed_jack_offers_every_removable_chip() -> None:
    state = stacked_game([["js", "2s"], ["3s", "4s"]])
    state.apply("2s@b0")
    state.apply("3s@c0")
    session = session_of(state)
    app = SequenceApp(session, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press(digit(session, "js"))
        board = app.screen.query_one(BoardView)
        assert board.picture.targets == {parse_cell("c0")} and board.picture.removing
        await pilot.click(BoardView, offset=board_offset(board, "b0"))  # our own chip
        assert message(app).startswith("R5.2: the chip on b0 is your own side's")
        await pilot.click(BoardView, offset=board_offset(board, "c0"))
        await settle(pilot)
        assert "removes the chip on c0" in "\n".join(session.log)


async def test_finish_a_game_against_bots() -> None:
    session = GameSession.new(players=2, seed=11, seats=["human", "easy"])
    app = SequenceApp(session, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(200):
            await settle(pilot)
            if session.state.is_terminal():
                break
            screen = app.screen
            assert isinstance(screen, GameScreen)
            await pilot.press("1")
            if screen.query_one(BoardView).picture.targets:
                await pilot.press("enter")
            else:
                await pilot.press("x")
        await settle(pilot)
        assert session.state.is_terminal()
        assert isinstance(app.screen, ResultScreen)
        await pilot.press("q")
    assert app.return_code in (0, None)


async def test_hot_seat_hides_the_hand_between_turns() -> None:
    session = session_of(stacked_game([["7h"], ["2s"]]), seats=("human", "human"))
    app = SequenceApp(session, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, PassScreen)  # even seat 0's hand waits for its player
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press(digit(session, "7h"), "enter")
        await settle(pilot)
        assert isinstance(app.screen, PassScreen)
        game = app.screen_stack[-2]
        assert game.query_one(HandView).hidden_text is not None
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen) and app.screen.viewer == 1
        assert app.screen.query_one(HandView).cards == session.state.hand(1)


async def test_manual_draw_button() -> None:
    session = session_of(stacked_game([["7h"], []], draw="manual"))
    app = SequenceApp(session, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press(digit(session, "7h"), "enter")
        await settle(pilot)
        assert session.state.owes_draw(0) and session.state.turn == 1  # the bot waits (R5.3)
        assert app.screen.query_one("#draw").has_class("owed")
        await pilot.click("#draw")
        await settle(pilot)
        assert len(session.state.hand(0)) == 7
        assert session.state.turn == 2


async def test_r6_1_table_talk_penalty() -> None:
    session = GameSession.new(players=4, seed=2, seats=["human", "easy"])
    session.step_bots()
    app = SequenceApp(session, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        before = session.state.hand_sizes()
        await pilot.press("t")
        await pilot.click("#talk-0")
        await settle(pilot)
        assert session.state.penalty_due == (0, 2)
        assert "R6.1" in message(app)
        await pilot.press("1", "x")
        await settle(pilot)
        assert not session.state.penalty_due
        after = session.state.hand_sizes()
        assert after[0] == before[0] - 1 and after[2] == before[2] - 1  # the bot paid too


async def test_new_game_screen_starts_the_chosen_table() -> None:
    app = SequenceApp(bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        screen.query_one("#players", Select).value = 6
        await pilot.pause()
        assert screen.query_one("#seat-row-5").display and not screen.query_one("#seat-row-6").display
        screen.query_one("#teams", Select).value = 3
        screen.query_one("#seat-1", Select).value = "easy"
        screen.query_one("#seed").value = "7"  # type: ignore[attr-defined]
        await pilot.click("#start")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        cfg = app.screen.session.state.config
        assert (cfg.players, cfg.sides) == (6, 3)


async def test_board_follows_resizes() -> None:
    session = session_of(stacked_game([["7h"], []]))
    app = SequenceApp(session, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        board = app.screen.query_one(BoardView)
        assert board.cell_width == 5 and board.row_height == 1
        await pilot.resize_terminal(130, 40)
        await pilot.pause()
        assert board.cell_width == 7 and board.row_height == 2
        await pilot.press(digit(session, "7h"))
        await pilot.click(BoardView, offset=board_offset(board, "d5"))
        await settle(pilot)
        assert session.state.chip_at(parse_cell("d5")) == 0


async def test_save_from_the_game(tmp_path: Path) -> None:
    session = session_of(stacked_game([["7h"], []]))
    app = SequenceApp(session, bot_delay=0)
    target = tmp_path / "saved.json"
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("s")
        await pilot.pause()
        app.screen.query_one("#path").value = str(target)  # type: ignore[attr-defined]
        await pilot.press("enter")
        await pilot.pause()
    assert GameSession.resume(target).state.history == session.state.history


async def test_replay_steps_through_a_record(tmp_path: Path) -> None:
    session = GameSession.new(players=2, seed=5, seats=["easy"])
    session.step_bots()
    path = tmp_path / "game.json"
    session.save(path)
    app = SequenceApp(replay=path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("right", "right", "right", "left")
        assert screen.model.step == 2
        await pilot.press("end")
        assert screen.model.step == screen.model.steps
        assert "wins" in str(screen.query_one("#replay-status", Static).render()) or "Drawn" in str(
            screen.query_one("#replay-status", Static).render()
        )
