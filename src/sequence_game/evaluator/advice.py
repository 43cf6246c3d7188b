"""A hint: the play with the best chance from a seat's own view, and why, in a few words.

Why the evaluator and not a search: a hint must come at once, on a fresh server too (no compiled
kernels to load), must never be a random move dressed as advice, and must say why. The reason is
read off the position before and after the play, from the seat's view: it wins; it completes a
sequence; it blocks a threat of another side (a cell that side needs for five); it makes a threat
of its own; or, when none of these, it simply keeps the best chance.

>>> import random
>>> from sequence_game import GameConfig, new_game
>>> state = new_game(GameConfig(players=2), seed=3)
>>> advice = advise(state.view(0), random.Random(0))
>>> advice.action in state.legal_actions(), advice.reason in REASONS
(True, True)
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Final

from ..features.position import ViewParts, threat_cells, view_parts
from ..state import GameState
from ..views import PlayerView
from ..worlds import sample_world
from .model import Evaluator
from .moves import judge_plays

REASONS: Final = ("wins", "sequence", "blocks", "threatens", "best")
"""Why a hint's play is the one: it ``wins`` the game; it completes a ``sequence``; it ``blocks``
a threat of another side; it ``threatens`` (makes a cell its side needs for five); or it keeps
the ``best`` chance of the plays."""


@dataclass(frozen=True)
class Advice:
    """A hint for one seat: the play, its chance, why, and the next best plays."""

    action: int
    chance: float
    reason: str
    """One of :data:`REASONS`."""
    cells: tuple[int, ...] = ()
    """The cells the reason is about: the threat blocked or made."""
    side: int | None = None
    """With ``blocks``, the side whose threat it blocks."""
    alternatives: tuple[tuple[int, float], ...] = field(default=())
    """The next best plays with their chances, best first (at most three)."""


def _reason(
    before: ViewParts, after: ViewParts, won: bool, sides: int
) -> tuple[str, tuple[int, ...], int | None]:
    if won:
        return "wins", (), None
    if after.sequences[0] > before.sequences[0]:
        return "sequence", (), None
    for k in range(1, sides):
        gone = threat_cells(before, k) - threat_cells(after, k)
        if gone:
            return "blocks", tuple(sorted(gone)), k
    made = threat_cells(after, 0) - threat_cells(before, 0)
    if made:
        return "threatens", tuple(sorted(made)), 0
    return "best", (), None


def advise(view: PlayerView, rng: random.Random, judge: Evaluator | None = None) -> Advice:
    """The best play for ``view``'s seat by the evaluator, with its reason (the view only: the
    hidden cards are dealt at random, which changes nothing the evaluator reads)."""
    judge = judge or Evaluator.load()
    world = sample_world(view, rng)
    return advise_state(world, view.seat, judge)


def advise_state(state: GameState, seat: int, judge: Evaluator) -> Advice:
    """:func:`advise` on a state that gives back the seat's view."""
    acts = state.legal_actions(seat)
    if not acts:
        raise ValueError("R4.3: this seat has nothing to play now")
    judged = judge_plays(judge, state, seat, acts)
    chances = {play.action: chance for play, chance in judged}
    wins = {play.action for play, _ in judged if play.exact == 1.0}  # the play ends the game, won
    order = sorted(acts, key=lambda a: (a not in wins, -chances[a], a))
    best = next(play for play, _ in judged if play.action == order[0])
    before = view_parts(state.view(seat))
    after = best.parts if best.parts is not None else before  # no view after a won game: not read
    sides = state.config.sides
    reason, cells, k = _reason(before, after, best.action in wins, sides)
    return Advice(
        action=best.action,
        chance=chances[best.action],
        reason=reason,
        cells=cells,
        side=None if k is None else (seat % sides + k) % sides,
        alternatives=tuple((a, chances[a]) for a in order[1:4]),
    )
