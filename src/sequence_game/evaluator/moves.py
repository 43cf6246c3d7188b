"""The chance after each play, before its draw is known: what ranks a seat's plays.

A play ends with a draw (R5.4) that the mover cannot know when choosing, so a play's chance is
the evaluator's chance of the position after it, averaged over the card drawn: every card the
mover has not seen, weighted by its copies still unseen. All the positions of all the plays go
through the network in one batch.

Only the mover's own hand and public facts reach the features, so the position after a play can
be made on any state that gives back the mover's view: the real one (post-game analysis) or a
world dealt from the view (:func:`~sequence_game.worlds.sample_world`, for a player's hint or a
bot); the answer is the same.

>>> import random
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

import numpy as np

from ..actions import DRAW
from ..cards import Card
from ..features.position import ViewParts, unseen_cards, view_parts, with_hand
from ..state import GameState
from ..views import PlayerView
from ..worlds import sample_world
from .model import Evaluator


def _draws(parts: ViewParts, kept: Sequence[Card]) -> list[tuple[Card | None, float]]:
    """The cards a draw may bring, with their weights (unseen copies, normalised); ``None``
    when the pile is empty (no draw)."""
    if parts.deck == 0:
        return [(None, 1.0)]
    unseen = unseen_cards(with_hand(parts, kept))
    total = sum(unseen)
    if total == 0:
        return [(None, 1.0)]
    return [(card, n / total) for card, n in enumerate(unseen) if n]


def after_play(state: GameState, seat: int, action: int) -> tuple[ViewParts, list[Card], bool]:
    """The seat's view after ``action`` on a copy of ``state``: its parts, the hand it kept
    (before any draw), and whether the action drew a card."""
    before = list(state.hand(seat))
    trial = state.copy()
    trial._apply(action, seat)
    view = trial.view(seat)
    kept = Counter(before)
    if action != DRAW:
        pile = view.discards[seat]
        spent = pile[-1] if pile else next(iter((Counter(before) - Counter(view.hand)).elements()), None)
        if spent is not None:
            kept[spent] -= 1
    kept_cards = list(kept.elements())
    return view_parts(view), kept_cards, len(view.hand) == len(kept_cards) + 1


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
    acts = list(state.legal_actions(seat) if actions is None else actions)
    rows: list[ViewParts] = []
    weights: list[float] = []
    owner: list[int] = []
    for i, action in enumerate(acts):
        parts, kept, drew = after_play(state, seat, action)
        if not drew:
            rows.append(parts)  # the pile was empty: nothing drawn
            weights.append(1.0)
            owner.append(i)
            continue
        options = _draws(parts, kept)
        if draws is not None and len(options) > draws:
            picked = (rng or random.Random(0)).choices(options, weights=[w for _, w in options], k=draws)
            options = [(card, 1.0 / draws) for card, _ in picked]
        for card, weight in options:
            rows.append(parts if card is None else with_hand(parts, [*kept, card]))
            weights.append(weight)
            owner.append(i)
    p = judge.chances_of_parts(rows) if rows else np.zeros(0)
    sums = np.bincount(np.array(owner, dtype=np.intp), weights=p * np.array(weights), minlength=len(acts))
    return {a: float(sums[i]) for i, a in enumerate(acts)}


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


__all__ = ["after_play", "play_chances", "view_play_chances"]
