"""The chance after each play, before its draw is known: what ranks a seat's plays.

A play ends with a draw (R5.4) that the mover cannot know when choosing, so a play's chance is
the evaluator's chance of the position after it, averaged over the card drawn: every card the
mover has not seen, weighted by its copies still unseen. A play that ends the game is worth its
result exactly. All the positions of all the plays go through the network in one batch
(:class:`Batch`); the post-game analysis (``analysis.judge``) builds on the same parts.

Only the mover's own hand and public facts reach the features, so the position after a play can
be made on any state that gives back the mover's view: the real one (post-game analysis) or a
world dealt from the view (:func:`~sequence_game.worlds.sample_world`, for a player's hint or a
bot); the answer is the same.

>>> from sequence_game import GameConfig, new_game
>>> from sequence_game.evaluator.model import Evaluator
>>> state = new_game(GameConfig(players=2), seed=3)
>>> chances = play_chances(Evaluator.load(), state, state.current_seat)
>>> sorted(chances) == state.legal_actions(), all(0 < p < 1 for p in chances.values())
(True, True)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from copy import copy
from dataclasses import dataclass

import numpy as np

from ..actions import DEAD, DISCARD, DRAW, REMOVE, WILD
from ..board import CARD_MASK, LAYOUT
from ..cards import JC, JD, JH, JS, Card, is_jack
from ..features.position import ViewParts, unseen_cards, view_parts, with_hand
from ..state import GameState
from ..views import PlayerView
from ..worlds import sample_world
from .model import Evaluator


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


class Batch:
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
class Played:
    """A play applied to a copy of the state: what its chance needs."""

    action: int
    card: Card | None
    exact: float | None
    """The result when the play ends the game."""
    parts: ViewParts | None
    kept: list[Card]
    drew: bool


def apply_play(state: GameState, seat: int, action: int, card: Card | None) -> Played:
    world = state.copy()
    kept = kept_cards(world.hand(seat), action, card)
    world._apply(action, seat, card)
    if world.is_terminal():
        return Played(action, card, result_of(world, seat % world.config.sides), None, kept, False)
    parts = view_parts(world.view(seat))
    return Played(action, card, None, parts, kept, len(world.hand(seat)) > len(kept))


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


def over_draws(batch: Batch, play: Played, draws: int | None = None, rng: random.Random | None = None) -> int:
    """Queue the play's chance averaged over the cards it may draw, each weighted by the copies
    of it the mover has not seen (the draw pile's order and the other hands are unknown to it);
    with ``draws``, over that many cards sampled by those weights."""
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
    weights = [float(copies[c]) for c in cards]
    if draws is not None and len(cards) > draws:  # a sample, drawn by the weights
        cards = (rng or random.Random(0)).choices(cards, weights=weights, k=draws)
        weights = [1.0] * draws
    return batch.add(draw_rows(kept, cards), weights)


def judge_plays(
    judge: Evaluator,
    state: GameState,
    seat: int,
    actions: Iterable[int] | None = None,
    *,
    draws: int | None = None,
    rng: random.Random | None = None,
) -> list[tuple[Played, float]]:
    """Each legal action of ``seat`` (or each of ``actions``) applied once, with its side's
    chance after it (see :func:`play_chances`)."""
    acts = list(state.legal_actions(seat) if actions is None else actions)
    plays = [apply_play(state, seat, a, None) for a in acts]
    batch = Batch()
    groups = [over_draws(batch, play, draws, rng) for play in plays]
    values = batch.solve(judge)
    return [(play, values[g]) for play, g in zip(plays, groups, strict=True)]


def play_chances(
    judge: Evaluator,
    state: GameState,
    seat: int,
    actions: Iterable[int] | None = None,
    *,
    draws: int | None = None,
    rng: random.Random | None = None,
) -> dict[int, float]:
    """Per legal action of ``seat`` (or ``actions``), its side's chance after it, the draw
    averaged out: over every card it may be (exact), or over ``draws`` cards sampled by their
    weights with ``rng`` (cheaper, for a bot on a clock)."""
    return {
        play.action: chance for play, chance in judge_plays(judge, state, seat, actions, draws=draws, rng=rng)
    }


def view_play_chances(
    judge: Evaluator,
    view: PlayerView,
    rng: random.Random,
    actions: Iterable[int] | None = None,
    *,
    draws: int | None = None,
) -> dict[int, float]:
    """:func:`play_chances` from a view alone: on a world dealt from it (the same answer)."""
    world = sample_world(view, rng)
    acts = view.legal_actions if actions is None else actions
    return play_chances(judge, world, view.seat, acts, draws=draws, rng=rng)
