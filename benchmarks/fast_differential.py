"""Differential check: the fast engine against the pure one, game after game, every action.

Games go round the ten configurations of R2.1/R2.2 (seeds ``--start`` on); each is played in
lock step by both engines (``sequence_game.fast.differential``), comparing the whole state, the
legal action set and the outcome after every action. Stops after ``--games`` games or
``--seconds`` seconds, whichever comes first, and prints one JSON summary (exit 1 on any
disagreement, with the first one's message and seed).

    nice -n 10 .venv/bin/python benchmarks/fast_differential.py --games 100000 --seconds 3600
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter

from sequence_game.fast.differential import CONFIGS, Mismatch, play_lockstep


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--seconds", type=float, default=float("inf"))
    parser.add_argument("--start", type=int, default=0, help="first seed")
    parser.add_argument("--progress", type=int, default=0, help="print a line every N games")
    args = parser.parse_args()
    start = time.perf_counter()
    per_config: Counter[str] = Counter()
    totals: Counter[str] = Counter()
    failures: list[str] = []
    played = 0
    for i in range(args.games):
        if time.perf_counter() - start > args.seconds:
            break
        config = CONFIGS[i % len(CONFIGS)]
        seed = args.start + i
        key = f"{config.players}p{config.sides}s"
        try:
            result = play_lockstep(config, seed)
        except Mismatch as exc:
            failures.append(str(exc))
            totals["mismatches"] += 1
            if len(failures) >= 10:
                break
            continue
        played += 1
        per_config[key] += 1
        totals["actions"] += result.actions
        totals["reshuffles"] += result.reshuffles
        totals["dead_exchanges"] += result.dead_exchanges
        totals["stuck_discards"] += result.stuck_discards
        outcome = result.outcome
        totals["drawn" if outcome is not None and outcome.winner is None else "won"] += 1
        totals["games_with_reshuffle"] += result.reshuffles > 0
        if args.progress and played % args.progress == 0:
            print(f"{played} games agree ({time.perf_counter() - start:.0f} s)", file=sys.stderr, flush=True)
    summary = {
        "games_agreeing": played,
        "mismatches": totals["mismatches"],
        "seconds": round(time.perf_counter() - start, 1),
        "per_config": dict(per_config),
        "totals": {k: v for k, v in totals.items() if k != "mismatches"},
        "first_failures": failures[:3],
        "seeds": [args.start, args.start + played + totals["mismatches"] - 1],
    }
    print(json.dumps(summary, indent=1))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
