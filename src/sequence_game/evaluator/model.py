"""The evaluator at play time: a small network in numpy, batched, no PyTorch.

It maps :mod:`~sequence_game.features.position` vectors to the chance that the viewing seat's
side wins (a drawn game counting half), assuming every seat plays like ``hard`` from here on
(:data:`ASSUMES`): that is what it was trained on (:mod:`.selfplay`). The network's raw output
is recalibrated on held-out games (Platt scaling: ``sigmoid(a * logit + b)``), so that of the
positions it calls 30%, about 30% are won.

>>> from sequence_game import GameConfig, new_game
>>> state = new_game(GameConfig(players=2), seed=3)
>>> judge = Evaluator.load()
>>> p = judge.chances([state.view(0), state.view(1)])
>>> p.shape, bool(((0 < p) & (p < 1)).all())
((2,), True)
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Final

import numpy as np

from ..features.position import FEATURE_NAMES, ViewParts, features, view_parts
from ..views import PlayerView

#: The weights shipped with the package (made by ``scripts/train_evaluator.py``; docs/evaluator.md).
WEIGHTS: Final = Path(__file__).with_name("weights.npz")
_WIN_NOW: Final = FEATURE_NAMES.index("own_win_now")
_PLAYERS: Final = FEATURE_NAMES.index("players")
_THREE_SIDES: Final = FEATURE_NAMES.index("three_sides")
_TURNS_TO_OWN: Final = FEATURE_NAMES.index("turns_to_own")
ASSUMES: Final = "every seat plays like `hard` (the heuristic bot) from here on"


def _relu(x: np.ndarray) -> np.ndarray:
    out: np.ndarray = np.maximum(x, 0.0, out=x)
    return out


@dataclass
class Network:
    """A multilayer perceptron: standardised inputs, ReLU hidden layers, one logit out."""

    mean: np.ndarray
    scale: np.ndarray
    weights: list[np.ndarray]
    biases: list[np.ndarray]
    calibration: tuple[float, float] = (1.0, 0.0)
    tables: dict[tuple[int, int], tuple[float, float]] = field(default_factory=dict)
    """Platt scaling per table (players, sides) where the held-out games held enough positions;
    the others use ``calibration``."""
    meta: dict[str, Any] = field(default_factory=dict)

    def logits(self, x: np.ndarray) -> np.ndarray:
        """The raw logits of a batch of feature vectors ``(N, F)``."""
        h = (np.asarray(x, dtype=np.float32) - self.mean) / self.scale
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            h = h @ w + b
            if i < last:
                h = _relu(h)
        out: np.ndarray = h[:, 0]
        return out

    def predict(self, x: np.ndarray) -> np.ndarray:
        """Calibrated chances of a batch of feature vectors."""
        a = np.full(len(x), self.calibration[0])
        b = np.full(len(x), self.calibration[1])
        if self.tables:
            players = np.rint(x[:, _PLAYERS] * 12).astype(int)
            sides = np.where(x[:, _THREE_SIDES] > 0, 3, 2)
            for (p, s), (ta, tb) in self.tables.items():
                rows = (players == p) & (sides == s)
                a[rows], b[rows] = ta, tb
        z = a * self.logits(x) + b
        out: np.ndarray = 1.0 / (1.0 + np.exp(-np.clip(z, -30.0, 30.0)))
        return out

    def save(self, path: str | Path) -> None:
        arrays: dict[str, np.ndarray] = {"mean": self.mean, "scale": self.scale}
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            arrays[f"w{i}"] = w.astype(np.float32)
            arrays[f"b{i}"] = b.astype(np.float32)
        arrays["calibration"] = np.array(self.calibration, dtype=np.float64)
        arrays["tables"] = np.array(
            [[p, s, a, b] for (p, s), (a, b) in sorted(self.tables.items())], dtype=np.float64
        )
        arrays["meta"] = np.array(json.dumps(self.meta, sort_keys=True))
        np.savez_compressed(path, **arrays)  # type: ignore[arg-type]

    @classmethod
    def load(cls, path: str | Path, features: Sequence[str] = FEATURE_NAMES) -> Network:
        """The network of a weights file, which must have been fitted on ``features``."""
        with np.load(path, allow_pickle=False) as data:
            layers = sum(1 for name in data.files if name.startswith("w"))
            meta = json.loads(str(data["meta"]))
            if list(meta.get("features", features)) != list(features):
                raise ValueError(f"{path}: weights for other features (version {meta.get('version')})")
            a, b = (float(v) for v in data["calibration"])
            tables = {
                (int(p), int(s)): (float(ta), float(tb))
                for p, s, ta, tb in (data["tables"] if "tables" in data.files else [])
            }
            return cls(
                mean=data["mean"],
                scale=data["scale"],
                weights=[data[f"w{i}"] for i in range(layers)],
                biases=[data[f"b{i}"] for i in range(layers)],
                calibration=(a, b),
                tables=tables,
                meta=meta,
            )


class Evaluator:
    """Winning chances from seats' views, batched: one :func:`features` pass and one forward."""

    assumes: str = ASSUMES

    def __init__(self, network: Network) -> None:
        self.network = network
        self.version: str = str(network.meta.get("version", "unversioned"))

    @classmethod
    def load(cls, path: str | Path | None = None) -> Evaluator:
        """The shipped evaluator (cached: loading reads a few hundred kilobytes), or one from ``path``."""
        return _shipped() if path is None else cls(Network.load(path))

    def chances_of_parts(self, parts: Sequence[ViewParts]) -> np.ndarray:
        with _one_blas_thread():
            return self._chances(features(parts))

    def chances_of_features(self, x: np.ndarray) -> np.ndarray:
        """The chances of a batch of :func:`features` vectors."""
        with _one_blas_thread():
            return self._chances(x)

    def _chances(self, x: np.ndarray) -> np.ndarray:
        p = self.network.predict(x)
        # a seat that can win with the move it is about to make wins: the players the evaluator
        # assumes always take a win (R7.1); the network learned it only nearly (0.95 and up)
        p[(x[:, _WIN_NOW] > 0) & (x[:, _TURNS_TO_OWN] == 0)] = 1.0
        return p

    def chances(self, views: Sequence[PlayerView]) -> np.ndarray:
        """The chance that each view's seat's side wins the game (a drawn game counts half)."""
        return self.chances_of_parts([view_parts(v) for v in views])

    def chance(self, view: PlayerView) -> float:
        return float(self.chances([view])[0])


@cache
def _blas() -> Any:
    """threadpoolctl's controller of the BLAS libraries loaded, or ``None`` without it."""
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:
        return None
    return ThreadpoolController()


def _one_blas_thread() -> contextlib.AbstractContextManager[Any]:
    """One BLAS thread for the evaluator's small products: more threads cost more than they
    bring there, and on a busy machine they made a pimc search with the evaluator five times
    slower (45 games in 4 minutes against 59 in one, experiments/oracle_strength.py)."""
    controller = _blas()
    return contextlib.nullcontext() if controller is None else controller.limit(limits=1, user_api="blas")


@cache
def _shipped() -> Evaluator:
    return Evaluator(Network.load(WEIGHTS))
