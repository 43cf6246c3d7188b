"""The one-ply greedy bot: the play that most raises its side's open lines and blocks the others'.

It looks at the board only (no hand planning, no jack saving): each legal play is scored with
:func:`~sequence_game.bots.evaluation.action_gain` under the :data:`GREEDY` weights, and ties
are broken at random (seeded).

>>> from sequence_game import GameConfig, new_game
>>> state = new_game(GameConfig(players=2), seed=4)
>>> bot = GreedyBot(seed=1)
>>> bot.select_action(state.view(state.current_seat)) in state.legal_actions()
True
"""

from __future__ import annotations

import random

from ..actions import DEAD
from ..views import PlayerView
from .base import Limit, forced_action
from .evaluation import GREEDY, Board, Weights, action_gain, best_discard


class GreedyBot:
    """Immediate gains and blocks, one ply deep (well under a millisecond a move)."""

    name = "greedy"

    def __init__(self, seed: int | None = None, weights: Weights = GREEDY) -> None:
        self.rng = random.Random(seed)
        self.weights = weights

    def select_action(self, view: PlayerView, limit: Limit | None = None) -> int:
        forced = forced_action(view)
        if forced is not None:
            return forced
        board = Board.of_view(view)
        plays = [a for a in view.legal_actions if a < DEAD]
        if not plays:  # a stuck hand (R5.5) or a table-talk fine (R6.1)
            return best_discard(board, view.side, view.legal_actions, self.weights, (100.0, 50.0))
        best: list[int] = []
        best_score = float("-inf")
        for a in plays:
            score = action_gain(board, view.side, a, self.weights)
            if score > best_score + 1e-9:
                best, best_score = [a], score
            elif score > best_score - 1e-9:
                best.append(a)
        return best[int(self.rng.random() * len(best))]
