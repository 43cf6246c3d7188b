"""The worlds a search plays in: the unseen cards dealt at random consistently with a seat's
view (:class:`Determinizer`), or the true state itself in oracle mode (:class:`TrueWorld`)."""

from __future__ import annotations

import heapq
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol

from ..cards import NUM_CARDS, ONE_EYED, TWO_EYED
from ..state import GameState
from ..views import PlayerView
from ..worlds import sample_world, unseen_cards
from .inference import infer_hands
from .reading import HeldSince

if TYPE_CHECKING:
    import numpy as np

__all__ = ["Dealer", "Determinizer", "TrueWorld", "dealt_rows"]


class Determinizer:
    """Deals the unseen cards at random, consistently with the view (as
    :func:`~sequence_game.worlds.sample_world`, but copying one template world per sample) and,
    with ``inference``, with what the other seats' last plays showed they did not hold
    (:mod:`~sequence_game.bots.inference`): the cards a seat held before its last play are dealt
    from the others."""

    def __init__(
        self,
        view: PlayerView,
        rng: random.Random,
        inference: bool = False,
        reading: Sequence[HeldSince] | None = None,
        jack_weights: tuple[float, float] = (1.0, 1.0),
    ) -> None:
        self.view = view
        self.weights = None
        if jack_weights != (1.0, 1.0):
            self.weights = dict.fromkeys(TWO_EYED, jack_weights[0]) | dict.fromkeys(ONE_EYED, jack_weights[1])
        if reading is not None:
            self.held_before = [(g.seat, g.held, g.absent) for g in reading]
        else:
            known = infer_hands(view) if inference else {}
            self.held_before = [
                (seat, view.hand_sizes[seat] - k.fresh, k.absent)
                for seat, k in known.items()
                if view.hand_sizes[seat] > k.fresh
            ]
        """Groups of an inferred seat's cards, dealt in this order: how many, and the cards those
        cannot be (one group a seat from :mod:`inference`, oldest first from a
        :class:`~sequence_game.bots.reading.HandReader`)."""
        self.template = _auto_draw(sample_world(view, rng)) if view.config.draw == "manual" else None
        self.base = sample_world(view, rng)
        unseen = unseen_cards(view)
        self.unseen = unseen
        self.pool = list(unseen.elements())
        self.candidates = list((Counter(view.reshuffle_pool) & unseen).elements()) if view.reshuffles else []
        if len(self.candidates) < view.deck_size:
            self.candidates = []
        self.rng = rng
        self._dealer: Callable[..., Any] | None = None

    @property
    def weights(self) -> dict[int, float] | None:
        """Per card, how much likelier than another card it is among the cards a seat has held since
        a play (the jacks: players keep them, see :mod:`.reading`); ``None`` deals them uniformly.
        Setting it (a calibration may weight any card) sets the keys' exponents with it."""
        return self._weights

    @weights.setter
    def weights(self, weights: dict[int, float] | None) -> None:
        self._weights = weights
        self.powers = None if weights is None else {card: 1.0 / w for card, w in weights.items()}
        """``1 / weight`` per weighted card: the exponent of its sampling key (only these pay for
        a power; ``u ** 1.0`` is ``u``)."""

    def sample_batch(self, n: int) -> list[GameState]:
        """``n`` worlds at once: the interface a batch of rollouts asks every world source for
        (:class:`~sequence_game.bots.posterior.PosteriorDealer` weighs a batch together)."""
        return [self.sample() for _ in range(n)]

    def sample_rows(self, n: int) -> np.ndarray | None:
        """``n`` worlds as the compiled engine's rows, dealt by compiled code
        (:func:`sequence_game.fast.dealer.deal_rows`: the deal of :meth:`sample`, a hundred times
        faster), or ``None`` where only :meth:`sample` deals (manual draws, a reshuffled pile)."""
        if self.template is not None or self.candidates:
            return None
        if self._dealer is None:
            import numpy as np

            from ..fast import dealer
            from ..fast.engine import FastGame

            view = self.view
            sizes = np.array(
                [-1 if s == view.seat else n for s, n in enumerate(view.hand_sizes)], dtype=np.int64
            )
            if int(sizes[sizes >= 0].sum()) + view.deck_size != len(self.pool):
                return None
            absent = np.zeros((len(self.held_before), NUM_CARDS), dtype=np.bool_)
            for g, (_, _, cards) in enumerate(self.held_before):
                absent[g, list(cards)] = True
            groups = dealer.Groups(
                np.array([seat for seat, _, _ in self.held_before], dtype=np.int64),
                np.array([want for _, want, _ in self.held_before], dtype=np.int64),
                absent,
            )
            powers = None
            if self.powers is not None:
                powers = np.ones(NUM_CARDS, dtype=np.float64)
                for card, power in self.powers.items():
                    powers[card] = power
            base = FastGame.from_state(self.base).row
            pool = np.array(self.pool, dtype=np.int64)
            self._dealer = partial(dealer.deal_rows, base, pool, view.deck_size, sizes, groups, powers=powers)
        rows: np.ndarray = self._dealer(seed=self.rng.getrandbits(63), count=n)
        return rows

    def sample(self) -> GameState:
        view, rng = self.view, self.rng
        if self.template is not None:  # manual draws: rare, take the exact sampler
            return _auto_draw(sample_world(view, rng))
        world = self.base.copy()
        old: dict[int, list[int]] = {}
        if self.candidates:
            cand = self.candidates[:]
            rng.shuffle(cand)
            deck = cand[: view.deck_size]
            others = list((self.unseen - Counter(deck)).elements())
            rng.shuffle(others)
            if self.held_before:
                others = self._deal_old(others, old)
        else:
            pool = self.pool[:]
            rng.shuffle(pool)
            if self.held_before:
                pool = self._deal_old(pool, old)
            deck = pool[: view.deck_size]
            others = pool[view.deck_size :]
        at = 0
        hands = world._hands
        for seat, size in enumerate(view.hand_sizes):
            if seat != view.seat:
                kept = old.get(seat, [])
                take = size - len(kept)
                hands[seat] = kept + others[at : at + take]
                at += take
        world._deck = deck
        world._reshuffle_seed = rng.getrandbits(63)
        return world

    def _deal_old(self, shuffled: list[int], old: dict[int, list[int]]) -> list[int]:
        """Deals into ``old`` each inferred seat's cards held since its last play, from the
        ``shuffled`` cards outside what it showed it lacked; returns the cards left. A seat the
        cards cannot satisfy (its player broke the assumption) is dealt freely."""
        rest = shuffled
        powers, rng = self.powers, self.rng
        for seat, want, absent in self.held_before:
            taken: list[int] = []
            left: list[int] = []
            if powers is None:
                for card in rest:
                    if len(taken) < want and card not in absent:
                        taken.append(card)
                    else:
                        left.append(card)
            else:
                # weighted sampling without replacement (a key u ** (1 / w) per card, the largest
                # win); the cards left keep their shuffled order, which the keys do not depend on.
                # Only a weighted card pays for the power (u ** 1.0 is u): the search deals
                # hundreds of worlds a move, and this loop was most of their cost.
                random_ = rng.random
                keys = [
                    -1.0
                    if card in absent
                    else (random_() if card not in powers else random_() ** powers[card])
                    for card in rest
                ]
                chosen = {
                    i for i in heapq.nlargest(want, range(len(rest)), key=keys.__getitem__) if keys[i] >= 0.0
                }
                taken = [rest[i] for i in sorted(chosen)]
                left = [card for i, card in enumerate(rest) if i not in chosen]
            if len(taken) == want:
                old.setdefault(seat, []).extend(taken)
                rest = left
        return rest


