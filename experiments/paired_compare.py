#!/usr/bin/env python3
"""Compare two variants game by game on the deals both played (``oracle_strength.py --per-game``).

Two variants run with the same ``--seed``, ``--games`` and opponent play the same schedule: the
same deals with the same seats. Most of a game's outcome is the deal's luck, which both share, so
the difference of their win rates is far better measured deal by deal than by comparing two
separate intervals. This prints each variant's rate on the deals both finished and the mean
per-deal difference with its 95% interval (normal approximation over deals). Games of several
schedules (runs with different ``--seed``) in one file are pooled, each game keyed by its seed and
index; ``--seeds`` picks some.

``--luck`` scores each game by the variant's luck-adjusted result instead of its result: the
analysis judges the game's record (``oracle_strength.py --records``) and takes every draw's luck
out (docs/analysis.md, "Skill shows in the luck-adjusted result"). A draw's luck has mean zero
whatever the bots do, so the difference keeps its mean and loses noise. At 2 players each game's
luck-adjusted result comes with its standard error (``SideSummary.adjusted_error``), and the same
figures are then also given with the deals weighed by the inverse variance of their difference
(docs/analysis.md, "Each game's uncertainty"): the sharper test of the difference, though each
variant's weighted rate is the rate of its clearer games, not its win rate.

    .venv/bin/python experiments/paired_compare.py games.jsonl "pimc(policy=3, width=4)" \\
        "pimc(policy=3, width=4, reading=8, margin=0)"
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import sys
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from sequence_game.analysis.scores import game_score, sides_played
from sequence_game.analysis.threads import one_thread_children


def read_text(path: str) -> str:
    """A per-game file, gzipped where its name ends in ``.gz`` (games kept with their records)."""
    if path.endswith(".gz"):
        with gzip.open(path, "rt", encoding="utf-8") as f:
            return f.read()
    return Path(path).read_text(encoding="utf-8")


def load(
    paths: list[str],
    variant: str,
    aliases: list[str],
    budget: float | None = None,
    opponent: str | None = None,
    seeds: set[int] | None = None,
    luck: bool = False,
    workers: int = 1,
) -> dict[tuple[int, int], tuple[int, float, float | None]]:
    """Per game of a schedule (its ``--seed`` and index): the deal, and the variant's score in that
    game (1 a win, 0.5 a draw); with ``budget``, only its games at that many simulations (or
    seconds) a move; with ``opponent``, only its games against that bot; with ``seeds``, only
    those schedules; with ``luck``, the standard error of the score where the analysis gives one.
    Games against two opponents are refused without ``opponent``: they share the
    schedule's indices, so they would overwrite each other. ``aliases``: other labels the same
    variant played under (an earlier spec of the same search). With ``luck``, the score is the variant's
    luck-adjusted result, its games' records judged by the analysis in ``workers`` processes."""
    out: dict[tuple[int, int], tuple[int, float, float | None]] = {}
    jobs: dict[tuple[int, int], tuple[dict[str, Any], tuple[int, ...]]] = {}
    seen: set[str] = set()
    labels = {variant, *aliases}
    lines = (line for path in paths for line in read_text(path).splitlines())
    for game in (json.loads(line) for line in lines if line.strip()):
        if game["variant"] not in labels:
            continue
        if budget is not None and budget not in (game.get("simulations"), game.get("seconds")):
            continue
        if opponent is not None and game["opponent"] != opponent:
            continue
        if seeds is not None and game.get("seed") not in seeds:
            continue
        seen.add(game["opponent"])
        winner = game["winner"]
        score = 1.0 if winner in labels else 0.5 if winner is None else 0.0
        key = game.get("seed", 0), game["index"]
        out[key] = (game["deal_seed"], score, None)
        if luck:
            if "record" not in game:
                raise SystemExit(
                    f"{variant}: a game without its record: run oracle_strength.py with --records"
                )
            jobs[key] = (game["record"], sides_played(game["seats"], game["record"]["teams"], labels))
    if len(seen) > 1:
        raise SystemExit(
            f"{', '.join(paths)}: {variant} played {' and '.join(sorted(seen))} at this budget: choose one with --opponent"
        )
    if luck and jobs:
        keys = list(jobs)
        with one_thread_children(), ProcessPoolExecutor(workers) as pool:
            adjusted = list(pool.map(game_score, [jobs[k] for k in keys], chunksize=8))
        for k, (value, error) in zip(keys, adjusted, strict=True):
            out[k] = (out[k][0], value, error)
    return out


