"""The shape shared by the one-ply bots: score every R5.2 play, take the best, break ties at
random (seeded). Subclasses say how a play is scored and what each kind of jack is worth keeping
when a card must be discarded."""

from __future__ import annotations

import random

from ..actions import DEAD
from ..views import PlayerView
from .base import Limit, forced_action
from .evaluation import Board, Weights, best_discard


class OnePlyBot:
    """A bot that looks one play ahead with an evaluation of the board."""

    name = "one-ply"
    jack_keep: tuple[float, float] = (100.0, 50.0)
    """What a two-eyed and a one-eyed jack are worth keeping when discarding (R5.5, R6.1)."""

    def __init__(self, seed: int | None, weights: Weights) -> None:
        self.rng = random.Random(seed)
        self.weights = weights

    def score_plays(self, view: PlayerView, board: Board, plays: list[int]) -> list[float]:
        """The score of each play in ``plays``, higher is better."""
        raise NotImplementedError

    def select_action(self, view: PlayerView, limit: Limit | None = None) -> int:
        forced = forced_action(view)
        if forced is not None:
            return forced
        board = Board.of_view(view)
        plays = [a for a in view.legal_actions if a < DEAD]
        if not plays:  # a stuck hand (R5.5) or a table-talk fine (R6.1)
            return best_discard(board, view.side, view.legal_actions, self.weights, self.jack_keep)
        scores = self.score_plays(view, board, plays)
        top = max(scores)
        best = [a for a, s in zip(plays, scores, strict=True) if s >= top - 1e-9]
        return best[int(self.rng.random() * len(best))]
