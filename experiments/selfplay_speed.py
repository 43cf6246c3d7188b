"""Self-play data: games a CPU-second written to disk, and bytes on disk a million positions
(issue 44, part 4; docs/selfplay-data.md).

    python experiments/selfplay_speed.py --games 20000 --out experiments/results/selfplay_speed.json

Each case is one process making its shards (``sequence_game.research.selfplay_data.run`` with one
worker), timed in CPU seconds of that process (compiling excluded: one warm-up shard first), so
that other load on the machine disturbs it little. Sizes are the Parquet files (zstd) on disk.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

import pyarrow.parquet as pq

from sequence_game.research.selfplay_data import Plan, run

CASES = [
    ("2 players, hard vs hard", {"players": 2, "bots": ("hard",)}),
    ("2 players, random vs random", {"players": 2, "bots": ("random",)}),
    ("4 players in 2 teams, hard", {"players": 4, "teams": 2, "bots": ("hard",)}),
]


def measure(label: str, fields: dict[str, object], games: int, observations: bool) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        run(Plan(**fields, games=200, shard_size=200, seed=1, observations=observations), Path(tmp) / "warm")  # type: ignore[arg-type]
        out = Path(tmp) / "data"
        plan = Plan(**fields, games=games, shard_size=max(1, games // 4), seed=0, observations=observations)  # type: ignore[arg-type]
        start = time.process_time()
        run(plan, out)
        cpu = time.process_time() - start
        positions = sum(pq.ParquetFile(p).metadata.num_rows for p in out.glob("positions-*.parquet"))
        decisions = sum(
            pq.read_table(p, columns=["actions"])
            .column("actions")
            .combine_chunks()
            .value_lengths()
            .to_numpy()
            .sum()
            for p in out.glob("games-*.parquet")
        )
        games_bytes = sum(p.stat().st_size for p in out.glob("games-*.parquet"))
        pos_bytes = sum(p.stat().st_size for p in out.glob("positions-*.parquet"))
    return {
        "case": label,
        "observations": observations,
        "games": games,
        "cpu_seconds": round(cpu, 2),
        "games_per_cpu_second": round(games / cpu, 1),
        "decisions_per_game": round(int(decisions) / games, 1),
        "games_bytes_per_million_positions": round(games_bytes / int(decisions) * 1e6),
        "positions_bytes_per_million_positions": round(pos_bytes / positions * 1e6) if positions else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    rows = []
    for label, fields in CASES:
        for observations in (False, True):
            row = measure(label, fields, args.games if not observations else args.games // 4, observations)
            print(json.dumps(row), flush=True)
            rows.append(row)
    if args.out:
        args.out.write_text(json.dumps(rows, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