def mean_half(scores: list[float], variances: list[float] | None = None) -> tuple[float, float]:
    """The mean score and the half-width of its 95% interval, game by game (normal approximation);
    with ``variances``, each score weighed by its inverse (the sandwich variance)."""
    n = len(scores)
    weights = [1.0 / v for v in variances] if variances else [1.0] * n
    total = sum(weights)
    mean = sum(w * x for w, x in zip(weights, scores, strict=True)) / total
    if n < 2:
        return mean, math.inf
    spread = sum((w * (x - mean)) ** 2 for w, x in zip(weights, scores, strict=True)) / total**2
    return mean, 1.96 * math.sqrt(spread * n / (n - 1))


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument(
        "file", help="per-game JSON lines (the runs of one budget; several variants may share a file)"
    )
    p.add_argument("a", help="the first variant's label, as the file spells it")
    p.add_argument("b", help="the second variant's label")
    p.add_argument("--b-file", help="the second variant's games are in this file instead")
    p.add_argument("--also", nargs="+", default=[], help="more per-game files, read for both variants")
    p.add_argument("--a-alias", nargs="+", default=[], help="other labels of the first variant's games")
    p.add_argument("--b-alias", nargs="+", default=[], help="other labels of the second variant's games")
    p.add_argument(
        "--budgets",
        type=float,
        nargs=2,
        metavar=("A", "B"),
        help="compare only games at these simulations (or seconds) a move: one variant at two budgets",
    )
    p.add_argument("--opponent", help="compare only games against this bot (the runs' --opponent)")
    p.add_argument(
        "--seeds",
        type=int,
        nargs="+",
        help="compare only the schedules of these --seed values (default: every schedule both played, pooled)",
    )
    p.add_argument(
        "--luck",
        action="store_true",
        help="score each game by the variant's luck-adjusted result (needs the games' records)",
    )
    p.add_argument("--workers", type=int, default=1, help="processes for the analyses of --luck")
    args = p.parse_args()
    budget_a, budget_b = args.budgets if args.budgets else (None, None)
    seeds = set(args.seeds) if args.seeds else None
    a = load(
        [args.file, *args.also], args.a, args.a_alias, budget_a, args.opponent, seeds, args.luck, args.workers
    )
    b = load(
        [args.b_file or args.file, *args.also],
        args.b,
        args.b_alias,
        budget_b,
        args.opponent,
        seeds,
        args.luck,
        args.workers,
    )
    both = sorted(set(a) & set(b))
    if not both:
        print("no game of the schedule was finished by both variants", file=sys.stderr)
        return 1
    if any(a[i][0] != b[i][0] for i in both):
        print("the two runs did not play the same deals (different --seed or --games?)", file=sys.stderr)
        return 1
    weighted = args.luck and all(a[i][2] and b[i][2] for i in both)

    def variance(game: tuple[int, float, float | None]) -> float:
        return (game[2] or 0.0) ** 2

    deals: dict[int, list[tuple[float, float]]] = defaultdict(list)
    for i in both:
        deals[a[i][0]].append((a[i][1] - b[i][1], variance(a[i]) + variance(b[i])))
    diffs = [sum(d for d, _ in games) / len(games) for games in deals.values()]
    spreads = [sum(v for _, v in games) / len(games) ** 2 for games in deals.values()]
    n = len(diffs)
    scored = "luck-adjusted results" if args.luck else "results"
    print(f"{len(both)} games on {n} deals finished by both; {scored}")
    at_a = f" at {budget_a:g}" if budget_a is not None else ""
    at_b = f" at {budget_b:g}" if budget_b is not None else ""
    for label, use in (("", False), ("each game weighed by its inverse variance: ", True)):
        if use and not weighted:
            continue
        mean, half = mean_half(diffs, spreads if use else None)
        rate_a, half_a = mean_half([a[i][1] for i in both], [variance(a[i]) for i in both] if use else None)
        rate_b, half_b = mean_half([b[i][1] for i in both], [variance(b[i]) for i in both] if use else None)
        if label:
            print(f"  {label}")
        print(
            f"  {args.a}{at_a}: {100 * rate_a:.1f}% +-{100 * half_a:.1f} (game by game, against its opponent)"
        )
        print(f"  {args.b}{at_b}: {100 * rate_b:.1f}% +-{100 * half_b:.1f}")
        low, high = 100 * (mean - half), 100 * (mean + half)
        print(f"  difference (first - second), by deal: {100 * mean:+.1f} points [{low:+.1f}, {high:+.1f}]")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
