"""Issue 45, "what players met" at the terminal: one pilot test (or more) per bug and per gap."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from textual.widgets import Footer, Static
from tui_helpers import settle, stacked_game

from sequence_game import GameConfig, new_game
from sequence_game.board import CELLS_OF_CARD
from sequence_game.cards import FULL_DECK, parse_card
from sequence_game.tui.app import SequenceApp
from sequence_game.tui.controller import GameSession, ReplayModel, make_seats
from sequence_game.tui.game_screen import GameScreen
from sequence_game.tui.hand_order import HandOrder
from sequence_game.tui.replay_screen import ReplayScreen
from sequence_game.tui.screens import NewGameScreen, PassScreen, ResultScreen
from sequence_game.tui.widgets import BoardView

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def game(app: SequenceApp) -> GameScreen:
    return next(s for s in reversed(app.screen_stack) if isinstance(s, GameScreen))


def message(app: SequenceApp) -> str:
    return str(game(app).query_one("#message", Static).render())


def finished_session(seed: int = 3) -> GameSession:
    session = GameSession.new(players=2, seed=seed, seats=["human", "easy"])
    while not session.state.is_terminal():
        session.step_bots()
        if not session.state.is_terminal():
            session.apply(session.state.legal_actions(0)[0], 0)
    return session


async def test_bug_1_cancelling_a_new_game_while_the_bot_thinks_keeps_the_game_going() -> None:
    """``n`` then Escape while the bot thinks: its move used to be thrown away and the table froze
    at "medium to play" for good."""
    session = GameSession.new(players=2, seed=3, seats=["human", "easy"])
    app = SequenceApp(session, bot_delay=1.5, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert session.state.current_seat == 0
        game(app).act(session.state.legal_actions(0)[0])
        await pilot.pause()
        assert game(app).thinking == 1  # the bot is on its move (it waits 1.5 s before answering)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen) and app.screen.session is session
        assert session.state.current_seat == 0 and game(app).thinking is None  # the bot moved
        await pilot.press("1")
        assert "wait for your turn" not in message(app)


async def test_bug_1_a_new_game_started_meanwhile_drops_the_old_bots_answer() -> None:
    session = GameSession.new(players=2, seed=3, seats=["human", "easy"])
    app = SequenceApp(session, bot_delay=1.0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        game(app).act(session.state.legal_actions(0)[0])
        await pilot.press("n")
        await pilot.pause()
        await pilot.click("#start")
        await settle(pilot)
        fresh = game(app).session
        assert fresh is not session and sum(isinstance(s, GameScreen) for s in app.screen_stack) == 1
        assert fresh.state.turn <= 1  # the old game's late answer did not land in the new one


async def test_bug_2_rematch_replay_and_the_result_box_after_closing_it() -> None:
    session = finished_session()
    app = SequenceApp(session, bot_delay=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ResultScreen)
        await pilot.press("b")
        await pilot.pause()
        await pilot.press("1")
        assert "r rematch, p replay, a analyse, o result" in message(app)
        await pilot.press("o")
        await pilot.pause()
        assert isinstance(app.screen, ResultScreen)  # the result box comes back
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, ResultScreen)
        await pilot.press("b")
        await pilot.pause()
        await pilot.press("r")
        await settle(pilot)
        assert game(app).session is not session and not game(app).session.state.is_terminal()


async def test_bug_3_a_second_enter_after_the_pass_screen_plays_nothing() -> None:
    session = GameSession.new(players=2, seed=15, seats=["human", "human"])
    app = SequenceApp(session, bot_delay=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, PassScreen)
        await pilot.press("enter", "enter")
        await settle(pilot)
        assert session.state.history == []  # nobody chose a card: nothing was played
        screen = game(app)
        if screen.selected is not None:  # the card printed there is chosen, and the message says so
            assert "Enter plays it on" in message(app)
        else:
            assert "Choose a card first" in message(app)


async def test_bug_5_the_last_chip_shows_the_removal_mark() -> None:
    session = GameSession(
        stacked_game([["7h", "jh"], []]), make_seats(GameConfig(players=2), ["human", "easy"]), seed=1
    )
    app = SequenceApp(session, bot_delay=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        game(app).act(CELLS_OF_CARD[parse_card("7h")][0])
        await settle(pilot)
        screen = game(app)
        await pilot.press(str(screen.hand().index(parse_card("jh")) + 1))
        await pilot.pause()
        board = screen.query_one(BoardView)
        last = board.picture.last
        assert last is not None and last in board.picture.targets  # the bot's chip may be removed
        assert "×" in board._cell(last, 0, board.picture).plain


async def test_bug_7_the_footer_beneath_the_result_box_offers_no_playing_keys() -> None:
    app = SequenceApp(finished_session(), bot_delay=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ResultScreen)
        keys = {key.description for key in game(app).query_one(Footer).query("FooterKey")}  # type: ignore[attr-defined]
        assert not keys & {"Play", "Exchange", "Hint", "Talk", "Draw"}
        assert {"Rematch", "Replay"} <= keys


async def test_escape_and_the_same_digit_put_the_chosen_card_back() -> None:
    session = GameSession(
        stacked_game([["7h", "2s"], []]), make_seats(GameConfig(players=2), ["human", "easy"]), seed=1
    )
    app = SequenceApp(session, bot_delay=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("1")
        assert game(app).selected == 0
        await pilot.press("escape")
        assert game(app).selected is None and "No card chosen" in message(app)
        await pilot.press("2", "2")
        assert game(app).selected is None
        assert not game(app).query_one(BoardView).picture.targets


def test_the_hand_order_survives_a_save_and_resume(tmp_path: Path) -> None:
    session = GameSession.new(players=2, seed=4, seats=["human", "easy"])
    for _ in range(6):
        session.step_bots()
        session.hands.of(session.state, 0)
        session.apply(session.state.legal_actions(0)[0], 0)
    session.step_bots()
    order = session.hands.of(session.state, 0)
    assert order != sorted(order)  # new cards joined at the right
    path = session.save(tmp_path / "g.json")
    resumed = GameSession.resume(path)
    assert resumed.hands.of(resumed.state, 0) == order


def test_a_card_drawn_again_right_after_playing_it_is_new() -> None:
    """Play the 7♥ and draw the other 7♥: the hand's cards are the same, yet the 7♥ is new."""
    seven = parse_card("7h")
    mine = [seven, *(parse_card(c) for c in ("2s", "3s", "4s", "5s", "6s", "8s"))]
    theirs = [parse_card(c) for c in ("2c", "3c", "4c", "5c", "6c", "8c", "9c")]
    rest = Counter(FULL_DECK)
    rest.subtract([*mine, *theirs, seven])
    deck = [card for pair in zip(mine, theirs, strict=True) for card in pair] + [seven, *rest.elements()]
    state = new_game(GameConfig(players=2), dealer=1, deck=deck)
    order = HandOrder()
    before = order.of(state, 0)
    state.apply(CELLS_OF_CARD[seven][0], 0)
    assert sorted(state.hand(0)) == sorted(before)  # the same cards as before the play...
    after = order.of(state, 0)
    assert order.fresh(0) == seven and after[-1] == seven  # ...but the 7♥ is the card just drawn


