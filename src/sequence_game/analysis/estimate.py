"""Winning chances from one seat's view: worlds sampled from the view, played out to the end.

Why this shape: the analysis must judge a move by what its mover could know, never by the hidden
cards, so every estimate starts from :func:`~sequence_game.worlds.sample_world` of the mover's
view. All candidate plays are tried in the *same* sampled worlds with the *same* random numbers
(common random numbers, as the search bot does), so the differences between them, which decide
the labels, are far less noisy than each chance alone. A draw's luck is measured the same way:
each sampled world is played on once with the card the world dealt and once with the card that
was really drawn swapped in, everything else equal.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass, replace
from typing import Final

from ..actions import DRAW, REMOVE, WILD
from ..bots.mcts import GreedyRolloutEvaluator
from ..cards import Card
from ..state import GameState
from ..views import PlayerView
from ..worlds import sample_world

MAX_PLIES: Final = 400
"""Playouts stop after this many turns (a game of 2 players lasts 30-80); an unfinished one is
scored by the search bot's static evaluation (it has never happened in the measurements)."""

_PLAYOUT: Final = GreedyRolloutEvaluator(plies=MAX_PLIES)


def chance(world: GameState, side: int, rng: random.Random) -> float:
    """The side's result when every seat plays the fast greedy policy from ``world`` to the end:
    1 for a win, 0.5 for a drawn game, 0 for a loss (``world`` is played on, not copied)."""
    if world.config.draw == "manual":
        _auto_draws(world)
    return (_PLAYOUT.evaluate(world, rng)[side] + 1.0) / 2.0


def _auto_draws(world: GameState) -> None:
    """Playouts ignore the timing of manual draws (R5.3), as search does: owed draws are made now
    and later ones automatically."""
    for seat in range(world.players):
        if world.owes_draw(seat) and not world.is_terminal():
            world._apply(DRAW, seat)
    world._manual = False
    world.config = replace(world.config, draw="auto")


def drawn_card(before: tuple[Card, ...] | list[Card], played: Card | None, after: list[Card]) -> Card | None:
    """The card a hand took in: ``after`` less (``before`` less the card ``played``)."""
    kept = Counter(before)
    if played is not None:
        kept[played] -= 1
    new = Counter(after) - kept
    return next(iter(new.elements()), None)


def played_card(world: GameState, seat: int, action: int, card: Card | None) -> Card | None:
    """The card an action takes from the hand (``None`` for a draw)."""
    from ..actions import DEAD, DISCARD
    from ..board import LAYOUT
    from ..cards import JC, JD, JH, JS

    if action < WILD:
        return LAYOUT[action]
    if action < REMOVE:
        return card if card is not None else JD if JD in world.hand(seat) else JC
    if action < DEAD:
        return card if card is not None else JS if JS in world.hand(seat) else JH
    if action < DISCARD:
        return action - DEAD
    if action < DRAW:
        return action - DISCARD
    return None


def swap_draw(world: GameState, seat: int, dealt: Card, real: Card, rng: random.Random) -> bool:
    """Make the seat's just-drawn ``dealt`` card the ``real`` one: a copy of ``real`` among the
    cards hidden from the seat (other hands, draw pile), chosen at random, takes ``dealt``'s place.
    Returns ``False`` if the world hides no copy of ``real`` (then nothing changes)."""
    places: list[tuple[list[Card], int]] = [
        (hand, i) for s, hand in enumerate(world._hands) if s != seat for i, c in enumerate(hand) if c == real
    ]
    places += [(world._deck, i) for i, c in enumerate(world._deck) if c == real]
    if not places:
        return False
    pile, at = places[int(rng.random() * len(places))]
    pile[at] = dealt
    hand = world._hands[seat]
    hand[hand.index(dealt)] = real
    return True


@dataclass
class Estimates:
    """Mean chances of the mover's side over the sampled worlds."""

    by_action: dict[int, float]
    """Per candidate action, the side's chance after it (its draw unseen)."""
    with_real_draw: float | None
    """The chance after the actual action with the card really drawn (``None``: no draw)."""
    samples: int


def estimate(
    view: PlayerView,
    candidates: list[tuple[int, Card | None]],
    actual: tuple[int, Card | None],
    real_draw: Card | None,
    rng: random.Random,
    samples: int,
    deadline: float,
    min_samples: int = 4,
) -> Estimates:
    """Chances of the view's side after each candidate ``(action, jack card)`` and after
    ``actual`` with ``real_draw`` swapped in, over ``samples`` sampled worlds or until
    ``deadline`` (``time.perf_counter``), whichever comes first (at least ``min_samples``)."""
    seat, side = view.seat, view.side
    totals = dict.fromkeys((a for a, _ in candidates), 0.0)
    real_total = 0.0
    done = 0
    while done < samples and (done < min_samples or time.perf_counter() < deadline):
        base = sample_world(view, rng)
        seed = rng.getrandbits(63)
        for action, card in candidates:
            world = base.copy()
            world._apply(action, seat, card)
            totals[action] += chance(world, side, random.Random(seed))
        if real_draw is not None:
            world = base.copy()
            action, card = actual
            world._apply(action, seat, card)
            dealt = drawn_card(view.hand, played_card(base, seat, action, card), world._hands[seat])
            if dealt is not None and dealt != real_draw:
                swap_draw(world, seat, dealt, real_draw, rng)
            real_total += chance(world, side, random.Random(seed))
        done += 1
    return Estimates(
        {a: t / done for a, t in totals.items()},
        real_total / done if real_draw is not None else None,
        done,
    )
