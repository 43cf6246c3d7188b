"""Rollouts for search on the compiled engine.

Search keeps its tree, its sampled worlds and its choices on the pure engine; only the playouts
(random play to the end) run compiled. :func:`rollout_outcomes` converts one pure-engine state
and plays ``n`` playouts from it in a single compiled call; :class:`FastRolloutEvaluator` is a
drop-in ``Evaluator`` for :class:`~sequence_game.bots.mcts.MCTSBot`::

    MCTSBot(evaluator=FastRolloutEvaluator(), paired=False)

>>> from sequence_game import GameConfig, new_game
>>> state = new_game(GameConfig(players=2), seed=3)
>>> wins = rollout_outcomes(state, 50, seed=1)
>>> wins.shape, int(wins.sum())  # two sides, drawn, unfinished
((4,), 50)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

import numpy as np

from ..cards import DECK_SIZE
from ..state import GameState
from . import kernels as k
from .compile import ensure_compiled, register_warm_up
from .engine import FastGame

DEFAULT_ROLLOUT_TURNS: Final = 2000
"""A playout stops after this many turns (random games last about 80-95)."""


@k.allocating_kernel
def many_playouts(row: np.ndarray, seed: int, n: int, max_turns: int, tally: np.ndarray) -> None:
    """``n`` random playouts from copies of ``row``; ``tally[side]`` counts wins, ``tally[-2]``
    drawn games and ``tally[-1]`` playouts stopped at ``max_turns``."""
    s = np.empty_like(row)
    rs = np.empty(1, dtype=np.uint64)
    rs[0] = k.seed_state(seed)
    for _ in range(n):
        s[:] = row
        winner = k.playout(s, rs, 0, max_turns)
        if winner >= 0:
            tally[winner] += 1
        elif winner == -1:
            tally[tally.shape[0] - 2] += 1
        else:
            tally[tally.shape[0] - 1] += 1


def rollout_outcomes(state: GameState, n: int, seed: int = 0, max_turns: int | None = None) -> np.ndarray:
    """Play ``n`` random playouts (dead cards exchanged, every other legal action equally likely)
    from ``state`` on the compiled engine: wins per side, then drawn games, then unfinished ones.

    ``max_turns`` is an absolute turn number (default: ``state.turn`` + 2000). The state's own
    draw pile order is used (search passes its sampled worlds); reshuffles come from ``seed``.
    """
    ensure_compiled("rollout")
    game = FastGame.from_state(state, seed)
    limit = state.turn + DEFAULT_ROLLOUT_TURNS if max_turns is None else max_turns
    tally = np.zeros(state.config.sides + 2, dtype=np.int64)
    many_playouts(game.row, seed & ((1 << 63) - 1), n, limit, tally)
    return tally


@dataclass(frozen=True)
class FastRolloutEvaluator:
    """An ``Evaluator`` (``bots.mcts``): the mean result per side of ``playouts`` compiled random
    playouts from the world, +1 a win, -1 a loss, 0 a drawn or unfinished game."""

    playouts: int = 1
    turns: int = DEFAULT_ROLLOUT_TURNS

    def evaluate(self, world: GameState, rng: random.Random) -> list[float]:
        tally = rollout_outcomes(world, self.playouts, rng.getrandbits(63), world.turn + self.turns)
        sides = world.config.sides
        wins = tally[:sides].astype(np.float64)
        decided = float(wins.sum())
        return [float((2.0 * wins[s] - decided) / self.playouts) for s in range(sides)]


def _warm_up() -> None:
    row = np.empty(k.ROW, dtype=np.int32)
    rng = np.array([k.seed_state(1)], dtype=np.uint64)
    k.deal_random(row, rng, 0, 2, 2, np.empty(DECK_SIZE, dtype=np.int32))
    many_playouts(row, 1, 1, 10, np.zeros(4, dtype=np.int64))


register_warm_up("rollout", _warm_up)
