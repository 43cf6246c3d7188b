"""CPU time of the default post-game analysis of 2-player games, and a digest of its output.

Usage:
    python experiments/analysis_speed.py make DIR [--games 500] [--first 50] [--longest 10] [--players 2]
    python experiments/analysis_speed.py measure DIR [--json OUT] [--outputs OUT.jsonl.gz] [--repeat 1]
        [--reading-players N]
    python experiments/analysis_speed.py compare A.jsonl.gz B.jsonl.gz
    python experiments/analysis_speed.py cli DIR [--count 3]

``make`` plays ``--games`` games of ``hard`` against ``hard`` (seeds 0 up, as
``analysis_skill.py`` plays them, the bots seeded by the game) and writes the records of the
first ``--first`` and of the ``--longest`` longest (without repeats) to DIR: a fixed set that
holds the long games, where the analysis costs most.

``measure`` analyses every record of DIR in this one process at the default budget
(``analysis.analyze_record``), with one BLAS thread, and reports the CPU seconds
(``time.process_time``) per game: median, p90 and max, with the actions of each game. Start-up
(imports, the evaluator's weights) is paid once before the first game and is not in the
figures; ``cli`` measures it, running ``sequence analyze RECORD --quiet`` in a child on the
``--count`` longest records and reading the child's user + system CPU. ``--outputs`` keeps
every game's analysis JSON (without its wall-clock ``seconds``) and its SHA-256;
``compare`` checks two such files: same digests, or else every number within 1e-9 and
every string equal.

Why CPU and one process: the development machine is a shared 2-core one, where wall time
measures the other jobs; the CPU time of one process on one BLAS thread is what the goal
("at most 5 s on one core") is about.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")  # before NumPy loads: one core a game

from sequence_game import GameConfig, new_game
from sequence_game.analysis import analyze_record
from sequence_game.bots import make_bot
from sequence_game.records import write_record


def play(seed: int, players: int = 2) -> dict[str, Any]:
    """One game of ``hard`` on every seat on deal ``seed``."""
    state = new_game(GameConfig(players=players), seed=seed)
    bots = [make_bot("hard", seed=seed + k) for k in range(players)]
    while not state.is_terminal():
        seat = state.current_seat
        state.apply(bots[seat].select_action(state.view(seat)), seat)
    return write_record(state)


def make(directory: Path, games: int, first: int, longest: int, players: int = 2) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    records = [play(seed, players) for seed in range(games)]
    by_length = sorted(range(games), key=lambda s: (-len(records[s]["actions"]), s))
    chosen = sorted(set(range(first)) | set(by_length[:longest]))
    for seed in chosen:
        path = directory / (
            f"hard-hard-{seed:04d}.json" if players == 2 else f"hard-{players}p-{seed:04d}.json"
        )
        path.write_text(json.dumps(records[seed]))
    lengths = [len(records[s]["actions"]) for s in chosen]
    print(f"{len(chosen)} records in {directory}: {min(lengths)}-{max(lengths)} actions")


def canonical(analysis: dict[str, Any]) -> str:
    """The analysis JSON without its wall-clock time, keys sorted: equal for equal analyses."""
    out = dict(analysis)
    out.pop("seconds", None)
    return json.dumps(out, sort_keys=True)


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def measure(directory: Path, out_json: Path | None, outputs: Path | None, repeat: int) -> None:
    paths = sorted(directory.glob("*.json"))
    analyze_record(paths[0].read_text())  # warm up: imports, weights, caches
    rows: list[dict[str, Any]] = []
    dumps: list[dict[str, Any]] = []
    for path in paths:
        text = path.read_text()
        actions = len(json.loads(text)["actions"])
        cpus: list[float] = []
        for _ in range(repeat):
            started = time.process_time()
            analysis = analyze_record(text)
            cpus.append(time.process_time() - started)
        body = canonical(analysis.to_json())
        digest = hashlib.sha256(body.encode()).hexdigest()
        rows.append({"record": path.name, "actions": actions, "cpu": min(cpus), "sha256": digest})
        dumps.append({"record": path.name, "sha256": digest, "analysis": json.loads(body)})
        print(f"{path.name}: {actions} actions, {min(cpus):.3f} s CPU", flush=True)
    cpu: list[float] = [r["cpu"] for r in rows]
    summary: dict[str, Any] = {
        "games": len(rows),
        "actions_median": statistics.median(r["actions"] for r in rows),
        "actions_max": max(r["actions"] for r in rows),
        "cpu_median": statistics.median(cpu),
        "cpu_p90": quantile(cpu, 0.9),
        "cpu_max": max(cpu),
        "cpu_total": sum(cpu),
        "load_average": os.getloadavg(),
        "command": " ".join([Path(sys.argv[0]).name, *sys.argv[1:]]),
    }
    print(json.dumps(summary))
    if out_json is not None:
        out_json.write_text(json.dumps({"summary": summary, "games": rows}, indent=1) + "\n")
    if outputs is not None:
        with gzip.open(outputs, "wt") as f:
            for dump in dumps:
                f.write(json.dumps(dump) + "\n")


def _close(a: Any, b: Any, where: str, problems: list[str]) -> None:
    if isinstance(a, dict) and isinstance(b, dict):
        if a.keys() != b.keys():
            problems.append(f"{where}: keys differ")
        for key in a.keys() & b.keys():
            _close(a[key], b[key], f"{where}.{key}", problems)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            problems.append(f"{where}: lengths {len(a)} != {len(b)}")
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            _close(x, y, f"{where}[{i}]", problems)
    elif isinstance(a, float) or isinstance(b, float):
        if not (isinstance(a, (int, float)) and isinstance(b, (int, float)) and abs(a - b) <= 1e-9):
            problems.append(f"{where}: {a!r} != {b!r}")
    elif a != b:
        problems.append(f"{where}: {a!r} != {b!r}")


def compare(first: Path, second: Path) -> int:
    def load(path: Path) -> dict[str, dict[str, Any]]:
        with gzip.open(path, "rt") as f:
            return {d["record"]: d for d in map(json.loads, f)}

    a, b = load(first), load(second)
    if a.keys() != b.keys():
        print(f"different records: {sorted(a.keys() ^ b.keys())}")
        return 1
    same = sum(a[r]["sha256"] == b[r]["sha256"] for r in a)
    problems: list[str] = []
    for record in sorted(a):
        _close(a[record]["analysis"], b[record]["analysis"], record, problems)
    print(f"{same} of {len(a)} analyses identical (SHA-256); {len(problems)} differences over 1e-9")
    for problem in problems[:20]:
        print(" ", problem)
    return 1 if problems else 0


def cli(directory: Path, count: int) -> None:
    paths = sorted(directory.glob("*.json"), key=lambda p: -len(json.loads(p.read_text())["actions"]))
    for path in paths[:count]:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        command = [sys.executable, "-m", "sequence_game", "analyze", str(path), "--quiet"]
        subprocess.run(command, check=True, capture_output=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        actions = len(json.loads(path.read_text())["actions"])
        print(f"sequence analyze {path.name} --quiet: {actions} actions, {cpu:.2f} s CPU (start-up included)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("make")
    p.add_argument("directory", type=Path)
    p.add_argument("--games", type=int, default=500)
    p.add_argument("--first", type=int, default=50)
    p.add_argument("--longest", type=int, default=10)
    p.add_argument("--players", type=int, default=2, help="the table (2 for the goal's figures)")
    p = sub.add_parser("measure")
    p.add_argument("directory", type=Path)
    p.add_argument("--json", type=Path)
    p.add_argument("--outputs", type=Path)
    p.add_argument("--repeat", type=int, default=1, help="analyses per game; the least CPU counts")
    p.add_argument(
        "--reading-players",
        type=int,
        help="check labels with the hand reading up to this table only (analysis.check.READING_PLAYERS)",
    )
    p = sub.add_parser("compare")
    p.add_argument("first", type=Path)
    p.add_argument("second", type=Path)
    p = sub.add_parser("cli")
    p.add_argument("directory", type=Path)
    p.add_argument("--count", type=int, default=3)
    args = parser.parse_args()
    if args.command == "make":
        make(args.directory, args.games, args.first, args.longest, args.players)
    elif args.command == "measure":
        if args.reading_players is not None:
            from sequence_game.analysis import check

            check.READING_PLAYERS = args.reading_players
        measure(args.directory, args.json, args.outputs, args.repeat)
    elif args.command == "compare":
        return compare(args.first, args.second)
    else:
        cli(args.directory, args.count)
    return 0


if __name__ == "__main__":
    sys.exit(main())
