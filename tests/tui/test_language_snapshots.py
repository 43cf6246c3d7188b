"""Snapshots of the terminal game in Spanish and Danish (issue 21); update with ``--snapshot-update``.

Spanish: the screens a game goes through. Danish, the longest words: the tightest screens at the
smallest size the game promises, 80x24 (``test_languages.py`` checks the same layout by its numbers).
"""

from __future__ import annotations

from pathlib import Path

from test_snapshots import finished, pick, table
from tui_helpers import settle

from sequence_game.tui.app import SequenceApp
from sequence_game.tui.controller import GameSession


def test_spanish_new_game_screen(snap_compare, spanish: str) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(SequenceApp(bot_delay=0, autosave=False), terminal_size=(80, 24))


def test_spanish_game_with_a_card_chosen(snap_compare, spanish: str) -> None:  # type: ignore[no-untyped-def]
    session = table()

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot)
        await pilot.press(pick(session, "jd"))

    assert snap_compare(SequenceApp(session, bot_delay=0), terminal_size=(80, 24), run_before=run_before)


def test_spanish_rules_screen(snap_compare, spanish: str) -> None:  # type: ignore[no-untyped-def]
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot)
        await pilot.press("question_mark")

    assert snap_compare(SequenceApp(table(), bot_delay=0), terminal_size=(80, 24), run_before=run_before)


def test_spanish_result_screen(snap_compare, spanish: str) -> None:  # type: ignore[no-untyped-def]
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot)

    assert snap_compare(
        SequenceApp(finished(), bot_delay=0, autosave=False), terminal_size=(80, 24), run_before=run_before
    )


def test_spanish_replay_screen(snap_compare, spanish: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    bots = GameSession.new(players=3, seed=6, seats=["easy"])
    bots.step_bots()
    path = tmp_path / "game.json"
    bots.save(path)

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await pilot.press("end", "left")

    assert snap_compare(SequenceApp(replay=path), terminal_size=(80, 24), run_before=run_before)


def test_danish_game_with_a_one_eyed_jack_at_80x24(snap_compare, danish: str) -> None:  # type: ignore[no-untyped-def]
    session = table()

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot)
        await pilot.press(pick(session, "js"))

    assert snap_compare(SequenceApp(session, bot_delay=0), terminal_size=(80, 24), run_before=run_before)


def test_danish_three_player_hot_seat_hand_at_80x24(snap_compare, danish: str) -> None:  # type: ignore[no-untyped-def]
    session = GameSession.new(players=3, seed=2, seats=["human", "human", "human"])

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot)
        await pilot.press("enter")

    assert snap_compare(
        SequenceApp(session, bot_delay=0, autosave=False), terminal_size=(80, 24), run_before=run_before
    )


def test_danish_new_game_screen_four_players_at_80x24(snap_compare, danish: str) -> None:  # type: ignore[no-untyped-def]
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await pilot.pause()
        pilot.app.screen.query_one("#players").value = 4
        await pilot.pause()

    assert snap_compare(
        SequenceApp(bot_delay=0, autosave=False), terminal_size=(80, 24), run_before=run_before
    )


def test_danish_result_screen_at_80x24(snap_compare, danish: str) -> None:  # type: ignore[no-untyped-def]
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot)

    assert snap_compare(
        SequenceApp(finished(), bot_delay=0, autosave=False), terminal_size=(80, 24), run_before=run_before
    )
