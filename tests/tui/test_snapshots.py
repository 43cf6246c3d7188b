"""Snapshot tests of the screens (pytest-textual-snapshot); update with ``--snapshot-update``."""

from __future__ import annotations

from pathlib import Path

from tui_helpers import settle, stacked_game

from sequence_game.analysis import Budget
from sequence_game.cards import parse_card
from sequence_game.tui.app import SequenceApp
from sequence_game.tui.controller import GameSession, make_seats


def table(seats: tuple[str, ...] = ("human", "easy"), **kw: object) -> GameSession:
    state = stacked_game([["7h", "jd", "js"], ["2s"]], **kw)  # type: ignore[arg-type]
    state.apply("7h@d5")
    state.apply("2s@b0")
    return GameSession(state, make_seats(state.config, list(seats)), seed=1)


def pick(session: GameSession, card: str) -> str:
    return str(session.state.hand(0).index(parse_card(card)) + 1)


def test_new_game_screen(snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(SequenceApp(bot_delay=0), terminal_size=(80, 24))


def test_game_with_a_card_chosen(snap_compare) -> None:  # type: ignore[no-untyped-def]
    session = table()

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot)
        await pilot.press(pick(session, "jd"))

    assert snap_compare(SequenceApp(session, bot_delay=0), terminal_size=(80, 24), run_before=run_before)


def test_one_eyed_jack_targets_wide_terminal(snap_compare) -> None:  # type: ignore[no-untyped-def]
    session = table()

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot)
        await pilot.press(pick(session, "js"))

    assert snap_compare(SequenceApp(session, bot_delay=0), terminal_size=(120, 40), run_before=run_before)


def test_rules_screen(snap_compare) -> None:  # type: ignore[no-untyped-def]
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot)
        await pilot.press("question_mark")

    assert snap_compare(SequenceApp(table(), bot_delay=0), terminal_size=(80, 24), run_before=run_before)


def test_pass_screen_hot_seat(snap_compare) -> None:  # type: ignore[no-untyped-def]
    session = table(seats=("human", "human"))

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot)
        await pilot.press("enter")  # seat 0 takes the keyboard first
        await settle(pilot)
        await pilot.press(pick(session, "jd"), "enter")
        await settle(pilot)

    assert snap_compare(SequenceApp(session, bot_delay=0), terminal_size=(80, 24), run_before=run_before)


def finished() -> GameSession:
    bots = GameSession.new(players=2, seed=3, seats=["easy"])
    bots.step_bots()
    return GameSession(bots.state, make_seats(bots.state.config, ["human", "easy"]), seed=1)


def test_result_screen(snap_compare) -> None:  # type: ignore[no-untyped-def]
    finished_game = finished()

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot)

    assert snap_compare(
        SequenceApp(finished_game, bot_delay=0, autosave=False), terminal_size=(80, 24), run_before=run_before
    )


def test_winning_fives_lit_on_the_board(snap_compare) -> None:  # type: ignore[no-untyped-def]
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot)
        await pilot.press("b")  # from the result back to the board

    assert snap_compare(
        SequenceApp(finished(), bot_delay=0, autosave=False), terminal_size=(80, 24), run_before=run_before
    )


def test_three_player_hot_seat_hand_at_80x24(snap_compare) -> None:  # type: ignore[no-untyped-def]
    session = GameSession.new(players=3, seed=2, seats=["human", "human", "human"])

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot)
        await pilot.press("enter")

    assert snap_compare(
        SequenceApp(session, bot_delay=0, autosave=False), terminal_size=(80, 24), run_before=run_before
    )


def test_new_game_screen_four_players(snap_compare) -> None:  # type: ignore[no-untyped-def]
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await pilot.pause()
        pilot.app.screen.query_one("#players").value = 4
        await pilot.pause()

    assert snap_compare(
        SequenceApp(bot_delay=0, autosave=False), terminal_size=(80, 24), run_before=run_before
    )


def test_replay_screen(snap_compare, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    bots = GameSession.new(players=3, seed=6, seats=["easy"])
    bots.step_bots()
    path = tmp_path / "game.json"
    bots.save(path)

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await pilot.press("end", "left")

    assert snap_compare(SequenceApp(replay=path), terminal_size=(80, 24), run_before=run_before)


def test_replay_with_analysis_at_a_labelled_move(snap_compare, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    bots = GameSession.new(players=2, seed=2, seats=["easy"])
    bots.step_bots()
    path = tmp_path / "game.json"
    bots.save(path)
    budget = Budget(seconds=None, samples=2, bot_simulations=2)  # no clock: the same figures every run

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await pilot.press("a")
        for _ in range(600):
            if pilot.app.screen.analysis is not None:
                break
            await pilot.pause(0.1)
        await pilot.press("right_square_bracket")  # the first labelled move

    assert snap_compare(
        SequenceApp(replay=path, analysis_budget=budget), terminal_size=(80, 24), run_before=run_before
    )
