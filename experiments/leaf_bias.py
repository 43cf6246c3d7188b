"""Where the judged leaves are biased: the leaves' lead of each candidate over the heuristic's play,
against the truth's, by the kind of play (a jack or not).

The evaluator was seen to value spending a jack more than rollouts of ``hard`` do (docs/analysis.md,
"Skill shows"). If the leaves carry that bias, it shows here as a positive mean of
``(leaf lead) - (true lead)`` for jack plays. Input: the positions ``experiments/leaf_values.py
--dump FILE`` wrote (the truth is each candidate's mean over many worlds of full rollouts):

    .venv/bin/python experiments/leaf_values.py --games 15 --every 4 --truth 1024 --test 64 \\
        --horizons 6 --seed 32000000 --dump POSITIONS.jsonl
    .venv/bin/python experiments/leaf_bias.py POSITIONS.jsonl --estimator cut6
    .venv/bin/python experiments/leaf_bias.py experiments/results/leaf_bias_positions.jsonl \
        --jack-costs 0.044 0.017     # the jack costs on the leaves: the argmax's gain by the truth

Leads are in chance (half the value scale of -1 to +1), against the expert's first candidate
(the heuristic's play, which the expert keeps unless beaten). 95% intervals over candidates.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from pathlib import Path

from sequence_game.actions import REMOVE, WILD


def kind(action: int) -> str:
    """A play's kind: a two-eyed jack, a one-eyed jack, or a card played on its own space."""
    if WILD <= action < WILD + 100:
        return "two-eyed jack"
    if REMOVE <= action < REMOVE + 100:
        return "one-eyed jack"
    return "card"


def summary(values: list[float]) -> str:
    n = len(values)
    if n < 2:
        return f"n={n}"
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(n)
    return f"{100 * mean:+.2f} [{100 * (mean - half):+.2f}, {100 * (mean + half):+.2f}] points, n={n}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dump", type=Path)
    ap.add_argument("--estimator", default="cut6", help="the dump's key for the leaves (cut<h>)")
    ap.add_argument(
        "--jack-costs",
        type=float,
        nargs=2,
        metavar=("TWO_EYED", "ONE_EYED"),
        help="also take these chances off the leaves' jack plays (evaluator.moves.JACK_COSTS: 0.044 0.017)",
    )
    args = ap.parse_args()
    groups: dict[str, dict[str, list[float]]] = {}
    picks = {"truth": {}, args.estimator: {}, "full": {}}  # type: dict[str, dict[str, int]]
    for line in args.dump.read_text().splitlines():
        pos = json.loads(line)
        cands, truth, est, full = pos["cands"], pos["truth"], pos[args.estimator], pos["full"]
        first = kind(cands[0])
        for c in range(1, len(cands)):
            key = f"{kind(cands[c])} over {first}"
            g = groups.setdefault(key, {"leaf": [], "full": [], "truth": []})
            g["leaf"].append((est[c] - est[0] - truth[c] + truth[0]) / 2)
            g["full"].append((full[c] - full[0] - truth[c] + truth[0]) / 2)
            g["truth"].append((truth[c] - truth[0]) / 2)
        for name, means in (("truth", truth), (args.estimator, est), ("full", full)):
            best = kind(cands[max(range(len(cands)), key=means.__getitem__)])
            picks[name][best] = picks[name].get(best, 0) + 1
    for key, g in sorted(groups.items()):
        print(key)
        print(f"  true lead                 {summary(g['truth'])}")
        print(f"  leaf lead minus true lead {summary(g['leaf'])}")
        print(f"  full lead minus true lead {summary(g['full'])}")
    for name, counts in picks.items():
        print(f"best play by {name}: {dict(sorted(counts.items()))}")
    if args.jack_costs:
        two, one = args.jack_costs
        gains = []
        for line in args.dump.read_text().splitlines():
            pos = json.loads(line)
            cands, truth, est = pos["cands"], pos["truth"], pos[args.estimator]
            cost = {"two-eyed jack": 2 * two, "one-eyed jack": 2 * one, "card": 0.0}  # values are +-1
            plain = max(range(len(cands)), key=est.__getitem__)
            net = max(range(len(cands)), key=lambda i: est[i] - cost[kind(cands[i])])
            gains.append((truth[net] - truth[plain]) / 2)
        changed = sum(g != 0 for g in gains)
        print(
            f"the leaves' best net of the jack costs, by the truth: {summary(gains)}, {changed} choices changed"
        )


if __name__ == "__main__":
    main()
