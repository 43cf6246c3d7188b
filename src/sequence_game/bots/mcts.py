"""Search over sampled worlds: a flat *paired* search (the default) and Information-Set MCTS
(Cowling, Powley and Whitehouse 2012, "SO-ISMCTS"), both with determinization.

**Paired search** (``MCTSBot(paired=True)``, what ``mcts`` plays): the ``width`` best plays by
the heuristic bot's score are each tried in the *same* sampled world, followed by the same
greedy play of every seat for ``plies`` turns (:class:`GreedyRolloutEvaluator`). Sharing the
world and the rollout's random numbers between the candidates (common random numbers) cancels
most of the luck of the deal from their differences; the tree below needed far more iterations
than Python gives in a second to tell plays apart through the noise. The heuristic's own play
is kept unless another candidate beats it by ``confidence`` standard errors of the paired
differences, so a short search plays like the heuristic and a longer one departs from it only
on evidence. ``halving=True`` spends the
budget by sequential halving over a width that grows with it (an experiment, not the default:
``docs/bots.md`` has the measurements).

**IS-MCTS** (``MCTSBot(paired=False)``):

The bot never holds the true state. Each iteration deals the cards it cannot see at random in a way
consistent with its view (a *determinization*, :func:`~sequence_game.worlds.sample_world`; after a
reshuffle the draw pile comes only from the known reshuffled cards, R5.4), then walks one shared
tree keyed by the public actions taken from the root:

- **Selection** only considers actions legal in this determinization, and scores a child by UCB1
  with its *availability* count (how often it could have been chosen) in place of the parent's
  visits, as SO-ISMCTS prescribes. Progressive widening keeps the branching factor in check: a
  node visited ``n`` times considers only its ``widen(n)`` best actions by a cheap prior (the
  board gain of the greedy evaluation; at the root, the full heuristic score).
- **Expansion** adds one child, the best-prior untried action.
- **Evaluation** is pluggable (:class:`Evaluator`): :class:`StaticEvaluator` (the default) scores
  the position's open lines and each side's threats, using the sampled hands, which is where the
  determinization pays; :class:`RolloutEvaluator` plays random moves to the end (or for a few
  turns, then scores).
- **Backpropagation** credits each node with the value for the side that moved into it, so the
  same code plays 2 or 3 sides and teams.

In manual-draw mode a determinization makes every owed draw at once and then draws automatically
(search ignores the timing of draws; the bot itself always draws when it owes one, R5.3).

>>> from sequence_game import GameConfig, new_game
>>> state = new_game(GameConfig(players=2), seed=4)
>>> bot = MCTSBot(seed=1)
>>> bot.select_action(state.view(state.current_seat), Limit(simulations=50)) in state.legal_actions()
True
"""

from __future__ import annotations

import heapq
import math
import random
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Final, Protocol

from ..actions import DEAD, DISCARD, DRAW, REMOVE, WILD
from ..board import CORNERS, LAYOUT, LINES, LINES_THROUGH
from ..cards import ONE_EYED, TWO_EYED
from ..state import GameState
from ..views import PlayerView
from ..worlds import sample_world, unseen_cards
from .base import Limit, Oracle, forced_action
from .evaluation import GREEDY, Board, Weights, action_gain, card_value, side_values, threats
from .heuristic import (
    HEURISTIC,
    ONE_EYED_COST,
    ONE_EYED_SPEND,
    REACH,
    THREAT_WEIGHT,
    TWO_EYED_COST,
    TWO_EYED_SPEND,
    WIN,
    HeuristicBot,
    score_plays,
)
from .inference import infer_hands
from .reading import HeldSince

DEFAULT_LIMIT: Final = Limit(seconds=1.0)
GREEDY_PLAYOUT: Final = GREEDY
JACK_VALUES: Final = (120.0, 60.0)
"""What a held two-eyed and one-eyed jack add to its side's score at a leaf (line[5] = 400 is a
sequence): far more than the heuristic's old 30/24, which let search spend jacks the tuned
heuristic keeps."""


