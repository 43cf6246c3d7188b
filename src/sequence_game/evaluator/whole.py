"""The judge of a whole 2-player position, both hands known: luck as a finished game's analyst sees it.

The evaluator (:mod:`.model`) reads one seat's view, as a player must. Once a game is over its
record shows every hand, and the only chance left in the game is the order of the draw pile
(R5.2). A judge that reads both hands can then split the result as backgammon's analysers do:
the deal's worth, each draw's luck against the pile's average card, and the decisions between.
Judged from the drawer's view alone, a draw's luck also carries what the other hand held, which
is not luck of the draw but noise; with both hands known that noise goes (measured in
``experiments/skill_omniscient.py``: the luck-adjusted result then tells ``heuristic`` from
``greedy`` in 76-78% of samples of 50 games, against 69% with luck judged from one view).

The judge is the evaluator's network on both seats' features side by side (the judged seat's
first), trained on the same kind of games (``hard`` against ``hard``, and explored ones) at
2 players; its chance is symmetrised, the mean of its row and one minus the swapped row, so the
two seats' chances sum to one exactly. It needs NumPy only.

>>> from sequence_game import GameConfig, new_game
>>> state = new_game(GameConfig(players=2), seed=3)
>>> judge = WholeJudge.load()
>>> round(judge.deal(state, 0) + judge.deal(state, 1), 9)
1.0
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import numpy as np

from ..cards import Card
from ..config import GameConfig
from ..features.position import FEATURE_NAMES, NUM_FEATURES, draw_features, features, with_hand
from ..state import GameState
from .model import Network
from .moves import position_marks, seat_parts

WHOLE_WEIGHTS: Final = Path(__file__).with_name("whole_weights.npz")
TWO: Final = GameConfig(players=2)
DATA_SEED: Final = 30_000_000
"""Seeds of the judge's games of ``hard`` against ``hard`` (apart from every other training set)."""
EXPLORE_SEED: Final = 31_000_000
"""Seeds of its explored games (:mod:`.selfplay`: deviating moves before a random turn)."""
WHOLE_FEATURES: Final = tuple(f"{who}_{name}" for who in ("mine", "theirs") for name in FEATURE_NAMES)
"""Its inputs: the judged seat's features, then the other seat's."""


class WholeJudge:
    """A 2-player seat's chance with both hands known."""

    def __init__(self, network: Network) -> None:
        self.network = network

    @classmethod
    def load(cls, path: str | Path | None = None) -> WholeJudge:
        """The shipped judge (cached), or one from a weights file of ``scripts/train_evaluator.py``."""
        if path is None:
            return _shipped()
        return cls(Network.load(path, WHOLE_FEATURES))

    @property
    def version(self) -> str:
        return str(self.network.meta.get("version", ""))

    def chances(self, mine: np.ndarray, theirs: np.ndarray) -> np.ndarray:
        """The chance of the seat whose features are ``mine`` (rows) against the other seat's
        ``theirs`` (one row, or as many as ``mine``)."""
        theirs = np.broadcast_to(theirs, mine.shape)
        forward = self.network.predict(np.hstack([mine, theirs]))
        backward = self.network.predict(np.hstack([theirs, mine]))
        out: np.ndarray = 0.5 * (forward + 1.0 - backward)
        return out

    def deal(self, state: GameState, seat: int) -> float:
        """``seat``'s chance in ``state`` (the deal, or any position), both hands read."""
        _check(state.config)
        marks = position_marks(state)
        x = features([seat_parts(state, s, marks) for s in (seat, 1 - seat)])
        return float(self.chances(x[:1], x[1:])[0])

    def draw_luck(self, after: GameState, seat: int, drawn: Card, pile: Sequence[Card]) -> float:
        """What ``seat``'s draw of ``drawn`` from ``pile`` (the draw pile before it, ``drawn``
        among its cards) was worth against an average card of that pile, both hands known:
        its chance in ``after`` less the mean, over the pile's cards with their copies, of its
        chance had it drawn that card instead."""
        chance, mean = self.draw_chances(after, seat, drawn, pile)
        return chance - mean

    def draw_chances(
        self, after: GameState, seat: int, drawn: Card, pile: Sequence[Card]
    ) -> tuple[float, float]:
        """``seat``'s chance in ``after`` with ``drawn`` drawn from ``pile``, and its mean over the
        pile's cards (:meth:`draw_luck`'s two terms)."""
        _check(after.config)
        copies = Counter(pile)
        if copies[drawn] < 1:
            raise ValueError(f"the card drawn ({drawn}) is not in the pile")
        hand = after.hand(seat)
        hand.remove(drawn)
        cards = sorted(copies)
        marks = position_marks(after)  # the history read once for both seats
        mine = draw_features(
            [with_hand(seat_parts(after, seat, marks), hand)], [0] * (len(cards) + 1), [drawn, *cards]
        )
        theirs = features([seat_parts(after, 1 - seat, marks)])
        chance = self.chances(mine, theirs)
        weights = np.array([copies[c] for c in cards], dtype=np.float64)
        return float(chance[0]), float(np.dot(weights, chance[1:]) / weights.sum())


def _check(config: GameConfig) -> None:
    if config.players != 2:
        raise ValueError("the whole-position judge is for 2-player games")


@functools.cache
def _shipped() -> WholeJudge:
    return WholeJudge(Network.load(WHOLE_WEIGHTS, WHOLE_FEATURES))


# ----------------------------------------------------------------------------- its training data


@dataclass
class WholePositions:
    """Training rows: both seats' features (the judged seat's first), its result, its game."""

    x: np.ndarray
    y: np.ndarray
    game: np.ndarray

    @classmethod
    def concat(cls, parts: Iterable[WholePositions]) -> WholePositions:
        parts = list(parts)
        return cls(*(np.concatenate([getattr(p, f) for p in parts]) for f in ("x", "y", "game")))

    def __len__(self) -> int:
        return len(self.y)

    def save(self, path: str | Path) -> None:
        np.savez_compressed(path, x=self.x, y=self.y, game=self.game)

    @classmethod
    def load(cls, path: str | Path) -> WholePositions:
        with np.load(path) as data:
            return cls(data["x"], data["y"], data["game"])


def whole_positions(seeds: Iterable[int], explore: bool = False) -> WholePositions:
    """Every kept turn of 2-player ``hard`` games (:func:`.selfplay.play_game`, which keeps the
    mover's view and the other seat's), as one row each way, labelled with the first seat's result
    (1 won, 0.5 drawn, 0 lost)."""
    from .selfplay import play_game  # the compiled engine: only where the judge is trained

    parts, labels, games = [], [], []
    for seed in seeds:
        kept, winner, _ = play_game(TWO, seed, explore)
        for (first, seat, _), (second, _, _) in zip(kept[::2], kept[1::2], strict=True):
            parts += [first, second]
            labels.append(0.5 if winner is None else float(winner == seat % 2))
            games.append(seed)
    x = features(parts) if parts else np.zeros((0, NUM_FEATURES), dtype=np.float32)
    a, b = x[0::2], x[1::2]
    y = np.array(labels, dtype=np.float32)
    g = np.array(games, dtype=np.int64)
    return WholePositions(
        x=np.concatenate([np.hstack([a, b]), np.hstack([b, a])]),
        y=np.concatenate([y, 1.0 - y]),
        game=np.concatenate([g, g]),
    )
