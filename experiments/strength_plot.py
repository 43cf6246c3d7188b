#!/usr/bin/env python3
"""Plot win rate against time per move (or simulations per move) with 95% intervals, from the
JSON lines that ``experiments/oracle_strength.py --json`` prints (one line per variant and budget).
Needs the ``plot`` extra (matplotlib).

    for s in 0.1 1 5; do
      .venv/bin/python experiments/oracle_strength.py --json --seconds $s --games 400 \\
          --variants "planner(oracle=True, model=1, width=4)" "mcts" >> strength.jsonl
    done
    .venv/bin/python experiments/strength_plot.py strength.jsonl docs/strength.png

``experiments/strength_data.jsonl`` holds the rows behind ``docs/img/strength.png`` (each with the
runs it pools in ``source``): ``experiments/strength_plot.py experiments/strength_data.jsonl
docs/img/strength.png`` remakes it.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__)
        return 2
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("strength_plot: needs matplotlib: pip install 'sequence-game[plot]'", file=sys.stderr)
        return 1
    with open(argv[0], encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh if line.strip()]
    series: dict[str, list[tuple[float, float, float, float]]] = defaultdict(list)
    axis = "seconds" if all(r.get("seconds") for r in rows) else "simulations"
    for r in rows:
        lo, hi = r["ci95"]
        series[f"{r['variant']} vs {r['opponent']}"].append((float(r[axis]), r["win_rate"], lo, hi))
    fig, ax = plt.subplots(figsize=(7, 6.5))
    for label, points in sorted(series.items()):
        points.sort()
        xs = [p[0] for p in points]
        ys = [100 * p[1] for p in points]
        err = [[100 * (p[1] - p[2]) for p in points], [100 * (p[3] - p[1]) for p in points]]
        ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3, label=label)
    ax.axhline(50, color="grey", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_xlabel("time per move (s)" if axis == "seconds" else "simulations per move")
    ax.set_ylabel("win rate, % (95% Wilson interval)")
    # below the axes: the curves fill the band between 45% and 95%
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.13))
    fig.tight_layout()
    fig.savefig(argv[1], dpi=120)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