class Evaluator(Protocol):
    """Scores a position of a determinization: one value in [-1, 1] per side."""

    def evaluate(self, world: GameState, rng: random.Random) -> list[float]: ...


@dataclass(frozen=True)
class StaticEvaluator:
    """Open lines plus threats, squashed: a side's threat it can fill from the sampled hands of its
    seats counts as most of a sequence (the side to move first counts it in full)."""

    weights: Weights = HEURISTIC
    scale: float = 300.0
    threat_share: float = 0.6
    jack_values: tuple[float, float] = JACK_VALUES
    """What a held two-eyed and one-eyed jack add to its side's score."""

    def evaluate(self, world: GameState, rng: random.Random) -> list[float]:
        board = Board.of_state(world)
        sides = world.config.sides
        need = world.config.sequences_to_win
        to_move = world.current_seat % sides
        extra = [0.0] * sides
        two, one = self.jack_values
        for seat in range(world.players):
            for card in world._hands[seat]:
                if card in TWO_EYED:
                    extra[seat % sides] += two
                elif card in ONE_EYED:
                    extra[seat % sides] += one
        for s in range(sides):
            cells = threats(board, s)
            if not cells:
                continue
            held: set[int] = set()
            for seat in range(s, world.players, sides):
                held.update(world._hands[seat])
            wild = any(c in held for c in TWO_EYED)
            if wild or any(LAYOUT[m] in held for m in cells):
                seq = 3.0 * self.weights.line[5] if board.sequences[s] + 1 >= need else self.weights.line[5]
                extra[s] += seq * (1.0 if s == to_move else self.threat_share)
        return side_values(board, self.weights, self.scale, extra)


@dataclass(frozen=True)
class RolloutEvaluator:
    """Random play (dead cards exchanged) for ``turns`` turns, or to the end when ``None``; an
    unfinished game is then scored by ``then``."""

    turns: int | None = None
    then: StaticEvaluator = StaticEvaluator()

    def evaluate(self, world: GameState, rng: random.Random) -> list[float]:
        limit = None if self.turns is None else world.turn + self.turns
        outcome = world.playout(rng, limit if limit is not None else world.turn + 2000)
        sides = world.config.sides
        if outcome is None:
            return self.then.evaluate(world, rng)
        if outcome.winner is None:
            return [0.0] * sides
        return [1.0 if s == outcome.winner else -1.0 for s in range(sides)]


@dataclass(frozen=True)
class GreedyRolloutEvaluator:
    """Both sides play the greedy policy (:func:`greedy_policy`: the best one-ply board gain,
    jacks only to complete or stop a four) for ``plies`` turns of the sampled world, then the
    position is scored by ``then``. Far better informed than random play, at about a third of a
    millisecond a ply."""

    plies: int = 12
    then: StaticEvaluator = StaticEvaluator()

    def evaluate(self, world: GameState, rng: random.Random) -> list[float]:
        for _ in range(self.plies):
            if world._end is not None:
                break
            world._apply(greedy_policy(world, rng), world.current_seat)
        if world._end is not None:
            winner = world._winner
            sides = world.config.sides
            return [0.0] * sides if winner is None else [1.0 if s == winner else -1.0 for s in range(sides)]
        return self.then.evaluate(world, rng)


