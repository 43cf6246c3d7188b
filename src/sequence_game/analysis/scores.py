"""Luck-adjusted scores of a tournament's pairs (``sequence tournament --luck``).

Every game's record is judged by the analysis, and the first bot of its pair is given the
luck-adjusted results of the sides it played: its share of the game with every draw's luck taken
out. A draw's luck has mean zero whatever the players do, so the mean score is the same as the
result's, with less noise (docs/analysis.md, "Skill shows in the luck-adjusted result").

At 2 players each game also comes with the standard error that the judge's own misses leave in
it (``SideSummary.adjusted_error``), and a pair's games are also summed up weighed by its inverse
square, as a meta-analysis weighs studies: a long game full of surprises to the judge counts for
less than a short clear one. Over 2,400 games of ``heuristic`` against ``greedy`` that takes the
samples of 50 games that separate the two from 78% to 94% (docs/analysis.md, "Each game's
uncertainty"). Which game gets which weight does not depend on who played which side, so two
equal players still score a half on average; but the weighted mean is the score of the clearer
games, so the plain mean stays the estimate of the win rate and the weighted one is the test.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Collection, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ..bots.tournament import GameResult, GameSpec
from .game import analyze_record
from .threads import one_thread_children


def sides_played(seats: Sequence[str], sides: int, names: Collection[str]) -> tuple[int, ...]:
    """The sides whose seats a bot of ``names`` holds (seat ``i`` plays for side ``i mod sides``, R2.3)."""
    return tuple(sorted({seat % sides for seat, bot in enumerate(seats) if bot in names}))


def first_bot_sides(spec: GameSpec) -> tuple[int, ...]:
    """The sides the first bot of the game's pair plays (two of three sides at some 3-side tables)."""
    return sides_played(spec.bots, spec.config.sides, {spec.pair[0]})


def game_score(job: tuple[str | dict[str, Any], tuple[int, ...]]) -> tuple[float, float | None]:
    """One game: the sum of the luck-adjusted results of the given sides, and its standard error
    where the analysis gives one (one side of a 2-player game; ``None`` elsewhere)."""
    record, sides = job
    summary = analyze_record(record).sides_summary
    error = summary[sides[0]].adjusted_error if len(sides) == 1 else None
    return sum(summary[side].adjusted for side in sides), error


def t_critical(df: int) -> float:
    """Student's t at 97.5% for ``df`` degrees of freedom: exact to three decimals up to 3, then
    the Cornish-Fisher expansion from the normal's 1.96 (within 0.007 at 4, 0.003 at 5, 1e-6 at
    49), so that the interval needs no SciPy."""
    small = {1: 12.706, 2: 4.303, 3: 3.182}
    if df in small:
        return small[df]
    z = 1.959964
    return (
        z
        + (z**3 + z) / (4 * df)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3)
    )


def mean_interval(values: Sequence[float]) -> dict[str, Any]:
    """The mean with its 95% interval (Student's t; none from one game)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return {"games": len(values), "mean": mean, "ci95": None}
    half = t_critical(len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
    return {"games": len(values), "mean": mean, "ci95": [mean - half, mean + half]}


def weighted_interval(values: Sequence[float], errors: Sequence[float | None]) -> dict[str, Any] | None:
    """The mean weighed by each value's inverse squared standard error, with its 95% interval
    (``None`` where any error is unknown): the sandwich variance, which does not trust the errors'
    scale (only their ratios set the weights), and Student's t on the weights' effective number of
    games ``(sum w)^2 / sum w^2`` (Kish's), which keeps a mirror match's false alarms at 5% in
    samples of 50 games.

    It is the sharper test of which of two players is stronger, but its mean is the score of the
    games that weigh most, the short clear ones, so it estimates the win rate only where the edge
    is the same in every kind of game: :func:`mean_interval` is the estimate, this the test."""
    if any(e is None or not e > 0 for e in errors):
        return None
    weights = [1.0 / (e * e) for e in errors if e is not None]
    total = sum(weights)
    mean = sum(w * v for w, v in zip(weights, values, strict=True)) / total
    effective = total**2 / sum(w * w for w in weights)
    out: dict[str, Any] = {"games": len(values), "effective_games": effective, "mean": mean, "ci95": None}
    if len(values) >= 2 and effective >= 2.0:
        spread = sum((w * (v - mean)) ** 2 for w, v in zip(weights, values, strict=True)) / total**2
        half = t_critical(max(1, round(effective - 1))) * math.sqrt(spread * effective / (effective - 1))
        out["ci95"] = [mean - half, mean + half]
    return out


def luck_adjusted_scores(
    specs: Sequence[GameSpec], results: Sequence[GameResult], workers: int = 1
) -> dict[tuple[str, str], dict[str, Any]]:
    """Per pair of the tournament, the first bot's mean luck-adjusted score with its 95% interval
    (:func:`mean_interval`), and under ``weighted`` the same weighed by each game's standard error
    where every game has one (2 players: :func:`weighted_interval`), else ``None``.

    ``results`` must carry their records (``GameSpec.record``); the analyses run in ``workers``
    processes, each with one BLAS thread (``threads``)."""
    by_index = {spec.index: spec for spec in specs}
    jobs: list[tuple[str | dict[str, Any], tuple[int, ...]]] = []
    for result in results:
        if result.record is None:
            raise ValueError(f"game {result.index} was played without its record")
        jobs.append((result.record, first_bot_sides(by_index[result.index])))
    with one_thread_children(), ProcessPoolExecutor(max(1, workers)) as pool:
        scores = list(pool.map(game_score, jobs, chunksize=4))
    grouped: dict[tuple[str, str], list[tuple[float, float | None]]] = {}
    for result, score in zip(results, scores, strict=True):
        grouped.setdefault(by_index[result.index].pair, []).append(score)
    return {
        pair: {
            **mean_interval([v for v, _ in games]),
            "weighted": weighted_interval([v for v, _ in games], [e for _, e in games]),
        }
        for pair, games in grouped.items()
    }
