"""The chance after each play, before its draw is known: what ranks a seat's plays.

A play ends with a draw (R5.4) that the mover cannot know when choosing, so a play's chance is
the evaluator's chance of the position after it, averaged over the card drawn: every card the
mover has not seen, weighted by its copies still unseen. A play that ends the game is worth its
result exactly. All the positions of all the plays go through the network in one batch
(:class:`Batch`); the post-game analysis (``analysis.judge``) builds on the same parts.

At 2 players a play that spends a jack is worth :func:`jack_cost` less than the network says: the
network values the position after a jack play above what rollouts of ``hard`` with the true
hands give it, relative to the position's other plays (docs/evaluator.md, "Ranking plays").

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
from dataclasses import dataclass
from typing import Any, Final

import numpy as np

from ..actions import DEAD, DISCARD, DRAW, REMOVE, WILD
from ..board import LAYOUT
from ..cards import JC, JD, JH, JS, Card
from ..features.position import HistoryMarks, ViewParts, draw_features, history_marks, view_parts, with_hand
from ..state import GameState
from ..views import PlayerView
from ..worlds import sample_world
from .model import Evaluator

JACK_COSTS: Final[dict[int, tuple[float, float]]] = {2: (0.044, 0.017)}
"""Per number of players, the chance a play loses for spending a two-eyed and a one-eyed jack,
beyond what the network sees: fitted by ``experiments/play_truth.py`` on 1,828 decisions of 150
2-player games of `heuristic` and `greedy`, to the differences between one position's plays that
rollouts of ``hard`` with the true other hands give (on games held out of the fit, the best play
net of the cost is worth 0.0013 [0.0004, 0.0023] of a chance more a decision than the network's
best, by those rollouts).
Other tables pay nothing: at 3 players the same costs gained +0.0012 [-0.0001, +0.0024] a
decision, at 4 in 2 teams they lost 0.0015 [0.0002, 0.0027] (docs/evaluator.md, "At 3 and at 4
players")."""


def jack_cost(action: int, players: int) -> float:
    """What spending the jack of ``action`` costs beyond the network's chance (0 for other plays)."""
    costs = JACK_COSTS.get(players)
    if costs is None or not WILD <= action < DEAD:
        return 0.0
    return costs[0] if action < REMOVE else costs[1]


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
    exact value (a finished game needs no evaluator). A row is a view, or a view with one more
    card in its hand (a draw): the draws of one play share their view, whose board part of the
    features is then computed once (:func:`~sequence_game.features.position.draw_features`)."""

    def __init__(self) -> None:
        self.parts: list[ViewParts] = []
        """The views the rows read (one per play judged over its draws, not one per row)."""
        self.index: list[int] = []
        """Per row, its view in :attr:`parts`."""
        self.cards: list[int] = []
        """Per row, the card added to its view's hand (-1: none)."""
        self.groups: list[tuple[int, int, list[float]] | float] = []

    @property
    def rows(self) -> int:
        """The positions the evaluator judges."""
        return len(self.index)

    def exact(self, value: float) -> int:
        self.groups.append(value)
        return len(self.groups) - 1

    def add(self, parts: Sequence[ViewParts], weights: Sequence[float]) -> int:
        """One row per view, as it is."""
        self.groups.append((len(self.index), len(parts), list(weights)))
        for p in parts:
            self.index.append(len(self.parts))
            self.cards.append(-1)
            self.parts.append(p)
        return len(self.groups) - 1

    def add_draws(self, kept: ViewParts, cards: Sequence[Card], weights: Sequence[float]) -> int:
        """One row per card: ``kept`` with that card drawn into its hand."""
        self.groups.append((len(self.index), len(cards), list(weights)))
        self.index.extend([len(self.parts)] * len(cards))
        self.cards.extend(cards)
        self.parts.append(kept)
        return len(self.groups) - 1

    def features(self) -> np.ndarray:
        """The rows' feature vectors, in order."""
        return draw_features(self.parts, self.index, self.cards)

    def solve(self, evaluator: Evaluator) -> list[float]:
        raw = evaluator.chances_of_features(self.features()) if self.index else np.zeros(0)
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


class _SeatReader:
    """One seat's view of a state, only the facts :func:`view_parts` reads, taken from the state
    as they are (no copies, no legal actions): once the features were batched by play, building a
    whole view per play and reading its whole history was about a third of the analysis' time
    left (profiled). It reads the seat's own hand and public facts only; the state's history holds
    the reshuffled piles' order, which :func:`~sequence_game.features.position.history_marks`
    never reads (only seats' actions count)."""

    __slots__ = (
        "chips",
        "config",
        "current_seat",
        "deck_size",
        "discards",
        "hand",
        "history",
        "is_over",
        "locked",
        "seat",
        "sequence_windows",
        "side",
        "turn",
    )

    def __init__(self, state: GameState, seat: int) -> None:
        self.config = state.config
        self.seat = seat
        self.side = seat % state.config.sides
        self.chips: Sequence[int] = state._chips
        self.locked: int = state._locked
        self.sequence_windows: Sequence[Sequence[int]] = state._seqs
        self.history: Sequence[tuple[Any, ...]] = state._history
        self.hand: Sequence[Card] = state._hands[seat]
        self.discards: Sequence[Sequence[Card]] = state._discards
        self.is_over = state._end is not None
        self.current_seat = state.current_seat
        self.deck_size = len(state._deck)
        self.turn: int = state._turn


def seat_parts(state: GameState, seat: int, marks: HistoryMarks | None = None) -> ViewParts:
    """``view_parts(state.view(seat))``, without building the view; ``marks``: the
    :func:`~sequence_game.features.position.history_marks` of the start of the state's history."""
    return view_parts(_SeatReader(state, seat), marks)


def position_marks(state: GameState) -> HistoryMarks:
    """The marks of a state's history, which every play from it extends."""
    return history_marks(state._history, state.config.sides)


def apply_play(
    state: GameState, seat: int, action: int, card: Card | None, marks: HistoryMarks | None = None
) -> Played:
    """``action`` applied to a copy of ``state``; ``marks``: :func:`position_marks` of ``state``."""
    world = state.copy()
    kept = kept_cards(world.hand(seat), action, card)
    world._apply(action, seat, card)
    if world.is_terminal():
        return Played(action, card, result_of(world, seat % world.config.sides), None, kept, False)
    parts = seat_parts(world, seat, marks)
    return Played(action, card, None, parts, kept, len(world._hands[seat]) > len(kept))


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
    cards = [c for c, s in enumerate(kept.seen) if s < 2]  # unseen_cards(kept), the cards with copies left
    if not cards:
        return batch.add([play.parts], [1.0])
    weights = [float(2 - kept.seen[c]) for c in cards]
    if draws is not None and len(cards) > draws:  # a sample, drawn by the weights
        cards = (rng or random.Random(0)).choices(cards, weights=weights, k=draws)
        weights = [1.0] * draws
    return batch.add_draws(kept, cards, weights)


def over_pile(batch: Batch, play: Played, pile: Sequence[Card]) -> int | None:
    """Queue the play's chance averaged over the cards really in the draw pile (``pile``), each
    weighted by its copies there: the average a draw is lucky against, once the game is over and
    the other hands are known. ``None`` where that average cannot differ from
    :func:`over_draws`'s (no draw, or an empty pile: a reshuffle comes first, R5.4)."""
    if play.exact is not None or not play.drew or not pile:
        return None
    assert play.parts is not None
    copies = Counter(pile)
    cards = sorted(copies)
    return batch.add_draws(with_hand(play.parts, play.kept), cards, [float(copies[c]) for c in cards])


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
    marks = position_marks(state)
    plays = [apply_play(state, seat, a, None, marks) for a in acts]
    batch = Batch()
    groups = [over_draws(batch, play, draws, rng) for play in plays]
    values = batch.solve(judge)
    players = state.config.players
    return [(play, play_chance(play, values[g], players)) for play, g in zip(plays, groups, strict=True)]


def play_chance(play: Played, chance: float, players: int) -> float:
    """A play's chance from the network's ``chance`` after it: less :func:`jack_cost` (never below
    0) unless the play ends the game (its result is exact)."""
    return chance if play.exact is not None else max(0.0, chance - jack_cost(play.action, players))


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
    weights with ``rng`` (cheaper, for a bot on a clock); a jack play less :func:`jack_cost`."""
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
