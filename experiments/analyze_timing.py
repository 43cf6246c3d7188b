"""Time ``sequence analyze`` at its default budget on a 2-player game between two heuristic bots.

Usage: python experiments/analyze_timing.py [--seed N] [extra analyze options...]

Plays the game (seed N, default 1: a long one, 72 actions), writes its record to a temporary file,
runs ``sequence analyze`` on it in a subprocess and prints the wall-clock time, the number of
actions and the load average (the goal was under 2 minutes with the sampled rollouts the evaluator
replaced). Today's goal, at most 5 s of one core's CPU a game, is measured by
``analysis_speed.py`` (CPU time, a fixed set of records, the output's digest).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sequence_game import GameConfig, new_game
from sequence_game.bots import make_bot
from sequence_game.records import write_record


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    args, extra = parser.parse_known_args()
    state = new_game(GameConfig(players=2), seed=args.seed)
    bots = [make_bot("heuristic", seed=1), make_bot("heuristic", seed=2)]
    while not state.is_terminal():
        seat = state.current_seat
        state.apply(bots[seat].select_action(state.view(seat)), seat)
    record = write_record(state)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.json"
        path.write_text(json.dumps(record))
        command = [sys.executable, "-m", "sequence_game", "analyze", str(path), "--quiet", *extra]
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        wall = time.perf_counter() - started
    if done.returncode != 0:
        print(done.stderr, file=sys.stderr)
        return done.returncode
    print(done.stdout.splitlines()[-1])
    print(
        f"{len(record['actions'])} actions, {wall:.1f} s wall for: sequence analyze GAME {' '.join(extra)}".rstrip()
    )
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
