"""A planner over full states: each candidate play is followed, in the same world, by a rollout
of every seat to the end of the game (or ``horizon`` turns), which plays the cards each
seat really holds and will really draw in that world.

In **oracle mode** (``planner(oracle=True)``, a measurement tool that only the tournament and
tests may build: :class:`~sequence_game.bots.base.Oracle`) the world is the TRUE state, so the
rollouts plan with the real draw order and the opponents' real hands. In fair mode it is
*perfect-information Monte Carlo*: the worlds are sampled from the view
(:class:`~sequence_game.bots.mcts.Determinizer`, with what the other seats' plays showed), every
candidate is played in each world with common random numbers, and the play with the best mean
is chosen; the heuristic's own play is kept unless another beats it by ``confidence`` standard
errors of the paired differences.

The rollout policy is chosen by ``model``: ``0`` :func:`tactical_policy` (what a full state
lets a greedy player see: it wins at once when it can, blocks an opponent's four only when a
seat of that side acting before its next turn holds the card, or a two-eyed jack, to fill it,
and otherwise plays the greedy move); ``1`` the ``heuristic`` bot itself on every seat's view of
the world (the opponent model ``hard``: with the true state and an opponent that is the
heuristic, a rollout predicts the opponent's replies exactly, so choosing among the heuristic's
plays by it is one step of policy improvement); ``2`` the heuristic for the other sides and the tactical policy
for ours; ``3`` :func:`informed_policy`. ``docs/bots.md`` has the measurements.

>>> from sequence_game import GameConfig, new_game
>>> state = new_game(GameConfig(players=2), seed=4)
>>> bot = PlannerBot(seed=1)
>>> bot.select_action(state.view(state.current_seat), Limit(simulations=20)) in state.legal_actions()
True
"""

from __future__ import annotations

import math
import random
import time
from typing import Final

from ..actions import DEAD, REMOVE, WILD
from ..board import CORNERS, LAYOUT, LINES, LINES_THROUGH
from ..cards import JC, JD, JH, JS
from ..state import GameState
from ..views import PlayerView
from .base import Limit, Oracle, forced_action
from .deadline import deadline_of
from .determinize import Determinizer, TrueWorld
from .evaluation import Board, aware_gain, threats
from .evaluators import StaticEvaluator
from .heuristic import HEURISTIC, ONE_EYED_SPEND, TWO_EYED_SPEND, WIN, HeuristicBot
from .ranking import play_scores as _play_scores
from .ranking import spent as _spent
from .rollout_policy import greedy_policy

DEFAULT_LIMIT: Final = Limit(seconds=1.0)
LENGTH_PENALTY: Final = 0.002
"""A win found sooner is worth a little more, a loss later a little less (per turn), so that
among plays that all win (or all lose) in the rollouts the planner prefers the quicker win and
the longer fight."""


def tactical_policy(world: GameState, rng: random.Random, fallback: bool = True) -> int:
    """The rollout move of the seat to act in a full state: a winning sequence now; else a block
    of each opponent four that a seat of that side, acting before this seat's next turn, holds
    the card (or a two-eyed jack) for; else :func:`~sequence_game.bots.mcts.greedy_policy`."""
    if world._penalty or world._manual or world._end is not None:
        return greedy_policy(world, rng) if fallback else -1
    seat = world._seat
    sides = world._sides
    side = seat % sides
    hand = world._hands[seat]
    board = Board.of_state(world)
    wild = JD in hand or JC in hand
    mine = threats(board, side)
    if mine and board.sequences[side] + 1 >= world._need:
        for cell in mine:
            if LAYOUT[cell] in hand:
                return cell
        if wild:
            return WILD + next(iter(mine))
    players = world._n
    hands = world._hands
    live: list[int] = []
    for k in range(1, players):
        other = (seat + k) % players
        t = other % sides
        if t == side:
            break  # a team mate plays before the next opponent: stop at our side's next turn
        cells = threats(board, t)
        if not cells:
            continue
        held = hands[other]
        owild = JD in held or JC in held
        live.extend(c for c in cells if owild or LAYOUT[c] in held)
    if live:
        remover = JS in hand or JH in hand
        for cell in live:
            if LAYOUT[cell] in hand and cell in (world._open[LAYOUT[cell]] or ()):
                return cell
        if remover:
            for cell in live:
                victim = _breaker(board, side, cell)
                if victim >= 0:
                    return REMOVE + victim
        if wild:
            return WILD + live[0]
    return greedy_policy(world, rng) if fallback else -1


