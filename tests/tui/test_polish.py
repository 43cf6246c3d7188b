"""Issue 19, "The terminal game, polished": one pilot test (or more) per bug and per wish."""

from __future__ import annotations

import io
import itertools
import json
import re
from pathlib import Path

import pytest
from rich.console import Console, Group
from textual.widgets import Button, Select, Static
from tui_helpers import settle, stacked_game

from sequence_game.board import parse_cell
from sequence_game.cards import parse_card
from sequence_game.tui.app import SequenceApp
from sequence_game.tui.controller import (
    GameSession,
    autosave_path,
    card_codes_to_symbols,
    make_seats,
    turn_number,
)
from sequence_game.tui.game_screen import GameScreen
from sequence_game.tui.replay_screen import ReplayScreen
from sequence_game.tui.rules_text import rules_plain, rules_renderables
from sequence_game.tui.screens import (
    ConfirmQuitScreen,
    NewGameScreen,
    PassScreen,
    ReplayPicker,
    ResultScreen,
    TextScreen,
)
from sequence_game.tui.widgets import BoardView, HandView

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def session_of(state, seats=("human", "easy")) -> GameSession:  # type: ignore[no-untyped-def]
    return GameSession(state, make_seats(state.config, list(seats)), seed=1)


def message(app: SequenceApp) -> str:
    return str(app.screen.query_one("#message", Static).render())


def game(app: SequenceApp) -> GameScreen:
    return next(s for s in reversed(app.screen_stack) if isinstance(s, GameScreen))


def digit(app: SequenceApp, card: str) -> str:
    return str(game(app).hand().index(parse_card(card)) + 1)


def board_row(app: SequenceApp, row: int) -> str:
    return game(app).query_one(BoardView).render().plain.splitlines()[1 + row]


def finished_session(seed: int = 3) -> GameSession:
    """A game played to its end (the person always takes the first legal action), with its log."""
    session = GameSession.new(players=2, seed=seed, seats=["human", "easy"])
    while not session.state.is_terminal():
        session.step_bots()
        if not session.state.is_terminal():
            session.apply(session.state.legal_actions(0)[0], 0)
    return session


# ----------------------------------------------------------------------------------- bugs 1-11


