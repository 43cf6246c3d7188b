#!/usr/bin/env python3
"""Plot win rate against training time, with 95% Wilson intervals, from the ``metrics.json`` files
that ``examples/rllib_selfplay.py`` and ``examples/sb3_maskable_ppo.py`` write: one panel per
file, one curve per evaluation bot (``random``, ``greedy``, ``heuristic``). The x axis is the
time spent training (evaluation excluded), in minutes. Needs matplotlib (the ``plot`` extra).

    .venv/bin/python experiments/rl_curves.py experiments/results/rl_rllib_selfplay.json \\
        experiments/results/rl_sb3_maskable_ppo.json --out experiments/results/rl_curves.png
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

OPPONENTS = ("random", "greedy", "heuristic")


def curves(metrics: dict[str, Any]) -> dict[str, list[tuple[float, float, float, float]]]:
    """Per bot: (training minutes, win rate, low, high) at each evaluation, in percent."""
    out: dict[str, list[tuple[float, float, float, float]]] = {}
    for entry in metrics["evaluations"]:
        for name, rates in entry["opponents"].items():
            low, high = rates["win_95"]
            point = (entry["train_seconds"] / 60, 100 * rates["win_rate"], 100 * low, 100 * high)
            out.setdefault(name, []).append(point)
    return out


def title(metrics: dict[str, Any]) -> str:
    """The panel's title: which example, how many steps, how many games a point."""
    last = metrics["evaluations"][-1]
    games = sorted({r["games"] for e in metrics["evaluations"] for r in e["opponents"].values()})
    counts = str(games[0]) if len(games) == 1 else f"{games[0]}-{games[-1]}"
    return f"{metrics['example']}: {last['env_steps']:,} env steps, {counts} games a point"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("metrics", nargs="+", help="metrics.json files of the examples")
    parser.add_argument("--out", required=True, help="the PNG to write")
    args = parser.parse_args(argv)
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("rl_curves: needs matplotlib: pip install 'sequence-game[plot]'", file=sys.stderr)
        return 1
    runs = [json.loads(Path(p).read_text(encoding="utf-8")) for p in args.metrics]
    fig, axes = plt.subplots(1, len(runs), figsize=(6 * len(runs), 4.6), squeeze=False, sharey=True)
    for ax, metrics in zip(axes[0], runs, strict=True):
        for name, points in sorted(curves(metrics).items(), key=lambda kv: OPPONENTS.index(kv[0])):
            xs = [p[0] for p in points]
            ys = [p[1] for p in points]
            err = [[p[1] - p[2] for p in points], [p[3] - p[1] for p in points]]
            ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3, label=f"vs {name}")
        ax.axhline(50, color="grey", linewidth=0.8)
        ax.set_ylim(-2, 102)
        ax.set_xlabel("training time (minutes, evaluation excluded)")
        ax.set_title(title(metrics), fontsize=9)
        ax.legend(fontsize=8)
    axes[0][0].set_ylabel("win rate, % (95% Wilson interval)")
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