def _breaker(board: Board, side: int, cell: int) -> int:
    """A chip (not locked in a sequence) of another side in a four-of-five through ``cell``
    whose removal breaks it (R5.2 one-eyed jack), or -1."""
    for w in LINES_THROUGH[cell]:
        mask = LINES[w]
        for t in range(len(board.chips)):
            if t == side:
                continue
            chips = board.chips[t]
            if (mask & ~(chips | CORNERS)) == 1 << cell:
                target = mask & chips & ~board.locked
                if target:
                    return (target & -target).bit_length() - 1
    return -1


def future_cards(world: GameState, rounds: int) -> list[set[int]]:
    """Per side, the cards its seats will draw in the next ``rounds`` rounds of a full state
    (automatic draws: the top of the pile, the end of ``_deck``, goes to the seat to act)."""
    n = world._n
    sides = world._sides
    deck = world._deck
    out: list[set[int]] = [set() for _ in range(sides)]
    seat = world._seat
    for k in range(min(rounds * n, len(deck))):
        out[((seat + k) % n) % sides].add(deck[-1 - k])
    return out


def informed_policy(world: GameState, rng: random.Random, rounds: int = 3) -> int:
    """A one-ply move that knows the full state: :func:`tactical_policy`'s win and live blocks,
    then the placement with the best board gain in which every window counts by how surely its
    side will fill the other missing spaces (the card in a hand of that side: 1; among its next
    ``rounds`` draws: 0.7; else 0.15, a two-eyed jack's chance)."""
    if world._penalty or world._manual or world._end is not None:
        return greedy_policy(world, rng)
    first = tactical_policy(world, rng, fallback=False)
    if first >= 0:
        return first
    seat = world._seat
    sides = world._sides
    side = seat % sides
    hand = world._hands[seat]
    opens = world._open
    cells: set[int] = set()
    for card in hand:
        open_cells = opens[card]
        if open_cells:
            cells.update(open_cells)
        elif open_cells is not None and not world._dead_done:
            return DEAD + card
    if not cells:
        return greedy_policy(world, rng)
    board = Board.of_state(world)
    coming = future_cards(world, rounds)
    held: list[set[int]] = [set() for _ in range(sides)]
    for s_, h in enumerate(world._hands):
        held[s_ % sides].update(h)
    reach: list[list[float]] = []
    for t in range(sides):
        row = [1.0] * 100
        wild = JD in held[t] or JC in held[t]
        for cell in range(100):
            card = LAYOUT[cell]
            if card >= 0:
                row[cell] = 1.0 if card in held[t] else 0.7 if card in coming[t] else 0.4 if wild else 0.15
        reach.append(row)
    best = -math.inf
    choice = -1
    for cell in sorted(cells):
        g = aware_gain(board, side, cell, HEURISTIC, reach)
        if g > best:
            best, choice = g, cell
    return choice


def noisy_policy(world: GameState, rng: random.Random, noise: float) -> int:
    """:func:`tactical_policy`, but with chance ``noise`` a random R5.2 placement of the hand
    (so that repeated rollouts of one world differ)."""
    if noise > 0.0 and rng.random() < noise and not world._penalty and not world._manual:
        hand = world._hands[world._seat]
        cells = [c for card in hand for c in (world._open[card] or ())]
        if cells:
            return cells[int(rng.random() * len(cells))]
    return tactical_policy(world, rng)


def heuristic_policy(world: GameState, bots: dict[int, HeuristicBot]) -> int:
    """The heuristic bot's move on the view of the seat to act (the opponent model ``hard``)."""
    seat = world.current_seat
    bot = bots.get(seat)
    if bot is None:
        bot = bots[seat] = HeuristicBot(seed=seat)
    return bot.select_action(world.view(seat))