@dataclass
class LedRolloutEvaluator:
    """Like :class:`GreedyRolloutEvaluator`, but the first ``lead`` plies of each rollout are
    played by the ``heuristic`` bot on the acting seat's view of the sampled world: the opponent's
    reply to a candidate is the one a ``hard`` player would make (the exact reply when the
    opponent is that bot and the world is the true one), which the greedy policy predicts badly;
    the cheap greedy plies follow."""

    lead: int = 1
    plies: int = 12
    then: StaticEvaluator = StaticEvaluator()
    bots: dict[int, HeuristicBot] = field(default_factory=dict)

    def evaluate(self, world: GameState, rng: random.Random) -> list[float]:
        for ply in range(self.plies):
            if world._end is not None:
                break
            seat = world.current_seat
            if ply < self.lead:
                bot = self.bots.get(seat)
                if bot is None:
                    bot = self.bots[seat] = HeuristicBot(seed=seat)
                action = bot.select_action(world.view(seat))
            else:
                action = greedy_policy(world, rng)
            world._apply(action, seat)
        if world._end is not None:
            winner = world._winner
            sides = world.config.sides
            return [0.0] * sides if winner is None else [1.0 if s == winner else -1.0 for s in range(sides)]
        return self.then.evaluate(world, rng)


def greedy_policy(world: GameState, rng: random.Random) -> int:
    """A fast greedy move for the seat to act in a sampled world (R5.1 dead cards exchanged): the
    placement with the best :data:`GREEDY_PLAYOUT` board gain; a two-eyed jack only completes our
    four or fills an opponent's missing space, a one-eyed jack only breaks an opponent's four."""
    if world._penalty or world._manual:  # a table-talk fine (R6.1): rare in search
        return world.random_action(rng)
    seat = world._seat
    side = seat % world._sides
    hand = world._hands[seat]
    opens = world._open
    cells: set[int] = set()
    wild = remove = False
    for card in hand:
        open_cells = opens[card]
        if open_cells:
            cells.update(open_cells)
        elif open_cells is None:
            if card in TWO_EYED:
                wild = True
            else:
                remove = True
        elif not world._dead_done:
            return DEAD + card
    board = Board.of_state(world)
    best = -math.inf
    choice = -1
    if cells:
        best, choice = _best_placement(board, side, cells)
    if wild or remove:
        sides = world._sides
        for t in range(sides):
            fours = threats(board, t)
            if not fours:
                continue
            for cell in fours:
                if t == side:
                    if cell in cells:
                        return cell
                    if wild:
                        return WILD + cell
                if t != side:
                    if wild:
                        g = action_gain(board, side, cell, GREEDY_PLAYOUT) - 20.0
                        if g > best:
                            best, choice = g, WILD + cell
                    if remove:
                        for w in LINES_THROUGH[cell]:
                            target = LINES[w] & board.chips[t] & ~board.locked
                            if target and (LINES[w] & ~(board.chips[t] | CORNERS)) == 1 << cell:
                                victim = (target & -target).bit_length() - 1
                                g = action_gain(board, side, REMOVE + victim, GREEDY_PLAYOUT) - 15.0
                                if g > best:
                                    best, choice = g, REMOVE + victim
    if choice < 0:
        acts = world.legal_actions()
        if wild or remove:
            plays = [a for a in acts if a < DEAD]
            if plays:
                return plays[int(rng.random() * len(plays))]
        return min((a for a in acts if DISCARD <= a < DRAW), default=acts[0])
    return choice


def _best_placement(board: Board, side: int, cells: set[int]) -> tuple[float, int]:
    """The placement among ``cells`` with the best :data:`GREEDY_PLAYOUT` board gain, and that
    gain (as :func:`action_gain`, summed per window once: the rollouts' hot loop)."""
    chips = board.chips
    occ = board.occupied
    forbidden = board.forbidden
    line, block = GREEDY_PLAYOUT.line, GREEDY_PLAYOUT.block
    sides = range(len(chips))
    own = [chips[t] | CORNERS for t in sides]
    others = [occ & ~chips[t] for t in sides]
    cache: dict[int, float] = {}
    best = -math.inf
    choice = -1
    for cell in sorted(cells):
        g = 0.0
        for w in LINES_THROUGH[cell]:
            v = cache.get(w)
            if v is None:
                mask = LINES[w]
                v = 0.0
                for t in sides:
                    if mask & others[t] or forbidden[t] >> w & 1:
                        continue
                    n = (mask & own[t]).bit_count()
                    v += line[n + 1] - line[n] if t == side else block[n]
                cache[w] = v
            g += v
        if g > best:
            best, choice = g, cell
    return best, choice


