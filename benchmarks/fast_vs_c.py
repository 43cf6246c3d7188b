"""The fast engine against a C reference implementation of the engine, measured in the same run.

The C reference is not part of this repository: its source file is given with ``--source``. It
must build with ``gcc -O2 -march=native`` from that one file, take the number of games and a seed
as its two arguments, play random two-player games and print ``games/s=...`` and
``mean_turns=...``. This script builds it into a temporary folder, then alternates rounds: the C
program plays ``--games`` random two-player games, then ``sequence bench --engine fast`` plays as
many in this process. Both are counted per CPU-second of their own process (the C child's from
``getrusage``), so other load on the machine disturbs the ratio less; the median ratio over the
rounds is reported, with the machine's load.

The two play different random policies: the C program picks a playable card of the hand (a card
held twice counts twice), then a cell for it; the fast engine, as ``GameState.random_action``,
picks among the distinct legal actions (so a two-eyed jack, with dozens of cells, is played more
often). Both exchange a dead card first. Games last about as long either way (80 turns), and the
ratio per turn (``turn_ratio``, from each side's mean turns per game) is reported beside the
ratio per game. Figures and the C program's speed: ``docs/fast.md``.

    .venv/bin/python benchmarks/fast_vs_c.py --source path/to/reference.c --rounds 5
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from sequence_game.commands.bench import bench_fast
from sequence_game.config import GameConfig


def build(source: Path, folder: Path) -> Path:
    binary = folder / "speedref"
    subprocess.run(["gcc", "-O2", "-march=native", "-o", str(binary), str(source)], check=True)
    return binary


def run_c(binary: Path, games: int, seed: int) -> tuple[float, float]:
    """Games per CPU-second of the C program (user + system time of the child), turns per game."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([str(binary), str(games), str(seed)], check=True, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    turns = re.search(r"mean_turns=([0-9.]+)", out.stdout)
    if "games/s=" not in out.stdout or turns is None:
        raise RuntimeError(f"unexpected speedref output: {out.stdout!r}")
    return games / max(cpu, 1e-9), float(turns.group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, required=True, help="the C reference engine's source file")
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    if not args.source.is_file():
        print(f"no C reference at {args.source} (give --source)", file=sys.stderr)
        return 2
    config = GameConfig(players=2)
    rounds = []
    with tempfile.TemporaryDirectory() as folder:
        binary = build(args.source, Path(folder))
        for r in range(args.rounds):
            c, c_turns = run_c(binary, args.games, r + 1)
            fast = bench_fast(config, args.games, r + 1)
            ratio = fast["games_per_second"] / c
            rounds.append(
                {
                    "c_games_per_cpu_second": round(c),
                    "fast_games_per_cpu_second": fast["games_per_second"],
                    "ratio": round(ratio, 3),
                    "c_turns_per_game": c_turns,
                    "fast_turns_per_game": fast["turns_per_game"],
                    "turn_ratio": round(ratio * fast["turns_per_game"] / c_turns, 3),
                    "compile_seconds": fast["compile_seconds"],
                }
            )
            print(json.dumps(rounds[-1]), file=sys.stderr, flush=True)
    summary = {
        "games_per_round": args.games,
        "rounds": rounds,
        "median_ratio": statistics.median(r["ratio"] for r in rounds),
        "ratio_range": [min(r["ratio"] for r in rounds), max(r["ratio"] for r in rounds)],
        "median_turn_ratio": round(statistics.median(r["turn_ratio"] for r in rounds), 3),
        "median_fast_games_per_second": statistics.median(r["fast_games_per_cpu_second"] for r in rounds),
        "median_c_games_per_second": statistics.median(r["c_games_per_cpu_second"] for r in rounds),
        "load_average": os.getloadavg(),
        "cpus": os.cpu_count(),
    }
    print(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
