"""A hint explained: a play's chance from a seat's own view, and why, in a few words.

The evaluator explains the play; which play to advise is better left to a search
(:mod:`sequence_game.analysis.hint`: the evaluator's own best play, as a player, loses to
``hard``). The reason is read off the position before and after the play, from the seat's view:
it wins; it completes a sequence; it blocks a threat of another side (a cell that side needs for
five); it makes a threat of its own; or, when none of these, it simply keeps the best chance.

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
    """The evaluator's next best plays with their chances, best first (at most three)."""
    chosen_by: str = "evaluator"
    """Who chose the play: ``evaluator``; with :mod:`sequence_game.analysis.hint`, ``expert``
    (the search), ``ranking`` (the tuned heuristic's ranking) or ``forced`` (nothing to choose)."""


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


def advise(
    view: PlayerView, rng: random.Random, judge: Evaluator | None = None, play: int | None = None
) -> Advice:
    """The best play for ``view``'s seat by the evaluator, or ``play`` (another judge's choice, a
    search's), with its chance, its reason and the evaluator's next best plays (the view only: the
    hidden cards are dealt at random, which changes nothing the evaluator reads). A play that
    wins at once is always the one advised."""
    judge = judge or Evaluator.load()
    world = sample_world(view, rng)
    return advise_state(world, view.seat, judge, play)


def advise_state(state: GameState, seat: int, judge: Evaluator, play: int | None = None) -> Advice:
    """:func:`advise` on a state that gives back the seat's view."""
    acts = state.legal_actions(seat)
    if not acts:
        raise ValueError("R4.3: this seat has nothing to play now")
    if play is not None and play not in acts:
        raise ValueError(f"R4.3: action {play} is not one this seat may take now")
    judged = judge_plays(judge, state, seat, acts)
    chances = {p.action: chance for p, chance in judged}
    wins = {p.action for p, _ in judged if p.exact == 1.0}  # the play ends the game, won
    order = sorted(acts, key=lambda a: (a not in wins, -chances[a], a))
    if play is not None and (play in wins or not wins):
        order.remove(play)
        order.insert(0, play)
    best = next(p for p, _ in judged if p.action == order[0])
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
