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

from ..views import PlayerView
from .evaluation import GREEDY, Board, Weights, action_gain
from .oneply import OnePlyBot


class GreedyBot(OnePlyBot):
    """Immediate gains and blocks, one ply deep (well under a millisecond a move)."""

    name = "greedy"

    def __init__(self, seed: int | None = None, weights: Weights = GREEDY) -> None:
        super().__init__(seed, weights)

    def score_plays(self, view: PlayerView, board: Board, plays: list[int]) -> list[float]:
        return [action_gain(board, view.side, a, self.weights) for a in plays]