def _auto_draw(world: GameState) -> GameState:
    """Search's simplification of manual draws: every owed draw is made now, later ones automatic."""
    for seat in range(world.players):
        if world._owed[seat]:
            world._owed[seat] = False
            world._draw(seat)
    world._manual = False
    world.config = replace(world.config, draw="auto")
    return world


class TrueWorld:
    """Oracle mode's stand-in for :class:`Determinizer`: every "sample" is a copy of the true
    state (a measurement tool: ``docs/bots.md``)."""

    def __init__(self, truth: GameState) -> None:
        self.truth = _auto_draw(truth) if truth.config.draw == "manual" else truth

    def sample(self) -> GameState:
        return self.truth.copy()

    def sample_batch(self, n: int) -> list[GameState]:
        """``n`` worlds at once, as :meth:`Determinizer.sample_batch`."""
        return [self.sample() for _ in range(n)]


class Dealer(Protocol):
    """Anything that deals worlds: :class:`Determinizer`, :class:`TrueWorld` and the others."""

    def sample_batch(self, n: int) -> list[GameState]: ...


def dealt_rows(dealer: Dealer, n: int) -> np.ndarray:
    """``n`` worlds of ``dealer`` as the compiled engine's rows: dealt by compiled code where a
    :class:`Determinizer` can (:meth:`Determinizer.sample_rows`), else dealt in Python and
    converted (manual draws, a reshuffled pile, true or weighted worlds)."""
    rows = dealer.sample_rows(n) if isinstance(dealer, Determinizer) else None
    if rows is None:
        from ..fast.pimc import world_rows

        rows = world_rows(dealer.sample_batch(n))
    return rows
