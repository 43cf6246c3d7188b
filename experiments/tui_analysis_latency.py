"""How responsive the terminal replay stays while its post-game analysis runs in a worker thread.

Plays a 2-player game between two bots, opens its replay headless (``App.run_test``), presses
"right" every ``--every`` seconds and measures how long each key takes to be handled (the replay's
step changes): first with no analysis, then while "Analyse" runs at the given budget. Prints the
median and the worst latency of each, the analysis' progress, and how long the stop ("a") took.

    python experiments/tui_analysis_latency.py [--seed 1] [--seconds 20] [--budget-seconds 1.0]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from sequence_game.analysis import Budget
from sequence_game.tui.app import SequenceApp
from sequence_game.tui.controller import GameSession
from sequence_game.tui.replay_screen import ReplayScreen


async def key_latencies(app: SequenceApp, screen: ReplayScreen, seconds: float, every: float) -> list[float]:
    """Press "right" (or "home" at the end) every ``every`` seconds; the time until each is handled."""
    out: list[float] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        before = screen.model.step
        key = "home" if before == screen.model.steps else "right"
        started = time.monotonic()
        app.simulate_key(key)
        while screen.model.step == before:
            await asyncio.sleep(0.001)
        out.append(time.monotonic() - started)
        await asyncio.sleep(every)
    return out


def describe(name: str, values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    worst = sorted(range(len(ms)), key=lambda i: -ms[i])[:3]
    return f"{name}: {len(ms)} keys, median {statistics.median(ms):.1f} ms, worst " + ", ".join(
        f"{ms[i]:.1f} ms (key {i + 1})" for i in worst
    )


async def measure(args: argparse.Namespace, record: Path) -> None:
    budget = Budget(seconds=args.budget_seconds)
    app = SequenceApp(replay=record, analysis_budget=budget)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        print(describe("idle replay", await key_latencies(app, screen, args.seconds / 4, args.every)))
        screen.action_analyse()
        busy = await key_latencies(app, screen, args.seconds, args.every)
        assert screen.job is not None
        job = screen.job
        done, total = job.progress
        print(describe("while analysing", busy) + f" (analysis at {done}/{total} moves)")
        started = time.monotonic()
        app.simulate_key("a")  # stop
        while screen.job is not None:
            await asyncio.sleep(0.001)
        print(
            f"stop: handled, and the analysis process ended ({not job.process.is_alive()}), "
            f"{(time.monotonic() - started) * 1000:.1f} ms after the key"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seed", type=int, default=1, help="the bot game's seed")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long to press keys while analysing")
    parser.add_argument("--every", type=float, default=0.25, help="seconds between key presses")
    parser.add_argument("--budget-seconds", type=float, default=1.0, help="the analysis' seconds a move")
    args = parser.parse_args()
    session = GameSession.new(players=2, seed=args.seed, seats=["heuristic"])
    session.step_bots()
    with tempfile.TemporaryDirectory() as folder:
        record = Path(folder) / "game.json"
        session.save(record)
        print(f"game: {len(session.state.history)} history entries, seed {args.seed}")
        asyncio.run(measure(args, record))


if __name__ == "__main__":
    main()
