"""The post-game analysis in the terminal (issue 17 item 3, issue 19 item 16): the replay's Analyse
runs in a worker with a progress bar, stays responsive and stoppable, then labels the moves, lets
them be jumped to, charts the chances and sums up each side; the result screen offers it against
bots; the plain replay prints the text report.

The analysis is the evaluator's (docs/analysis.md): deterministic, a second or two for these
games; ``SLOW`` waits after each move so that keys can be pressed while it runs."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path

import pytest
from rich.text import Text
from textual.widgets import Button, ProgressBar, Static
from tui_helpers import settle

from sequence_game.analysis import Budget, GameAnalysis, analyze_record
from sequence_game.i18n import card_short, notation_label
from sequence_game.tui.analysis_view import BARS, chart_columns, chart_text, move_line
from sequence_game.tui.app import SequenceApp
from sequence_game.tui.controller import GameSession, ReplayModel, make_seats
from sequence_game.tui.plain import run_plain_replay
from sequence_game.tui.replay_screen import ANALYSIS_SEED, ReplayScreen
from sequence_game.tui.screens import ResultScreen

# anyio's pytest plugin (anyio comes with httpx in the test extra) runs the async tests.
pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


#: The old budget's fields are still accepted (and have no effect): same figures every run.
TINY = Budget(seconds=None, samples=2, bot_simulations=2)
#: 0.2 s of waiting after each move: the analysis of a 31-action game lasts at least 6 s, long
#: enough to press keys while it runs (the test stops it long before).
SLOW = Budget(delay=0.2)


def bot_game(seed: int = 2) -> GameSession:
    """A whole game between two easy bots (seed 2: 31 actions, two of them labelled mistakes)."""
    session = GameSession.new(players=2, seed=seed, seats=["easy"])
    session.step_bots()
    assert session.state.is_terminal()
    return session


@pytest.fixture
def record(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    bot_game().save(path)
    return path


def replay_screen(app: SequenceApp) -> ReplayScreen:
    assert isinstance(app.screen, ReplayScreen)
    return app.screen


def static_text(screen: ReplayScreen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


async def wait_for_analysis(pilot, seconds: float = 60.0) -> GameAnalysis:  # type: ignore[no-untyped-def]
    screen = replay_screen(pilot.app)
    end = time.monotonic() + seconds
    while screen.job is not None and time.monotonic() < end:
        await pilot.pause(0.05)
    assert screen.analysis is not None, "the analysis never finished"
    return screen.analysis


async def test_analyse_labels_the_moves_and_jumps_between_them(record: Path) -> None:
    app = SequenceApp(replay=record, analysis_budget=TINY)
    async with app.run_test(size=(100, 32)) as pilot:
        screen = replay_screen(app)
        assert not screen.query_one("#analysis").has_class("shown")
        await pilot.press("a")
        analysis = await wait_for_analysis(pilot)
        # The very figures of the analysis API, same record, same seed and budget.
        expected = analyze_record(json.loads(record.read_text()), TINY, seed=ANALYSIS_SEED)
        # (the child runs with one BLAS thread: its sums may differ in the ninth decimal)
        assert [(m.index, m.label) for m in analysis.moves] == [(m.index, m.label) for m in expected.moves]
        got = [x for m in analysis.moves for x in (m.before, m.after)]
        assert got == pytest.approx([x for m in expected.moves for x in (m.before, m.after)], abs=1e-6)
        labelled = [m for m in analysis.moves if m.label]
        assert labelled, "this game has labelled moves"
        assert "labelled" in static_text(screen, "#analysis-title")

        # ] jumps to the first labelled move: the step that plays it, with its label and swing.
        await pilot.press("right_square_bracket")
        first = labelled[0]
        assert screen.model.first_entry(screen.model.step) == first.index
        line = static_text(screen, "#analysis-move")
        assert first.label in line and notation_label(first.move) in line
        assert f"{first.before * 100:.0f}% -> {first.after * 100:.0f}%" in line
        # ... and [ comes back to it from further on.
        await pilot.press("end", "left_square_bracket")
        assert screen.model.first_entry(screen.model.step) == labelled[-1].index

        # Each side's account and the largest swings; the full report on r.
        summary = static_text(screen, "#analysis-summary")
        assert "Blue: accuracy" in summary and "Green: accuracy" in summary
        assert "Largest swings at steps" in summary
        await pilot.press("r")
        await pilot.pause()
        assert "idx mover" in str(app.screen.query_one("#page Static", Static).render())


async def test_analysis_runs_in_the_background_with_a_progress_bar_and_stops(record: Path) -> None:
    app = SequenceApp(replay=record, analysis_budget=SLOW)
    async with app.run_test(size=(100, 32)) as pilot:
        screen = replay_screen(app)
        await pilot.press("a")
        bar = screen.query_one("#analysis-progress", ProgressBar)
        end = time.monotonic() + 30
        while not bar.progress and time.monotonic() < end:
            await pilot.pause(0.05)
        job = screen.job
        assert job is not None and job.process.is_alive(), "still analysing"
        assert bar.total == 31 and 0 < bar.progress < 31
        assert "moves" in static_text(screen, "#analysis-title")
        # The interface answers while the analysis runs: stepping through the record works.
        await pilot.press("right", "right")
        assert screen.model.step == 2 and "Step 2 of" in static_text(screen, "#replay-status")
        assert screen.job is job and job.process.is_alive(), "the keys were handled while it ran"
        # a stops it at once: the child process is ended, and nothing is shown.
        await pilot.press("a")
        assert screen.job is None and not job.process.is_alive()
        assert "stopped" in static_text(screen, "#analysis-title") and not bar.display
        await pilot.pause(0.3)
        assert screen.analysis is None and not screen.query_one("#analysis-summary", Static).render()


async def test_leaving_the_replay_ends_its_analysis(record: Path) -> None:
    app = SequenceApp(replay=record, analysis_budget=SLOW)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("a")
        job = replay_screen(app).job
        assert job is not None
    assert not job.process.is_alive()


async def test_result_screen_offers_the_analysis_against_bots() -> None:
    bots = bot_game()
    session = GameSession(bots.state, make_seats(bots.state.config, ["human", "easy"]), seed=1)
    app = SequenceApp(session, bot_delay=0, autosave=False, analysis_budget=TINY)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ResultScreen)
        assert app.screen.query_one("#analyse", Button)
        await pilot.press("a")  # opens the replay of this game, analysing
        await pilot.pause()
        screen = replay_screen(app)
        assert screen.record_name == "this game"
        analysis = await wait_for_analysis(pilot)
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, ResultScreen)
        # The replay opened again shows the same analysis at once, without a new run.
        await pilot.press("p")
        await pilot.pause()
        again = replay_screen(app)
        assert again.analysis is analysis and again.job is None
        assert again.query_one("#analysis").has_class("shown")


async def test_no_analyse_after_a_game_between_friends() -> None:
    bots = bot_game()
    session = GameSession(bots.state, make_seats(bots.state.config, ["human", "human"]), seed=1)
    app = SequenceApp(session, bot_delay=0, autosave=False, analysis_budget=TINY)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.pause()
        assert isinstance(app.screen, ResultScreen)
        assert not app.screen.query("#analyse")
        await pilot.press("a")  # nothing happens
        await pilot.pause()
        assert isinstance(app.screen, ResultScreen)


def test_replay_model_maps_steps_to_record_entries(record: Path) -> None:
    model = ReplayModel(str(record))
    assert model.first_entry(0) is None and model.first_entry(1) == 0
    for step in range(1, model.steps + 1):
        entry = model.first_entry(step)
        assert entry is not None and model.step_of_entry(entry) == step


def test_chart_is_on_a_fixed_scale_and_marks_labels(record: Path) -> None:
    analysis = analyze_record(json.loads(record.read_text()), TINY, seed=ANALYSIS_SEED)
    columns = chart_columns(analysis.moves, 10)
    assert len(columns) == 10 and [m for c in columns for m in c] == analysis.moves
    assert chart_columns(analysis.moves, 100) == [[m] for m in analysis.moves]
    chart = chart_text(analysis, 2 + len(analysis.moves))
    lines = chart.plain.split("\n")
    assert len(lines) == analysis.sides + 1
    for m in analysis.moves:  # a side's column after its own move shows its chance on a 0-100% scale
        bar = lines[m.side][2 + m.index]
        assert bar == BARS[min(7, int(m.after_draw * 8))]
    marks = lines[-1][2:]
    assert {i for i, c in enumerate(marks) if c != " "} == {m.index for m in analysis.moves if m.label}


def test_move_line_shows_label_swing_best_plays_and_draw(record: Path) -> None:
    analysis = analyze_record(json.loads(record.read_text()), TINY, seed=ANALYSIS_SEED)
    move = next(m for m in analysis.moves if m.label and m.drawn)
    line = move_line(move)
    assert isinstance(line, Text)
    text = line.plain
    assert move.label is not None and move.label in text
    # in the symbols of the rest of the screen (issue 45: it showed 4c@e3 and "drew kh")
    best = ", ".join(f"{notation_label(a.move)} {100 * a.chance:.0f}%" for a in move.alternatives)
    assert len(move.alternatives) == 3 and f"best: {best}" in text
    assert move.drawn is not None and f"drew {card_short(move.drawn)}" in text
    assert "@" not in text and f"drew {move.drawn}" not in text


def test_plain_replay_prints_the_analysis(record: Path) -> None:
    out = io.StringIO()
    assert run_plain_replay(record, io.StringIO("n\na\nq\n"), out, budget=TINY) == 0
    text = out.getvalue()
    assert "a = analyse" in text and "31/31 moves" in text
    assert "idx mover" in text and "accuracy" in text
    assert any(label in text for label in ("missed win", "missed block", "blunder", "mistake"))
