"""One move judged by the evaluator: every legal play and every possible draw, one batch.

Why this shape: the evaluator (:mod:`sequence_game.evaluator.model`) is deterministic and judges a
position in microseconds, so a move can be judged exhaustively instead of by sampled worlds: each
legal play is applied to a copy of the true state, and the mover's view after it is read with
each card the mover might then draw in its hand (:func:`~sequence_game.features.position.with_hand`),
weighted by the copies of that card the mover has not seen. (The rows are built as one view per
play plus the card drawn, :func:`~sequence_game.features.position.draw_features`, and the view
after each play is read straight from the copied state, ``evaluator.moves.seat_parts``: the same
numbers as reading whole views, several times faster; ``tests/features`` checks both.) The
features read only what the seat may see, so starting from the true state leaks nothing: the only
hidden part they read is the mover's own hand, which is replaced. The same inputs always give the
same chances, so labels built on them reproduce by construction.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import Card
from ..evaluator.model import Evaluator
from ..evaluator.moves import (
    Batch,
    apply_play,
    drawn_card,
    kept_cards,
    over_draws,
    over_pile,
    play_chance,
    position_marks,
    result_of,
    seat_parts,
)
from ..state import GameState


@dataclass(frozen=True)
class Play:
    """A legal play of the mover and its chance (its draw not yet seen; a jack play's net of
    :func:`~sequence_game.evaluator.moves.jack_cost`)."""

    action: int
    card: Card | None
    """The jack played, for a jack action; ``None`` lets the engine choose."""
    chance: float


@dataclass(frozen=True)
class Judgement:
    """A move from its mover's view; every chance is the mover's side's (0..1)."""

    plays: list[Play]
    """The plays judged, best first (ties in action order); the actual play is among them."""
    after: float
    """The actual play's chance, averaged over the cards it might draw."""
    after_draw: float
    """The actual play's chance with the card really drawn (``after`` when nothing was drawn)."""
    after_pile: float
    """The actual play's chance averaged over the cards really in the draw pile (``after`` when
    nothing was drawn): ``after`` also weighs the cards in the other hands, which the mover could
    not tell from the pile. It and ``after_draw`` are the network's chances of the positions after
    the draw, without a jack play's cost: ``after`` is net of it (the cost is the true hands'
    correction of the network, so it is counted with what the other hands hid)."""
    drawn: Card | None
    seat_chances: list[float]
    """After the move (its draw seen), every seat's own-view chance of its own side."""
    evaluated: int
    """Positions given to the evaluator for this move."""

    @property
    def before(self) -> float:
        return self.plays[0].chance


def judge(
    state: GameState,
    seat: int,
    action: int,
    card: Card | None,
    after_state: GameState,
    evaluator: Evaluator,
    *,
    decision: bool,
) -> Judgement:
    """Judge ``seat``'s ``action`` in ``state`` (left unchanged); ``after_state`` is the true
    state after it, with the card really drawn.

    For a decision every legal play is judged over every card it may draw, for a forced move only
    the actual one; with the real draw and every seat's view after the move, that is one
    evaluator call."""
    side = seat % state.config.sides
    if decision:
        actions = state.legal_actions(seat)
        marks = position_marks(state)
        plays = [apply_play(state, seat, a, card if a == action else None, marks) for a in actions]
    else:
        plays = [apply_play(state, seat, action, card)]
    batch = Batch()
    groups = [over_draws(batch, p) for p in plays]
    actual_play = next(p for p in plays if p.action == action)
    pile = over_pile(batch, actual_play, state._deck)
    drawn = drawn_card(kept_cards(state.hand(seat), action, card), after_state.hand(seat))
    seats = range(after_state.players)
    if after_state.is_terminal():
        real = batch.exact(result_of(after_state, side))
        others = [batch.exact(result_of(after_state, s % after_state.config.sides)) for s in seats]
    else:
        real = batch.add([seat_parts(after_state, seat)], [1.0])
        others = [batch.add([seat_parts(after_state, s)], [1.0]) for s in seats]
    values = batch.solve(evaluator)
    players = state.config.players
    judged = [
        Play(p.action, p.card, play_chance(p, values[g], players)) for p, g in zip(plays, groups, strict=True)
    ]
    actual = next(p.chance for p in judged if p.action == action)
    judged.sort(key=lambda p: -p.chance)  # stable: ties keep the legal actions' order
    return Judgement(
        plays=judged,
        after=actual,
        after_draw=values[real] if drawn is not None else actual,
        after_pile=values[pile] if pile is not None and drawn is not None else actual,
        drawn=drawn,
        seat_chances=[values[g] for g in others],
        evaluated=batch.rows,
    )