async def test_the_expert_says_what_it_waits_for_while_its_engine_loads(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The first expert game waited minutes in silence while its kernels compiled. Here the loading
    is held open (the compile itself is the compiled engine's business, tested there) to read the
    table meanwhile."""
    import threading

    from sequence_game.tui import game_screen

    loaded = threading.Event()
    monkeypatch.setattr(game_screen, "is_warm", lambda name: loaded.is_set())
    monkeypatch.setattr(game_screen, "warm_up", lambda name: loaded.wait(60))
    session = GameSession.new(players=2, seed=3, seats=["human", "easy"])
    app = SequenceApp(session, bot_delay=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        game(app).act(session.state.legal_actions(0)[0])
        for _ in range(200):
            await pilot.pause(0.05)
            if "loading its compiled engine" in message(app):
                break
        assert "S1 easy is loading its compiled engine" in message(app)
        loaded.set()
        await settle(pilot)
        assert session.state.current_seat == 0 and "loading" not in message(app)


async def test_enter_in_the_seed_field_starts_the_game() -> None:
    """The form says "Enter starts the game"; in the Seed field Enter did nothing."""
    app = SequenceApp(bot_delay=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        app.screen.query_one("#seed").focus()
        await pilot.press("4", "2", "enter")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        assert app.screen.session.seed == 42


async def test_the_seat_list_shows_that_it_has_the_focus() -> None:
    app = SequenceApp(bot_delay=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        seats = app.screen.query_one("#seats")
        before = seats.styles.border_top
        seats.focus()
        await pilot.pause()
        assert app.screen.focused is seats
        assert seats.styles.border_top != before


async def test_twelve_players_at_80x24_leave_room_for_the_log() -> None:
    """One status line a seat left the move log a single cut-off line at 80x24 with 12 players."""
    session = GameSession.new(players=12, seed=3, seats=["human"] + ["easy"] * 11)
    app = SequenceApp(session, bot_delay=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert game(app).query_one("#log").region.height >= 6
        status = str(game(app).query_one("#status", Static).render())
        assert "S1 " in status and "S11" in status  # every seat is still listed


async def test_the_replay_board_grows_with_the_terminal() -> None:
    session = finished_session()
    app = SequenceApp(session, bot_delay=0, autosave=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.push_screen(ReplayScreen(ReplayModel(json.loads(session.record_text())), closes_app=False))
        await settle(pilot)
        board = app.screen.query_one(BoardView)
        assert (board.cell_width, board.row_height) == (7, 2)
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert (board.cell_width, board.row_height) == (5, 1)
