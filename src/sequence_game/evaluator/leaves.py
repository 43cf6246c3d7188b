"""The evaluator at the ends of rollouts cut short: leaf values for a search (``pimc(leaf=N)``).

A rollout played to the end of the game says +1 or -1: most of its spread is the luck of the
deals after the move judged. Stopped after a few turns and judged by the evaluator from the
searching seat's view of that world, it says how far ahead the side is there, with most of that
luck still to come and averaged out by the evaluator (issue 39; the measurement that compares
the two on the same positions is ``experiments/leaf_values.py``). The rows come from
:func:`sequence_game.fast.pimc.cut_rollouts`; the searching seat's view of each is read from
the row by compiled code (:mod:`sequence_game.fast.leaf_features`), its history being the search's
own view's with the rollout's actions after it.

>>> from sequence_game import GameConfig, new_game
>>> from sequence_game.fast.pimc import cut_rollouts, world_rows
>>> state = new_game(GameConfig(players=2), seed=3)
>>> view = state.view(state.current_seat)
>>> rows = world_rows([state, state])
>>> cands = [a for a in state.legal_actions() if a < 100][:3]
>>> ends = cut_rollouts(rows, [1, 2], cands, view.side, turns=2, policy=0)
>>> values = leaf_values(Evaluator.load(), view, rows, ends)
>>> values.shape, bool(((-1 <= values) & (values <= 1)).all())
((3, 2), True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..cards import Card
from ..config import GameConfig
from ..fast import kernels as k
from ..fast.engine import FastGame
from ..fast.leaf_features import row_features
from ..features.position import features, history_marks, view_parts
from ..views import PlayerView
from .model import Evaluator


class RowView:
    """A seat's view of a compiled row, as :func:`~sequence_game.features.position.view_parts`
    reads a view: the board, the seat's hand and the discards from the row; the history given
    (the search's own view's and the actions the rollout logged after it)."""

    def __init__(
        self, config: GameConfig, seat: int, row: np.ndarray, history: Sequence[tuple[Any, ...]]
    ) -> None:
        game = FastGame.__new__(FastGame)
        game.config, game.row, game.rng = config, row, np.zeros(1, dtype=np.uint64)
        self.game = game
        self.config = config
        self.seat = seat
        self.side = seat % config.sides
        self.chips: list[int] = [game.chips(s) for s in range(config.sides)]
        self.locked: int = game.locked
        self.sequence_windows: list[list[int]] = [game.sequence_windows(s) for s in range(config.sides)]
        self.history = history
        self.hand: list[Card] = game.hand(seat)
        self.discards: list[list[Card]] = [game.discard_pile(s) for s in range(config.players)]
        self.is_over: bool = game.is_terminal()
        self.current_seat: int = game.current_seat
        self.deck_size: int = game.deck_size
        self.turn: int = game.turn


def logged_since(row: np.ndarray, logged: int) -> tuple[tuple[int, int], ...]:
    """The (seat, action) events the row logged after its first ``logged`` (at most the log's
    length: a cut rollout of a few turns fits in it)."""
    now = int(row[k.I_LOGGED])
    start = max(logged, now - k.LOG_SIZE)
    return tuple(
        (int(row[k.O_LOG + 2 * (i % k.LOG_SIZE)]), int(row[k.O_LOG + 2 * (i % k.LOG_SIZE) + 1]))
        for i in range(start, now)
    )


def leaf_values(judge: Evaluator, view: PlayerView, worlds: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """``float64[C, W]``: the value for ``view``'s side, on the rollouts' scale (-1 a loss, +1 a
    win), of each cut rollout's end ``ends[c, w]`` (rolled from ``worlds[w]``): a finished game
    its result, an open one ``2p - 1`` with ``p`` the evaluator's chance for the seat's view,
    whose features are read from the rows by the compiled
    :func:`~sequence_game.fast.leaf_features.row_features` (:func:`python_leaf_values` reads
    them as the analysis does, through a view of each row: the same numbers, a hundred times
    slower)."""
    x = row_features(ends, worlds, view.seat, history_marks(view.history, view.config.sides))
    return end_values(ends, view.side, lambda open_rows: judge.chances_of_features(x[open_rows]))


def end_values(ends: np.ndarray, side: int, open_chances: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """``float64[C, W]`` for ``side`` on the rollouts' scale: a finished game's result (+1, 0 a
    drawn game, -1), and ``2p - 1`` for the open ones, ``p = open_chances(mask)`` being the chances
    of the rows ``ends[mask]`` (whatever judges them)."""
    over = ends[:, :, k.I_END] != k.END_NONE
    values = np.empty(ends.shape[:2], dtype=np.float64)
    if (~over).any():
        values[~over] = 2.0 * open_chances(~over) - 1.0
    winners = ends[:, :, k.I_WINNER][over]
    values[over] = np.where(winners < 0, 0.0, np.where(winners == side, 1.0, -1.0))
    return values


def python_leaf_values(
    judge: Evaluator, view: PlayerView, worlds: np.ndarray, ends: np.ndarray
) -> np.ndarray:
    """:func:`leaf_values` through a :class:`RowView` of each row and
    :func:`~sequence_game.features.position.view_parts`: the reference the compiled reading is
    tested against."""
    cands, count = ends.shape[0], ends.shape[1]
    config, sides = view.config, view.config.sides
    marks = history_marks(view.history, sides)
    values = np.empty((cands, count), dtype=np.float64)
    parts, where = [], []
    for w in range(count):
        logged = int(worlds[w, k.I_LOGGED])
        for c in range(cands):
            row = ends[c, w]
            if row[k.I_END] != k.END_NONE:
                winner = int(row[k.I_WINNER])
                values[c, w] = 0.0 if winner < 0 else (1.0 if winner == view.side else -1.0)
                continue
            history = (*view.history, *logged_since(row, logged))
            parts.append(view_parts(RowView(config, view.seat, row, history), marks))
            where.append((c, w))
    if parts:
        chances = judge.chances_of_features(features(parts))
        for (c, w), p in zip(where, chances.tolist(), strict=True):
            values[c, w] = 2.0 * p - 1.0
    return values
