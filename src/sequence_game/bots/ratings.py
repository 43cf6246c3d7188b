"""Statistics of a tournament: Wilson confidence intervals and a Bradley-Terry rating fit.

Bradley-Terry models the chance that bot ``i`` beats bot ``j`` as ``g_i / (g_i + g_j)``. We fit
the strengths ``g`` by Hunter's minorization-maximization iteration (Hunter 2004, "MM algorithms
for generalized Bradley-Terry models"), counting a drawn game as half a win for each side, and
adding one virtual drawn game to every pair that met (a weak prior, so that a bot that won every
game gets a large but finite rating). Ratings are reported on the Elo scale,
``400 * log10(g)``, shifted so that their mean is 1500.

>>> low, high = wilson_interval(70, 100)
>>> round(low, 3), round(high, 3)
(0.604, 0.781)
>>> r = bradley_terry(["a", "b"], {("a", "b"): (75.0, 25.0)})
>>> round(r["a"] - r["b"])  # 3:1 odds (with the prior, 75.5:25.5) is about 189 Elo
189
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence


def wilson_interval(successes: float, trials: float, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default); (0, 1) for no trials."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def bradley_terry(
    players: Sequence[str],
    scores: Mapping[tuple[str, str], tuple[float, float]],
    iterations: int = 2000,
    prior_draws: float = 1.0,
) -> dict[str, float]:
    """Elo-scale ratings from ``scores[(a, b)] = (points of a, points of b)`` (a win is 1 point,
    a draw half a point to each)."""
    wins: dict[tuple[str, str], float] = {}
    for (a, b), (pa, pb) in scores.items():
        if a == b:
            continue
        extra = prior_draws / 2 if pa + pb > 0 else 0.0
        wins[(a, b)] = wins.get((a, b), 0.0) + pa + extra
        wins[(b, a)] = wins.get((b, a), 0.0) + pb + extra
    strength = dict.fromkeys(players, 1.0)
    for _ in range(iterations):
        new: dict[str, float] = {}
        for i in players:
            won = sum(w for (x, _), w in wins.items() if x == i)
            denom = 0.0
            for j in players:
                if j == i:
                    continue
                n = wins.get((i, j), 0.0) + wins.get((j, i), 0.0)
                if n:
                    denom += n / (strength[i] + strength[j])
            new[i] = won / denom if denom and won else strength[i]
        # normalize (geometric mean 1) to keep the numbers in range
        log_mean = sum(math.log(v) for v in new.values()) / len(new)
        new = {k: v / math.exp(log_mean) for k, v in new.items()}
        done = all(abs(new[k] - strength[k]) < 1e-10 * max(1.0, strength[k]) for k in players)
        strength = new
        if done:
            break
    elo = {k: 400 * math.log10(v) for k, v in strength.items()}
    mean = sum(elo.values()) / len(elo) if elo else 0.0
    return {k: 1500 + v - mean for k, v in elo.items()}