async def test_1_messages_show_card_symbols_not_codes() -> None:
    session = session_of(stacked_game([["th", "2s"], []]))
    app = SequenceApp(session, bot_delay=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press(digit(app, "th"), "x")
        assert message(app) == "R5.1: 10♥ is not dead: a space for it is open"


def test_1_only_the_cards_of_an_error_become_symbols() -> None:
    ace, queen = parse_card("as"), parse_card("qh")
    assert card_codes_to_symbols("seat 0 holds no as", [ace]) == "seat 0 holds no A♠"
    assert card_codes_to_symbols("the th has ah", [parse_card("th")]) == "the 10♥ has ah"
    assert card_codes_to_symbols("as qh js@e4", [queen]) == "as Q♥ js@e4"  # notation stays notation


async def test_1_enter_with_no_card_chooses_the_card_printed_under_the_cursor() -> None:
    """Enter on a space with no card chosen picks the card printed there; a second Enter plays it
    (issue 45: it used to play at once, so an Enter too many played a card nobody chose)."""
    session = session_of(stacked_game([["5h"], []]))  # 5♥ is printed on e4, where the cursor starts
    app = SequenceApp(session, bot_delay=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert game(app).query_one(BoardView).cursor == parse_cell("e4")
        await pilot.press("enter")
        await settle(pilot)
        assert session.state.history == [] and game(app).hand()[game(app).selected or 0] == parse_card("5h")
        assert "Enter plays it on e4" in message(app)
        await pilot.press("enter")
        await settle(pilot)
        assert session.state.chip_at(parse_cell("e4")) == 0
        assert "holds no" not in message(app)


def test_2_rules_wrap_once_at_any_width() -> None:
    """Each rule is wrapped once, so a line ends early only at the end of its rule (the issue saw
    "are", "left" and "nobody" alone on lines: text wrapped twice)."""
    for width in (60, 80, 100):
        lines = rules_plain(width).splitlines()
        assert all(len(line) <= width for line in lines)
        for line, following in itertools.pairwise(lines):
            starts_rule = following.lstrip().startswith("R") and following.split()[0][1:2].isdigit()
            if line and following.strip() and not starts_rule:
                assert len(line) + 1 + len(following.split()[0]) > width, (line, following)


def test_2_rules_screen_keeps_rule_numbers_in_their_own_column() -> None:
    """What the rules screen shows at 80 columns (76 inside its border and padding)."""
    console = Console(width=76, record=True, file=io.StringIO())
    console.print(Group(*rules_renderables()))
    text = console.export_text()
    lines = [line.strip() for line in text.splitlines()]
    assert not {"are", "left", "nobody"} & set(lines)
    assert any(line.startswith("R5.1 First, if a card") for line in lines)
    body = [line for line in text.splitlines() if line.startswith("       ")]
    assert body  # continuation lines hang under the text, not under the rule number


async def test_2_rules_screen_opens_with_question_mark() -> None:
    app = SequenceApp(session_of(stacked_game([["7h"], []])), bot_delay=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, TextScreen)


async def test_3_last_move_mark_stays_when_the_move_completes_a_sequence() -> None:
    state = stacked_game([["2s", "3s", "4s", "5s"], ["7h", "8h", "9h", "th"]])
    for move in ("2s@b0", "7h@d5", "3s@c0", "8h@d6", "4s@d0", "9h@e6"):
        state.apply(move)
    session = session_of(state)
    app = SequenceApp(session, bot_delay=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press(digit(app, "5s"), "e", "0")  # a0 (free) to e0: a sequence (R3.2)
        assert session.state.sequence_counts()[0] == 1
        await settle(pilot)
        picture = game(app).query_one(BoardView).picture
        assert picture.locked >> parse_cell("e0") & 1
        if picture.last == parse_cell("e0"):  # the bot may have answered elsewhere since
            assert "5♠◂" in board_row(app, 0)
        assert "2♠*" in board_row(app, 0)


async def test_4_q_asks_first_and_the_game_is_saved() -> None:
    session = session_of(stacked_game([["7h"], []]))
    app = SequenceApp(session, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmQuitScreen)
        assert autosave_path().exists()
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and app.is_running
        await pilot.press("q", "y")
        await pilot.pause()
    assert GameSession.resume(autosave_path()).state.history == session.state.history


async def test_4_q_on_the_pass_screen_asks_to_quit() -> None:
    session = GameSession.new(players=2, seed=3, seats=["human", "human"])
    app = SequenceApp(session, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, PassScreen)
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmQuitScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, PassScreen)  # back, still hiding the hand


async def test_5_three_player_hot_seat_hand_fits_at_80x24() -> None:
    session = GameSession.new(players=3, seed=2, seats=["human"] * 3)
    app = SequenceApp(session, bot_delay=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("enter")  # the pass screen
        await pilot.pause()
        hand = game(app).query_one(HandView)
        assert len(hand.cards) == 6 and len(hand._spans) == 6
        assert all(end <= hand.size.width for _, _, end in hand._spans)
        assert hand.region.right <= game(app).query_one("#side").region.x
        shown = "\n".join("".join(seg.text for seg in hand.render_line(y)) for y in range(hand.size.height))
        assert "6 " in shown


async def test_5_log_scrolls_to_the_newest_line_after_a_resize() -> None:
    session = finished_session()
    app = SequenceApp(session, bot_delay=0, autosave=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("b")  # back to the board from the result
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        log = game(app).query_one("#log")
        assert log.max_scroll_y > 0 and log.scroll_y == log.max_scroll_y


async def test_5_too_small_terminal_says_so() -> None:
    app = SequenceApp(session_of(stacked_game([["7h"], []])), bot_delay=0, autosave=False)
    async with app.run_test(size=(70, 24)) as pilot:
        await settle(pilot)
        notice = game(app).query_one("#too-small", Static)
        assert notice.has_class("shown") and "70x24" in str(notice.render())
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not notice.has_class("shown")


async def test_6_sides_label_follows_the_player_count() -> None:
    app = SequenceApp(bot_delay=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        screen.query_one("#players", Select).value = 4
        await pilot.pause()
        label = screen.query_one("#teams", Select).query_one("SelectCurrent #label", Static)
        assert "2 (teams of 2)" in str(label.render())


def test_7_resume_keeps_people_bots_and_log(tmp_path: Path) -> None:
    session = GameSession.new(players=4, seed=5, seats=["human", "hard", "human", "easy"])
    session.step_bots()
    path = session.save(tmp_path / "table.json")
    again = GameSession.resume(path)
    levels = [(s.is_bot, s.level) for s in again.seats]
    assert levels == [(False, "human"), (True, "hard"), (False, "human"), (True, "easy")]
    assert again.log[: len(session.log)] == session.log
    assert again.log[-1].startswith(f"Resumed table.json at turn {turn_number(session.state)}")


def test_7_old_saves_still_load_and_say_who_plays(tmp_path: Path) -> None:
    session = GameSession.new(players=2, seed=5, seats=["human", "human"])
    record = json.loads(session.record_text())
    del record["terminal"]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(record))
    again = GameSession.resume(path)
    assert [s.is_bot for s in again.seats] == [False, True]
    assert "does not say who plays each seat" in again.log[-1]


async def test_8_hot_seat_game_that_seat_0_starts_opens_with_the_pass_screen() -> None:
    session = GameSession.new(players=2, seed=3, seats=["human", "human"])
    assert session.state.current_seat == 0
    app = SequenceApp(session, bot_delay=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, PassScreen)
        assert game(app).query_one(HandView).hidden_text is not None
        await pilot.press("enter")
        await pilot.pause()
        assert game(app).query_one(HandView).hidden_text is None


async def test_9_after_the_end_the_playing_keys_are_gone() -> None:
    app = SequenceApp(finished_session(), bot_delay=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ResultScreen)
        await pilot.press("b")
        await pilot.pause()
        await pilot.press("1")
        assert "game is over" in message(app) and "R4.3" not in message(app)
        keys = {b.binding.action for b in app.active_bindings.values() if b.enabled and b.binding.show}
        assert not keys & {"throw", "choose", "hint"}


def test_11_one_turn_count_everywhere(tmp_path: Path) -> None:
    session = GameSession.new(players=2, seed=3, seats=["human", "easy"])
    assert turn_number(session.state) == 1  # the first turn is turn 1, in every interface
    for _ in range(3):
        session.step_bots()
        session.apply(session.state.legal_actions(0)[0], 0)
    path = session.save(tmp_path / "g.json")
    assert f"at turn {turn_number(session.state)}." in GameSession.resume(path).log[-1]


# ------------------------------------------------------------------------------- wishes 12-16


async def test_12_tab_cycles_targets_and_focus_stays_on_the_board() -> None:
    session = session_of(stacked_game([["7h"], []]))
    app = SequenceApp(session, bot_delay=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press(digit(app, "7h"))
        board = game(app).query_one(BoardView)
        seen = set()
        for _ in range(3):
            await pilot.press("tab")
            seen.add(board.cursor)
        assert seen == {parse_cell("d5"), parse_cell("i4")}
        assert app.focused is board
        await pilot.press("space")
        assert board.cursor in seen and app.focused is board


async def test_12_typing_a_cell_plays_there() -> None:
    session = session_of(stacked_game([["7h"], []]))
    app = SequenceApp(session, bot_delay=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press(digit(app, "7h"), "d", "5")  # d is a column here: no draw is owed
        await settle(pilot)
        assert session.state.chip_at(parse_cell("d5")) == 0


async def test_13_hand_order_is_stable_and_the_drawn_card_is_marked() -> None:
    session = session_of(stacked_game([["7h", "2s", "ks"], []]))
    app = SequenceApp(session, bot_delay=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        before = game(app).hand()
        await pilot.press(digit(app, "7h"), "enter")
        await settle(pilot)
        after = game(app).hand()
        kept = list(before)
        kept.remove(parse_card("7h"))
        assert after[: len(kept)] == kept  # the same digits pick the same cards
        hand = game(app).query_one(HandView)
        assert hand.fresh == len(after) - 1
        assert "new" in hand.render().plain


async def test_14_autosave_every_move_and_continue_from_the_start_screen() -> None:
    session = session_of(stacked_game([["7h"], []]))
    app = SequenceApp(session, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press(digit(app, "7h"), "enter")
        await settle(pilot)
        saved = GameSession.resume(autosave_path())
        assert saved.state.history == session.state.history
    app = SequenceApp(bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        await pilot.click("#continue")
        await settle(pilot)
        assert game(app).session.state.history == session.state.history
        assert [s.level for s in game(app).session.seats] == ["human", "easy"]


async def test_15_winning_fives_lit_rematch_and_replay() -> None:
    session = finished_session()
    outcome = session.state.outcome()
    assert outcome is not None and outcome.winner is not None
    app = SequenceApp(session, bot_delay=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        winning = game(app).query_one(BoardView).picture.winning
        assert (winning).bit_count() >= 9  # two fives that may share a space
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        await pilot.press("end", "q")
        await pilot.pause()
        assert isinstance(app.screen, ResultScreen)  # back from the replay
        await pilot.press("r")
        await settle(pilot)
        fresh = game(app).session
        assert fresh is not session
        assert [s.level for s in fresh.seats] == ["human", "easy"] and not fresh.state.is_terminal()


async def test_15_open_a_replay_from_the_start_screen(tmp_path: Path) -> None:
    path = finished_session().save(tmp_path / "done.json")
    app = SequenceApp(bot_delay=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.click("#replay")
        await pilot.pause()
        assert isinstance(app.screen, ReplayPicker)
        app.screen.query_one("#picker-path").value = str(path)  # type: ignore[attr-defined]
        app.screen.query_one("#picker-path").focus()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)  # the replay goes back, it does not quit


async def test_16_hint_shows_the_experts_play_and_why() -> None:
    session = session_of(stacked_game([["7h", "2s"], []]))
    app = SequenceApp(session, bot_delay=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("H")
        await settle(pilot)
        text = message(app)
        assert text.startswith("Hint: "), text  # the expert's play, explained by the evaluator
        assert re.search(r"\. It .+\. \d+% to win\.$", text), text  # and why, with the chance to win
        screen = game(app)
        assert screen.selected is not None  # the card is chosen and the cursor is on its space
        action = screen.session.targets(screen.hand()[screen.selected], 0)[screen.query_one(BoardView).cursor]
        assert action in session.state.legal_actions(0)
        await pilot.press("enter")
        await settle(pilot)
        assert session.state.turn >= 1


async def test_start_screen_focus_is_visible() -> None:
    app = SequenceApp(bot_delay=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        start = app.screen.query_one("#start", Button)
        assert app.focused is start
        assert start.styles.background != app.screen.query_one("#quit", Button).styles.background
