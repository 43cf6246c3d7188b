"""One move judged by the evaluator: every legal play and every possible draw, one batch.

Why this shape: the evaluator (:mod:`sequence_game.evaluator.model`) is deterministic and judges a
position in microseconds, so a move can be judged exhaustively instead of by sampled worlds: each
legal play is applied to a copy of the true state, and the mover's view after it is read with
each card the mover might then draw in its hand (:func:`~sequence_game.features.position.with_hand`),
weighted by the copies of that card the mover has not seen. The features read only what the seat
may see, so starting from the true state leaks nothing: the only hidden part they read is the
mover's own hand, which is replaced. The same inputs always give the same chances, so labels
built on them reproduce by construction.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from copy import copy
from dataclasses import dataclass

import numpy as np

from ..actions import DEAD, DISCARD, DRAW, REMOVE, WILD
from ..board import CARD_MASK, LAYOUT
from ..cards import JC, JD, JH, JS, Card, is_jack
from ..evaluator.model import Evaluator
from ..features.position import ViewParts, unseen_cards, view_parts, with_hand
from ..state import GameState


@dataclass(frozen=True)
class Play:
    """A legal play of the mover and its chance (its draw not yet seen)."""

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
    drawn: Card | None
    seat_chances: list[float]
    """After the move (its draw seen), every seat's own-view chance of its own side."""
    evaluated: int
    """Positions given to the evaluator for this move."""

    @property
    def before(self) -> float:
        return self.plays[0].chance


def played_card(hand: Sequence[Card], action: int, card: Card | None) -> Card | None:
    """The card an action takes from ``hand``, as the engine picks it (``None`` for a draw)."""
    if action < WILD:
        return LAYOUT[action]
    if action < REMOVE:
        return card if card is not None else JD if JD in hand else JC
    if action < DEAD:
        return card if card is not None else JS if JS in hand else JH
    if action < DISCARD:
        return action - DEAD
    if action < DRAW:
        return action - DISCARD
    return None


def kept_cards(hand: Sequence[Card], action: int, card: Card | None) -> list[Card]:
    """The hand after the action, before any draw."""
    kept = list(hand)
    played = played_card(hand, action, card)
    if played is not None:
        kept.remove(played)
    return kept


def drawn_card(kept: Sequence[Card], after: Sequence[Card]) -> Card | None:
    """The card a hand took in: ``after`` less ``kept`` (``None``: nothing drawn)."""
    new = Counter(after) - Counter(kept)
    return next(iter(new.elements()), None)


def result_of(state: GameState, side: int) -> float:
    """A finished game's worth to ``side``: 1 won, 0.5 drawn (R7.2), 0 lost."""
    outcome = state.outcome()
    assert outcome is not None
    return 0.5 if outcome.winner is None else float(outcome.winner == side)


class _Batch:
    """Rows for one evaluator call: each chance to compute is a weighted mean of some rows, or an
    exact value (a finished game needs no evaluator)."""

    def __init__(self) -> None:
        self.parts: list[ViewParts] = []
        self.groups: list[tuple[int, int, list[float]] | float] = []

    def exact(self, value: float) -> int:
        self.groups.append(value)
        return len(self.groups) - 1

    def add(self, parts: Sequence[ViewParts], weights: Sequence[float]) -> int:
        self.groups.append((len(self.parts), len(parts), list(weights)))
        self.parts.extend(parts)
        return len(self.groups) - 1

    def solve(self, evaluator: Evaluator) -> list[float]:
        raw = evaluator.chances_of_parts(self.parts) if self.parts else np.zeros(0)
        out = []
        for group in self.groups:
            if isinstance(group, float):
                out.append(group)
            else:
                start, n, weights = group
                w = np.asarray(weights, dtype=np.float64)
                out.append(float(np.dot(raw[start : start + n], w) / w.sum()))
        return out


@dataclass
class _Played:
    """A play applied to a copy of the state: what its chance needs."""

    action: int
    card: Card | None
    exact: float | None
    """The result when the play ends the game."""
    parts: ViewParts | None
    kept: list[Card]
    drew: bool


def _play(state: GameState, seat: int, action: int, card: Card | None) -> _Played:
    world = state.copy()
    kept = kept_cards(world.hand(seat), action, card)
    world._apply(action, seat, card)
    if world.is_terminal():
        return _Played(action, card, result_of(world, seat % world.config.sides), None, kept, False)
    parts = view_parts(world.view(seat))
    return _Played(action, card, None, parts, kept, len(world.hand(seat)) > len(kept))


def draw_rows(kept: ViewParts, cards: Sequence[Card]) -> list[ViewParts]:
    """``with_hand(kept, kept's hand + [c])`` for each card ``c``, built from ``kept`` directly:
    the evaluator's rows differ only in the drawn card, and ``with_hand`` rebuilt every field of
    every row (half the analysis' time). ``tests/analysis`` checks that both give the same rows."""
    occupied = kept.chips[0] | kept.chips[1] | kept.chips[2]
    hand, seen = list(kept.hand), list(kept.seen)
    rows = []
    for c in cards:
        row = copy(kept)
        hand[c] += 1
        seen[c] += 1
        object.__setattr__(row, "hand", tuple(hand))
        object.__setattr__(row, "seen", tuple(seen))
        hand[c] -= 1
        seen[c] -= 1
        object.__setattr__(row, "hand_size", kept.hand_size + 1)
        dead = not is_jack(c) and CARD_MASK[c] & ~occupied == 0
        object.__setattr__(row, "dead", kept.dead + dead)
        rows.append(row)
    return rows


def _over_draws(batch: _Batch, play: _Played) -> int:
    """Queue the play's chance averaged over the cards it may draw, each weighted by the copies
    of it the mover has not seen (the draw pile's order and the other hands are unknown to it)."""
    if play.exact is not None:
        return batch.exact(play.exact)
    assert play.parts is not None
    if not play.drew:
        return batch.add([play.parts], [1.0])
    kept = with_hand(play.parts, play.kept)
    copies = unseen_cards(kept)
    cards = [c for c, n in enumerate(copies) if n > 0]
    if not cards:
        return batch.add([play.parts], [1.0])
    return batch.add(draw_rows(kept, cards), [float(copies[c]) for c in cards])


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
        actions = list(state.view(seat).legal_actions)
        plays = [_play(state, seat, a, card if a == action else None) for a in actions]
    else:
        plays = [_play(state, seat, action, card)]
    batch = _Batch()
    groups = [_over_draws(batch, p) for p in plays]
    drawn = drawn_card(kept_cards(state.hand(seat), action, card), after_state.hand(seat))
    seats = range(after_state.players)
    if after_state.is_terminal():
        real = batch.exact(result_of(after_state, side))
        others = [batch.exact(result_of(after_state, s % after_state.config.sides)) for s in seats]
    else:
        real = batch.add([view_parts(after_state.view(seat))], [1.0])
        others = [batch.add([view_parts(after_state.view(s))], [1.0]) for s in seats]
    values = batch.solve(evaluator)
    judged = [Play(p.action, p.card, values[g]) for p, g in zip(plays, groups, strict=True)]
    actual = next(p.chance for p in judged if p.action == action)
    judged.sort(key=lambda p: -p.chance)  # stable: ties keep the legal actions' order
    return Judgement(
        plays=judged,
        after=actual,
        after_draw=values[real] if drawn is not None else actual,
        drawn=drawn,
        seat_chances=[values[g] for g in others],
        evaluated=len(batch.parts),
    )
