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

import math
import random
import time
from typing import Final

from ..actions import DEAD, DISCARD, DRAW, REMOVE, WILD
from ..state import GameState
from ..views import PlayerView
from .base import Limit, Oracle, forced_action
from .deadline import SAFETY, deadline_of
from .determinize import Determinizer, TrueWorld
from .evaluation import Board, action_gain, card_value
from .evaluators import (
    Evaluator,
    GreedyRolloutEvaluator,
    LedRolloutEvaluator,
    RolloutEvaluator,
    StaticEvaluator,
)
from .heuristic import (
    HEURISTIC,
    ONE_EYED_COST,
    ONE_EYED_SPEND,
    TWO_EYED_COST,
    TWO_EYED_SPEND,
    WIN,
    HeuristicBot,
)
from .ranking import play_scores, spent
from .rollout_policy import greedy_policy

# The search's parts live in their own modules: the worlds (``determinize``), the leaf values
# (``evaluators``, ``rollout_policy``), the candidates' ranking (``ranking``) and the clock
# (``deadline``). Their names are re-exported here for the code that imported them from this
# module (benchmarks, experiments, ``analysis``); new code imports them from their homes.
__all__ = [
    "DEFAULT_LIMIT",
    "SAFETY",
    "Determinizer",
    "Evaluator",
    "GreedyRolloutEvaluator",
    "LedRolloutEvaluator",
    "MCTSBot",
    "Node",
    "RolloutEvaluator",
    "StaticEvaluator",
    "TrueWorld",
    "deadline_of",
    "greedy_policy",
]

DEFAULT_LIMIT: Final = Limit(seconds=1.0)


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
        scores = play_scores(view, acts, self.inference)
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
            tuned = {a: v - spent(a, costs) for a, v in scores.items()}
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


def _root_priors(view: PlayerView, acts: list[int], scores: dict[int, float]) -> list[float]:
    """The heuristic bot's scores for the root's plays (its own hand is known there), with the
    search's own jack values, as measured in docs/bots.md; other actions by :func:`_prior`."""
    board = Board.of_view(view)
    costs = (TWO_EYED_COST, ONE_EYED_COST)
    return [scores[a] - spent(a, costs) if a in scores else _prior(board, view.side, a) for a in acts]


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


# The old private names of the ranking helpers, for the experiments that import them from here
# (experiments/pimc_diagnose.py, experiments/pimc_rules.py); new code imports ``ranking``.
_play_scores = play_scores
_spent = spent