def rollout_value(
    world: GameState,
    side: int,
    rng: random.Random,
    horizon: int,
    then: StaticEvaluator,
    noise: float = 0.0,
    model: int = 0,
) -> float:
    """Play :func:`tactical_policy` for every seat for up to ``horizon`` turns; the value for
    ``side``: +-1 (less :data:`LENGTH_PENALTY` a turn) when the game ends, else ``then``'s score."""
    start = world._turn
    bots: dict[int, HeuristicBot] = {}
    for _ in range(horizon):
        if world._end is not None:
            break
        if model == 1 or (model == 2 and world.current_seat % world._sides != side):
            action = heuristic_policy(world, bots)
        elif model == 3:
            action = informed_policy(world, rng)
        else:
            action = noisy_policy(world, rng, noise)
        world._apply(action, world.current_seat)
    if world._end is not None:
        winner = world._winner
        if winner is None:
            return 0.0
        length = LENGTH_PENALTY * (world._turn - start)
        return 1.0 - length if winner == side else -1.0 + length
    return then.evaluate(world, rng)[side]


class PlannerBot(Oracle):
    """Perfect-information rollouts from the ``width`` best plays of the heuristic, over the true
    state (``oracle=True``, measurement only) or over worlds sampled from the view (PIMC)."""

    name = "planner"

    def __init__(
        self,
        seed: int | None = None,
        width: int = 8,
        horizon: int = 60,
        confidence: float = 1.0,
        noise: float = 0.0,
        model: int = 0,
        inference: bool = True,
        oracle: bool = False,
        max_width: int = 12,
        shuffle_draws: bool = False,
        default_limit: Limit = DEFAULT_LIMIT,
    ) -> None:
        for what, value, least in (
            ("width", width, 1),
            ("max_width", max_width, 1),
            ("horizon", horizon, 0),
            ("confidence", confidence, 0),
        ):
            if not value >= least:  # also refuses NaN
                raise ValueError(f"planner: {what} must be at least {least}, not {value!r}")
        self.rng = random.Random(seed)
        self.width = width
        """How many of the heuristic's best plays are planned."""
        self.horizon = horizon
        """Rollout turns before the position is scored (60: nearly always to the end)."""
        self.confidence = confidence
        """Standard errors of the paired difference by which another play must beat the
        heuristic's to be chosen (fair mode; in oracle mode one deterministic world decides)."""
        self.noise = noise
        """Chance of a random placement at each rollout move (0: deterministic rollouts)."""
        self.model = model
        """Rollout policy: 0 tactical for every seat; 1 the heuristic for every seat; 2 the
        heuristic for the other sides, tactical for ours."""
        self.inference = inference
        """Whether sampled worlds use what the other seats' plays showed they did not hold."""
        self.oracle = oracle
        """Plan in the TRUE state (revealed by the tournament): a measurement tool only."""
        self.shuffle_draws = shuffle_draws
        """Oracle mode only: plan with every true hand but the draw pile in a random order (one
        order a move), to measure what knowing the draw order adds to knowing the hands."""
        self.max_width = max(max_width, width)
        """With deterministic rollouts (oracle mode, ``noise = 0``) one rollout decides a
        candidate, so a budget beyond ``width`` rollouts plans further plays down the heuristic's
        order, up to this many: more time buys a wider plan."""
        self.default_limit = default_limit
        self.then = StaticEvaluator()
        self.last_simulations = 0
        """Rollouts the last move ran (for benchmarks)."""

    def select_action(self, view: PlayerView, limit: Limit | None = None) -> int:
        start = time.perf_counter()  # the clock runs from the first work: ranking included
        forced = forced_action(view)
        if forced is not None:
            self.last_simulations = 0
            return forced
        if limit is None or (limit.seconds is None and limit.simulations is None):
            limit = self.default_limit
        truth = self.true_world(view) if self.oracle else None
        if truth is not None and self.shuffle_draws:
            self.rng.shuffle(truth._deck)  # the hands stay true; the draws become a guess
        acts = [a for a in view.legal_actions if a < DEAD]
        if not acts:  # a stuck hand (R5.5) or a table-talk fine (R6.1): the heuristic's discard
            return HeuristicBot(seed=self.rng.getrandbits(32)).select_action(view, limit)
        scores = _play_scores(view, acts, self.inference)
        costs = (TWO_EYED_SPEND, ONE_EYED_SPEND)
        order = sorted(acts, key=lambda a: -(scores[a] - _spent(a, costs)))
        if scores[order[0]] - _spent(order[0], costs) >= WIN / 2:  # it wins now (R7.1)
            self.last_simulations = 0
            return order[0]
        deterministic = truth is not None and self.noise == 0.0
        cands = order[: self.max_width if deterministic else self.width]
        if len(cands) == 1:
            self.last_simulations = 0
            return cands[0]
        deadline = deadline_of(start, limit)
        budget = limit.simulations if limit.simulations is not None else 1 << 62
        source: Determinizer | TrueWorld = (
            TrueWorld(truth) if truth is not None else Determinizer(view, self.rng, self.inference)
        )
        return self._search(view, cands, source, deadline, budget, start)

    def _search(
        self,
        view: PlayerView,
        cands: list[int],
        source: Determinizer | TrueWorld,
        deadline: float,
        budget: int,
        start: float,
    ) -> int:
        """Paired rollouts: every candidate in the same world with the same random numbers."""
        side = view.side
        n = len(cands)
        totals = [0.0] * n
        counts = [0] * n
        diff_sq = [0.0] * n
        sims = 0
        samples = 0
        out_of_time = False
        began = time.perf_counter()
        if isinstance(source, TrueWorld) and self.noise == 0.0:
            return self._plan_true(view, cands, source, deadline, budget)
        while not out_of_time and sims < budget and (samples < 1 or time.perf_counter() < deadline):
            base = source.sample()
            seed = self.rng.getrandbits(32)
            first = 0.0
            for i, a in enumerate(cands):
                if sims >= budget:
                    break
                if sims and time.perf_counter() + (time.perf_counter() - began) / sims > deadline:
                    out_of_time = True  # one more rollout would end past the limit (honest clock)
                    break
                world = base.copy()
                world._apply(a, view.seat)
                v = rollout_value(
                    world, side, random.Random(seed), self.horizon, self.then, self.noise, self.model
                )
                if i == 0:
                    first = v
                else:
                    diff_sq[i] += (v - first) ** 2
                totals[i] += v
                counts[i] += 1
                sims += 1
            samples += 1
        self.last_simulations = sims
        means = [totals[i] / counts[i] if counts[i] else -2.0 for i in range(n)]
        best = max(range(n), key=lambda i: (means[i], -i))
        if self.confidence > 0.0 and best != 0:
            k = min(counts[0], counts[best])
            d = means[best] - means[0]
            var = max(diff_sq[best] / max(k, 1) - d * d, 1e-12) / max(k - 1, 1)
            if k < 2 or d < self.confidence * math.sqrt(var):
                best = 0
        return cands[best]

    def _plan_true(
        self, view: PlayerView, cands: list[int], source: TrueWorld, deadline: float, budget: int
    ) -> int:
        """Oracle mode: one deterministic rollout per candidate, in the heuristic's order, as many
        as the budget and the clock allow (up to ``max_width``); the best value wins, ties going
        to the heuristic's order."""
        base = source.sample()
        seed = self.rng.getrandbits(32)
        values: list[float] = []
        began = time.perf_counter()
        for a in cands:
            done = len(values)
            if done >= budget:
                break
            if done:
                now = time.perf_counter()
                if now + (now - began) / done > deadline:
                    break  # one more rollout would end past the limit (honest clock)
            world = base.copy()
            world._apply(a, view.seat)
            values.append(
                rollout_value(
                    world, view.side, random.Random(seed), self.horizon, self.then, self.noise, self.model
                )
            )
        self.last_simulations = len(values)
        best = max(range(len(values)), key=lambda i: (values[i], -i))
        return cands[best]
