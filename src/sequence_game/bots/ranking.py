"""How the searches rank their candidates: the heuristic bot's score of each play, and what a
jack spends, kept apart so that one scoring can be ranked under several sets of jack costs
(``mcts``, ``pimc``, ``planner``)."""

from __future__ import annotations

from typing import Final

from ..actions import DEAD, REMOVE, WILD
from ..views import PlayerView
from .evaluation import Board, Weights
from .heuristic import (
    HEURISTIC,
    ONE_EYED_SPEND,
    REACH,
    THREAT_WEIGHT,
    TUNED,
    TUNED_3P,
    TUNED_3P_JACK_COSTS,
    TUNED_3P_REACH,
    TUNED_3P_THREAT_WEIGHT,
    TUNED_JACK_COSTS,
    TUNED_REACH,
    TUNED_THREAT_WEIGHT,
    TWO_EYED_SPEND,
    score_plays,
)

__all__ = ["RANKINGS", "play_scores", "ranked_plays", "spent"]

RANKINGS: Final[dict[str, tuple[Weights, tuple[float, float], float, tuple[float, float, float]]]] = {
    "heuristic": (HEURISTIC, (TWO_EYED_SPEND, ONE_EYED_SPEND), THREAT_WEIGHT, REACH),
    "tuned": (TUNED, TUNED_JACK_COSTS, TUNED_THREAT_WEIGHT, TUNED_REACH),
    "tuned3": (TUNED_3P, TUNED_3P_JACK_COSTS, TUNED_3P_THREAT_WEIGHT, TUNED_3P_REACH),
}
"""The numbers that may rank plays (``pimc``'s ``rank``): weights, jack costs, threat weight and
reach, the default heuristic's, those tuned at 2 players (:data:`~.heuristic.TUNED`) or at 3
(:data:`~.heuristic.TUNED_3P`). ``"table"`` (not a key here) takes the 3-player ones where three
sides play and the 2-player ones elsewhere."""


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


def ranked_plays(
    view: PlayerView, plays: list[int], rank: str = "table", inference: bool = True
) -> tuple[list[int], dict[int, float]]:
    """``plays`` (R5.2 plays of the view's seat), best first by the ranking ``rank`` (a key of
    :data:`RANKINGS`, or ``"table"``) net of what a jack spends, equals in their given order; and
    each play's net score. The expert's candidates come from the front, and so does a hint's
    play where no search is at hand."""
    if rank == "table":
        rank = "tuned3" if view.config.sides == 3 else "tuned"
    weights, costs, threat_weight, reach = RANKINGS[rank]
    scores = play_scores(view, plays, inference, weights, threat_weight, reach)
    net = {a: scores[a] - spent(a, costs) for a in plays}
    return sorted(plays, key=lambda a: -net[a]), net
