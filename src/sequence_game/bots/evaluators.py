"""How a search values a sampled world at a leaf: statically (open lines, threats, jacks held) or
after a rollout (random, greedy, or led by the heuristic bot's reply), one value per side.

Board-level scoring itself is :mod:`~sequence_game.bots.evaluation`; this module turns it into
the leaf values the searches average.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Final, Protocol

from ..board import LAYOUT
from ..cards import ONE_EYED, TWO_EYED
from ..state import GameState
from .evaluation import Board, Weights, side_values, threats
from .heuristic import HEURISTIC, HeuristicBot
from .rollout_policy import greedy_policy

__all__ = [
    "JACK_VALUES",
    "Evaluator",
    "GreedyRolloutEvaluator",
    "LedRolloutEvaluator",
    "RolloutEvaluator",
    "StaticEvaluator",
]

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