class Node:
    """A node of the information-set tree: the public actions from the root lead here."""

    __slots__ = ("avail", "children", "prior", "value", "visits")

    def __init__(self) -> None:
        self.children: dict[int, Node] = {}
        self.prior: dict[int, float] = {}
        self.visits = 0
        self.value = 0.0
        """Sum of values for the side that moved into this node."""
        self.avail = 0


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


#: Stop this far before a time limit: the last simulation started before the deadline must end
#: within it (one evaluated world takes a few milliseconds; 5% of a limit is the allowance).
SAFETY: Final = 0.04


def deadline_of(start: float, limit: Limit) -> float:
    """When a search that started at ``start`` must stop starting new work: the time limit less
    :data:`SAFETY` of it, so that the whole move, preparation included, ends within 5%."""
    if limit.seconds is None:
        return math.inf
    return start + limit.seconds * (1.0 - SAFETY)


class MCTSBot(Oracle):
    """Search within a time or simulation budget (default one second a move): paired flat search
    by default, the IS-MCTS tree with ``paired=False``. A simulation is one evaluated world."""

    name = "mcts"

    def __init__(
        self,
        seed: int | None = None,
        evaluator: Evaluator | None = None,
        exploration: float = 1.5,
        temperature: float = 20.0,
        default_limit: Limit = DEFAULT_LIMIT,
        paired: bool = True,
        width: int = 6,
        plies: int = 12,
        halving: bool = False,
        max_width: int = 16,
        samples_per_arm: int = 12,
        candidate_costs: tuple[float, float] | None = (TWO_EYED_SPEND, ONE_EYED_SPEND),
        extra: int = 0,
        confidence: float = 1.0,
        inference: bool = True,
        oracle: bool = False,
        lead: int = 0,
    ) -> None:
        for what, value, least in (
            ("width", width, 1),
            ("max_width", max_width, 1),
            ("samples_per_arm", samples_per_arm, 1),
            ("plies", plies, 0),
            ("lead", lead, 0),
            ("extra", extra, 0),
            ("confidence", confidence, 0),
            ("exploration", exploration, 0),
        ):
            if not value >= least:  # also refuses NaN
                raise ValueError(f"mcts: {what} must be at least {least}, not {value!r}")
        if not temperature > 0:
            raise ValueError(f"mcts: temperature must be positive, not {temperature!r}")
        self.rng = random.Random(seed)
        self.evaluator: Evaluator = (
            evaluator
            if evaluator is not None
            else LedRolloutEvaluator(lead=lead, plies=max(plies, lead))
            if paired and lead
            else GreedyRolloutEvaluator(plies=plies)
            if paired
            else StaticEvaluator()
        )
        self.exploration = exploration
        self.temperature = temperature
        self.default_limit = default_limit
        self.last_simulations = 0
        """Iterations the last search ran (for benchmarks)."""
        self.paired = paired
        """Flat paired search (the default) rather than the IS-MCTS tree."""
        self.width = width
        """The candidates the paired search ranks (with halving: the fewest, more when the
        budget allows, up to ``max_width``)."""
        self.halving = halving
        """Sequential halving over a budget-dependent width (an experiment, not yet shown to be
        stronger: docs/bots.md) rather than equal samples for the ``width`` best plays."""
        self.max_width = max(width, max_width)
        self.samples_per_arm = samples_per_arm
        self.candidate_costs = candidate_costs
        """Jack spending costs with which the heuristic ranks the paired search's candidates
        (the tuned heuristic's by default, so the first candidate is the ``hard`` bot's play);
        ``None`` ranks by the search's own, smaller jack values, as before."""
        self.extra = extra
        """Further candidates taken from the search's own ranking (jack plays, mostly)."""
        self.confidence = confidence
        """How many standard errors of the paired difference another candidate must beat the
        first one by to be played instead; 0 takes the best mean."""
        self.inference = inference
        """Whether sampled worlds and the heuristic's odds use what the other seats' last plays
        showed they did not hold (:mod:`~sequence_game.bots.inference`)."""
        self.oracle = oracle
        """Search the TRUE state (revealed by the tournament) instead of sampled worlds: a
        measurement tool, refused outside tournaments and tests (:class:`~.base.Oracle`)."""

    def select_action(self, view: PlayerView, limit: Limit | None = None) -> int:
        start = time.perf_counter()  # the clock runs from the first work: ranking included
        forced = forced_action(view)
        if forced is not None:
            self.last_simulations = 0
            return forced
        if limit is None or (limit.seconds is None and limit.simulations is None):
            limit = self.default_limit
        truth = self.true_world(view) if self.oracle else None
        root = Node()
        acts = [a for a in view.legal_actions if a != DRAW]
        scores = _play_scores(view, acts, self.inference)
        root.prior = {
            a: math.exp(max(-60.0, min(60.0, p / self.temperature)))
            for a, p in zip(acts, _root_priors(view, acts, scores), strict=True)
        }
        deadline = deadline_of(start, limit)
        budget = limit.simulations if limit.simulations is not None else 1 << 62
        determinizer: Determinizer | TrueWorld = (
            TrueWorld(truth) if truth is not None else Determinizer(view, self.rng, self.inference)
        )
        if self.paired:
            return self._paired(view, acts, root.prior, scores, determinizer, deadline, budget)
        sims = 0
        while sims < budget and (sims < 1 or time.perf_counter() < deadline):
            self._iterate(root, determinizer.sample())
            sims += 1
        self.last_simulations = sims
        best = max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].value / max(kv[1].visits, 1)))
        return best[0]

    def _paired(
        self,
        view: PlayerView,
        acts: list[int],
        prior: dict[int, float],
        scores: dict[int, float],
        determinizer: Determinizer | TrueWorld,
        deadline: float,
        budget: int,
    ) -> int:
        """Flat search with common random numbers: every candidate (the ``width`` best by the
        heuristic) is played in the same sampled world, followed by the same greedy play, so the
        differences between candidates are not drowned by the luck of the deal."""
        if self.halving:
            return self._halving(view, acts, prior, determinizer, deadline, budget)
        ranked = sorted(acts, key=lambda a: -prior[a])
        if self.candidate_costs is not None:
            costs = self.candidate_costs
            tuned = {a: v - _spent(a, costs) for a, v in scores.items()}
            order = sorted(acts, key=lambda a: (-tuned.get(a, -math.inf), -prior[a]))
            if tuned.get(order[0], 0.0) >= WIN / 2:  # it wins the game now (R7.1): nothing to search
                self.last_simulations = 0
                return order[0]
            cands = order[: self.width]
            cands += [a for a in ranked if a not in cands][: self.extra]
        else:
            cands = ranked[: self.width]
        if len(cands) == 1:
            self.last_simulations = 0
            return cands[0]
        side = view.side
        n = len(cands)
        totals = [0.0] * n
        counts = [0] * n
        diff_sq = [0.0] * n  # paired differences from the first candidate, squared
        evaluator = self.evaluator
        sims = 0
        samples = 0
        began = time.perf_counter()
        out_of_time = False
        while not out_of_time and sims < budget and (samples < 1 or time.perf_counter() < deadline):
            base = determinizer.sample()
            seed = self.rng.getrandbits(32)
            first = 0.0
            for i, a in enumerate(cands):
                if sims >= budget:
                    break
                if sims and time.perf_counter() + (time.perf_counter() - began) / sims > deadline:
                    out_of_time = True  # one more evaluation would end past the limit (honest clock)
                    break
                world = base.copy()
                world._apply(a, view.seat)
                v = evaluator.evaluate(world, random.Random(seed))[side]
                if i == 0:
                    first = v
                else:
                    diff_sq[i] += (v - first) ** 2
                totals[i] += v
                counts[i] += 1
                sims += 1
            samples += 1
        self.last_simulations = sims
        best = max(range(n), key=lambda i: (totals[i] / counts[i] if counts[i] else -2.0, prior[cands[i]]))
        if self.confidence > 0.0 and best != 0:
            k = min(counts[0], counts[best])
            d = totals[best] / counts[best] - totals[0] / counts[0]
            mean_sq = diff_sq[best] / max(k, 1)
            var = max(mean_sq - d * d, 1e-12) / max(k - 1, 1)
            if k < 2 or d < self.confidence * math.sqrt(var):
                best = 0
        return cands[best]

    def _halving(
        self,
        view: PlayerView,
        acts: list[int],
        prior: dict[int, float],
        determinizer: Determinizer | TrueWorld,
        deadline: float,
        budget: int,
    ) -> int:
        """Paired search with sequential halving (Karnin, Koren and Somekh 2013, as in Gumbel
        MuZero), with the same common random numbers. The budget is split into rounds; after each
        round the worse half is dropped, so more time buys more samples of the close contenders
        rather than of plays already known to be poor. The width adapts to the budget (about
        ``samples_per_arm`` first-round samples each), measured on the first world when the
        limit is a time."""
        ranked = sorted(acts, key=lambda a: -prior[a])
        cands = ranked[: self.max_width]
        if len(cands) == 1:
            self.last_simulations = 0
            return cands[0]
        side = view.side
        seat = view.seat
        evaluator = self.evaluator
        rng = self.rng
        start = time.perf_counter()

        def sample(arms: list[int], totals: dict[int, float]) -> int:
            base = determinizer.sample()
            seed = rng.getrandbits(32)
            for a in arms:
                world = base.copy()
                world._apply(a, seat)
                totals[a] += evaluator.evaluate(world, random.Random(seed))[side]
            return len(arms)

        totals = dict.fromkeys(cands, 0.0)
        count = 0  # samples every surviving arm has had (all survivors share the same worlds)
        sims = 0
        timed = budget >= 1 << 62
        budget_guess = budget
        if timed:  # the rate decides the width: measure it on the first world, keeping its values
            sims = sample(cands, totals)
            count = 1
            elapsed = max(time.perf_counter() - start, 1e-6)
            budget_guess = int((deadline - start) * sims / elapsed)
        cands = cands[: self._width_for(budget_guess, len(cands))]
        rounds = max(1, math.ceil(math.log2(len(cands))))
        for r in range(rounds):
            left = rounds - r
            if timed:
                now = time.perf_counter()
                round_end = now + (deadline - now) / left
                while count < 1 or time.perf_counter() < round_end:
                    sims += sample(cands, totals)
                    count += 1
            else:
                per = max((budget - sims) // left // len(cands), 1 if count < 1 else 0)
                for _ in range(per):
                    if count >= 1 and time.perf_counter() >= deadline:
                        break
                    sims += sample(cands, totals)
                    count += 1
            keep = (len(cands) + 1) // 2 if r < rounds - 1 else 1
            cands = sorted(cands, key=lambda a: (-totals[a], -prior[a]))[: max(keep, 1)]
        self.last_simulations = sims
        return cands[0]

    def _width_for(self, total_sims: int, available: int) -> int:
        """How many candidates a budget of ``total_sims`` evaluations can rank: about
        ``samples_per_arm`` first-round samples each, within [``width``, ``max_width``]."""
        width = self.width
        while width < available:
            nxt = width * 2
            rounds = math.ceil(math.log2(nxt))
            if total_sims // rounds // nxt < self.samples_per_arm:
                break
            width = nxt
        return min(width, available, self.max_width)

    def _iterate(self, root: Node, world: GameState) -> None:
        rng = self.rng
        sides = world.config.sides
        node = root
        path: list[tuple[Node, int]] = []
        c = self.exploration
        temp = self.temperature
        while not world.is_terminal():
            seat = world.current_seat
            side = seat % sides
            acts = world.legal_actions()
            prior = node.prior
            missing = [a for a in acts if a not in prior]
            if missing:
                board = Board.of_state(world)
                for a in missing:
                    prior[a] = math.exp(max(-60.0, min(60.0, _prior(board, side, a) / temp)))
            children = node.children
            total = 0.0
            q_sum = 0.0
            q_n = 0
            for a in acts:
                total += prior[a]
                child = children.get(a)
                if child is not None:
                    child.avail += 1
                    q_sum += child.value / child.visits
                    q_n += 1
            fpu = q_sum / q_n - 0.1 if q_n else 0.0
            sqrt_n = math.sqrt(node.visits + 1)
            chosen = acts[0]
            best = -math.inf
            for a in acts:
                child = children.get(a)
                p = prior[a] / total
                if child is None:
                    score = fpu + c * p * sqrt_n
                else:
                    score = child.value / child.visits + c * p * sqrt_n / (1 + child.visits)
                if score > best:
                    best, chosen = score, a
            child = children.get(chosen)
            world._apply(chosen, seat)
            if child is None:
                child = Node()
                child.avail = 1
                children[chosen] = child
                path.append((child, side))
                break
            path.append((child, side))
            node = child
        if world.is_terminal():
            outcome = world.outcome()
            winner = outcome.winner if outcome is not None else None
            values = [0.0] * sides if winner is None else [1.0 if s == winner else -1.0 for s in range(sides)]
        else:
            values = self.evaluator.evaluate(world, rng)
        root.visits += 1
        for n, side in path:
            n.visits += 1
            n.value += values[side]


def _play_scores(
    view: PlayerView,
    acts: list[int],
    inference: bool = True,
    weights: Weights = HEURISTIC,
    threat_weight: float = THREAT_WEIGHT,
    reach: tuple[float, float, float] = REACH,
) -> dict[int, float]:
    """The heuristic bot's score of each R5.2 play among ``acts`` before what spending a jack
    costs (:func:`_spent`): computed once, ranked under two sets of jack costs. The other
    numbers are the default heuristic's unless given (``pimc``'s tuned ranking)."""
    plays = [a for a in acts if a < DEAD]
    if not plays:
        return {}
    board = Board.of_view(view)
    scores = score_plays(
        view, board, plays, weights, (0.0, 0.0), threat_weight=threat_weight, reach=reach, inference=inference
    )
    return dict(zip(plays, scores, strict=True))


def _spent(action: int, costs: tuple[float, float]) -> float:
    """What playing ``action`` spends: a two-eyed jack's or a one-eyed jack's cost, else 0."""
    if WILD <= action < REMOVE:
        return costs[0]
    if REMOVE <= action < DEAD:
        return costs[1]
    return 0.0


def _root_priors(view: PlayerView, acts: list[int], scores: dict[int, float]) -> list[float]:
    """The heuristic bot's scores for the root's plays (its own hand is known there), with the
    search's own jack values, as measured in docs/bots.md; other actions by :func:`_prior`."""
    board = Board.of_view(view)
    costs = (TWO_EYED_COST, ONE_EYED_COST)
    return [scores[a] - _spent(a, costs) if a in scores else _prior(board, view.side, a) for a in acts]


def _prior(board: Board, side: int, action: int) -> float:
    """A cheap ordering of actions inside the tree: the board gain, less the jack's keeping value;
    dead-card exchanges first (R5.1); discards by how little the card is worth (R5.5, R6.1)."""
    if action < DEAD:
        gain = action_gain(board, side, action, HEURISTIC)
        if action >= REMOVE:
            return gain - ONE_EYED_COST
        if action >= WILD:
            return gain - TWO_EYED_COST
        return gain
    if action < DISCARD:
        return 1e6
    return -card_value(board, side, action - DISCARD, HEURISTIC, HeuristicBot.jack_keep)
