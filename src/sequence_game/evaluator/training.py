"""Fitting the evaluator's network in numpy: cross-entropy on game results, Adam, then Platt
scaling on held-out games, and the calibration measures that judge it.

Why numpy and not a deep-learning framework: the network is small (two hidden layers of 64),
a 2-core machine fits it on millions of positions in minutes, and the project then needs no
framework to retrain what it ships.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .model import Network


def _init(rng: np.random.Generator, sizes: Sequence[int]) -> tuple[list[np.ndarray], list[np.ndarray]]:
    weights = [
        (rng.standard_normal((a, b)) * math.sqrt(2.0 / a)).astype(np.float32)
        for a, b in itertools.pairwise(sizes)
    ]
    biases = [np.zeros(b, dtype=np.float32) for b in sizes[1:]]
    return weights, biases


def _sigmoid(z: np.ndarray) -> np.ndarray:
    out: np.ndarray = 1.0 / (1.0 + np.exp(-np.clip(z, -30.0, 30.0)))
    return out


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def fit(
    x: np.ndarray,
    y: np.ndarray,
    *,
    hidden: Sequence[int] = (64, 64),
    epochs: int = 8,
    batch: int = 2048,
    rate: float = 2e-3,
    decay: float = 1e-5,
    seed: int = 0,
    log: Any = None,
) -> Network:
    """A network fitted to ``(x, y)`` by minibatch Adam on the log loss (``y`` in [0, 1])."""
    rng = np.random.default_rng(seed)
    mean = x.mean(axis=0).astype(np.float32)
    scale = (x.std(axis=0) + 1e-3).astype(np.float32)
    xs = ((x - mean) / scale).astype(np.float32)
    weights, biases = _init(rng, [x.shape[1], *hidden, 1])
    params = [*weights, *biases]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    b1, b2, eps = 0.9, 0.999, 1e-8
    step = 0
    n = len(y)
    layers = len(weights)
    for epoch in range(epochs):
        order = rng.permutation(n)
        lr = rate * (0.5 * (1 + math.cos(math.pi * epoch / epochs)))  # cosine schedule
        for start in range(0, n, batch):
            idx = order[start : start + batch]
            h = [xs[idx]]
            for i in range(layers):
                z = h[-1] @ weights[i] + biases[i]
                h.append(np.maximum(z, 0.0) if i < layers - 1 else z)
            p = _sigmoid(h[-1][:, 0])
            grad = ((p - y[idx]) / len(idx))[:, None].astype(np.float32)
            gw: list[np.ndarray] = [np.empty(0)] * layers
            gb: list[np.ndarray] = [np.empty(0)] * layers
            for i in range(layers - 1, -1, -1):
                gw[i] = h[i].T @ grad + decay * weights[i]
                gb[i] = grad.sum(axis=0)
                if i:
                    grad = (grad @ weights[i].T) * (h[i] > 0)
            step += 1
            for j, g in enumerate([*gw, *gb]):
                m[j] = b1 * m[j] + (1 - b1) * g
                v[j] = b2 * v[j] + (1 - b2) * g * g
                mh = m[j] / (1 - b1**step)
                vh = v[j] / (1 - b2**step)
                params[j] -= (lr * mh / (np.sqrt(vh) + eps)).astype(np.float32)
        if log is not None:
            net = Network(mean, scale, weights, biases)
            sample = rng.choice(n, size=min(n, 200_000), replace=False)
            log(f"epoch {epoch + 1}/{epochs}: log loss {log_loss(net.predict(x[sample]), y[sample]):.4f}")
    return Network(mean, scale, weights, biases)


def platt(logits: np.ndarray, y: np.ndarray, iterations: int = 50) -> tuple[float, float]:
    """``(a, b)`` minimising the log loss of ``sigmoid(a * logit + b)`` (Newton's method)."""
    a, b = 1.0, 0.0
    for _ in range(iterations):
        p = _sigmoid(a * logits + b)
        r = p - y
        w = p * (1 - p) + 1e-9
        ga, gb = float(np.mean(r * logits)), float(np.mean(r))
        haa, hab, hbb = float(np.mean(w * logits * logits)), float(np.mean(w * logits)), float(np.mean(w))
        det = haa * hbb - hab * hab
        if det <= 1e-12:
            break
        da, db = (hbb * ga - hab * gb) / det, (haa * gb - hab * ga) / det
        a, b = a - da, b - db
        if abs(da) + abs(db) < 1e-9:
            break
    return a, b


@dataclass
class Reliability:
    """A reliability table: per bin of predicted chance, the mean prediction and the actual rate,
    with a 95% interval clustered by game (positions of one game are not independent)."""

    bins: list[dict[str, float]]
    ece: float
    brier: float
    positions: int
    games: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "ece": self.ece,
            "brier": self.brier,
            "positions": self.positions,
            "games": self.games,
            "bins": self.bins,
        }


def reliability(p: np.ndarray, y: np.ndarray, games: np.ndarray, bins: int = 10) -> Reliability:
    """Deciles of predicted chance (equal width) against the actual results; ECE weighted by count."""
    edges = np.linspace(0.0, 1.0, bins + 1)
    which = np.clip(np.digitize(p, edges) - 1, 0, bins - 1)
    rows = []
    ece = 0.0
    for k in range(bins):
        mask = which == k
        count = int(mask.sum())
        if count == 0:
            continue
        mean_p, rate = float(p[mask].mean()), float(y[mask].mean())
        ece += count / len(p) * abs(mean_p - rate)
        half = _clustered_half_width(y[mask], games[mask])
        rows.append(
            {
                "low": float(edges[k]),
                "high": float(edges[k + 1]),
                "positions": count,
                "games": len(np.unique(games[mask])),
                "predicted": mean_p,
                "actual": rate,
                "actual_low": max(0.0, rate - half),
                "actual_high": min(1.0, rate + half),
            }
        )
    return Reliability(rows, ece, float(np.mean((p - y) ** 2)), len(p), len(np.unique(games)))


def _clustered_half_width(y: np.ndarray, games: np.ndarray) -> float:
    """1.96 cluster-robust standard errors of a mean, clusters being games."""
    _, inverse = np.unique(games, return_inverse=True)
    clusters = inverse.max() + 1
    if clusters < 2:
        return 0.5
    resid = np.bincount(inverse, weights=y - y.mean())
    var = float((resid**2).sum()) / len(y) ** 2 * clusters / (clusters - 1)
    return 1.96 * math.sqrt(var)
