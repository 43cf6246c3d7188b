"""How the searches rank their candidates: the heuristic bot's score of each play, and what a
jack spends, kept apart so that one scoring can be ranked under several sets of jack costs
(``mcts``, ``pimc``, ``planner``)."""

from __future__ import annotations

from ..actions import DEAD, REMOVE, WILD
from ..views import PlayerView
from .evaluation import Board, Weights
from .heuristic import HEURISTIC, REACH, THREAT_WEIGHT, score_plays

__all__ = ["play_scores", "spent"]


def play_scores(
    view: PlayerView,
    acts: list[int],
    inference: bool = True,
    weights: Weights = HEURISTIC,
    threat_weight: float = THREAT_WEIGHT,
    reach: tuple[float, float, float] = REACH,
) -> dict[int, float]:
    """The heuristic bot's score of each R5.2 play among ``acts`` before what spending a jack
    costs (:func:`spent`): computed once, ranked under two sets of jack costs. The other
    numbers are the default heuristic's unless given (``pimc``'s tuned ranking)."""
    plays = [a for a in acts if a < DEAD]
    if not plays:
        return {}
    board = Board.of_view(view)
    scores = score_plays(
        view, board, plays, weights, (0.0, 0.0), threat_weight=threat_weight, reach=reach, inference=inference
    )
    return dict(zip(plays, scores, strict=True))


def spent(action: int, costs: tuple[float, float]) -> float:
    """What playing ``action`` spends: a two-eyed jack's or a one-eyed jack's cost, else 0."""
    if WILD <= action < REMOVE:
        return costs[0]
    if REMOVE <= action < DEAD:
        return costs[1]
    return 0.0
