"""The benchmark protocol's leaderboard (docs/benchmark.md): every listed agent rated by
``sequence benchmark`` on the same ladder, deals and budgets, then one Markdown table.

    python experiments/leaderboard.py --games 40 --workers 2
    python experiments/leaderboard.py --table-only      # the table again from the saved JSON
    SEQUENCE_SB3_MODEL=out/sb3/model.zip SEQUENCE_RLLIB_CHECKPOINT=out/rllib/checkpoint \
        python experiments/leaderboard.py --games 40      # with the trained examples too

Each agent's JSON is kept in ``experiments/results/leaderboard/`` and a finished agent is not run
again (delete its file to redo it).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

from sequence_game.bots import EXPERT

OUT = Path(__file__).resolve().parent / "results" / "leaderboard"
AGENTS = [
    ("random", "random", None),
    ("greedy (medium)", "greedy", None),
    ("examples/benchmark_agent.py", "python:examples.benchmark_agent:make", None),
    ("policy (the shipped network)", "policy", None),
    ("hard", "heuristic", None),
    ("expert at 100 rollouts", EXPERT, 100),
    ("expert at 300 rollouts", EXPERT, 300),
]
# the trained examples of docs/environment.md, where their weights are at hand
if os.environ.get("SEQUENCE_RLLIB_CHECKPOINT"):
    AGENTS.append(
        ("RLlib self-play example (60,000 steps)", "python:examples.rl_benchmark_agents:rllib", None)
    )
if os.environ.get("SEQUENCE_SB3_MODEL"):
    AGENTS.append(("MaskablePPO example (163,840 steps)", "python:examples.rl_benchmark_agents:sb3", None))


def slug(label: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-")


def rate(label: str, agent: str, simulations: int | None, games: int, workers: int) -> dict[str, object]:
    path = OUT / f"{slug(label)}.json"
    if path.exists():
        return dict(json.loads(path.read_text()))
    command = [
        sys.executable,
        "-m",
        "sequence_game",
        "benchmark",
        agent,
        "--games",
        str(games),
        "--workers",
        str(workers),
        "--out",
        str(path),
    ]
    if simulations is not None:
        command += ["--simulations", str(simulations)]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return dict(json.loads(path.read_text()))


def table(results: list[tuple[str, dict[str, object]]]) -> str:
    lines = [
        "| agent | 2p rating (95%) | 4p-teams rating (95%) | 2p score vs random / greedy / hard / expert@100 | 4p-teams score vs the same |",
        "| --- | --- | --- | --- | --- |",
    ]
    for label, result in results:
        cells = [label]
        tables = result["tables"]
        assert isinstance(tables, dict)
        for name in ("2p", "4p-teams"):
            r = tables[name]["rating"]
            cells.append(f"{r['mu']:.1f} [{r['low']:.1f}, {r['high']:.1f}]")
        cells.extend(
            " / ".join(f"{100 * x['score']:.0f}%" for x in tables[name]["rungs"])
            for name in ("2p", "4p-teams")
        )
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=40, help="games against each rung at each table")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--table-only", action="store_true")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    results = []
    for label, agent, simulations in AGENTS:
        path = OUT / f"{slug(label)}.json"
        if args.table_only and not path.exists():
            continue
        results.append((label, rate(label, agent, simulations, args.games, args.workers)))
        print(f"rated {label}", file=sys.stderr, flush=True)
    print(table(results))


if __name__ == "__main__":
    main()
