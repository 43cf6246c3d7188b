"""Random playouts: :func:`random_action` applied until the game ends, one game or many."""

from __future__ import annotations

import numpy as np

from ...cards import DECK_SIZE
from .dealing import deal_random, seed_state
from .jit import allocating_kernel, inline_kernel, kernel
from .layout import END_NONE, I_END, I_TURN, I_WINNER, ROW
from .moves import random_action
from .turns import apply


@inline_kernel
def outcome(s: np.ndarray) -> int:
    """What a playout returns once it stops: the winning side, -1 for a drawn game, -2 for a game
    stopped unfinished (at its turn limit)."""
    if s[I_END] == END_NONE:
        return -2
    return int(s[I_WINNER])


@kernel
def playout(s: np.ndarray, rs: np.ndarray, g: int, max_turns: int) -> int:
    """Random play (:func:`random_action`) until the game ends or reaches ``max_turns`` turns;
    the winning side, -1 for a drawn game, -2 when stopped unfinished."""
    while s[I_END] == END_NONE and s[I_TURN] < max_turns:
        apply(s, rs, g, random_action(s, rs, g))
    return outcome(s)


@allocating_kernel
def play_games(players: int, sides: int, games: int, seed: int, max_turns: int, stats: np.ndarray) -> None:
    """``games`` random games from ``seed``: per game, ``stats[i] = (winner, turns)`` (winner as
    :func:`playout`). The benchmark's loop, wholly compiled."""
    s = np.empty(ROW, dtype=np.int32)
    rs = np.empty(1, dtype=np.uint64)
    rs[0] = seed_state(seed)
    deck = np.empty(DECK_SIZE, dtype=np.int32)
    for i in range(games):
        deal_random(s, rs, 0, players, sides, deck)
        stats[i, 0] = playout(s, rs, 0, max_turns)
        stats[i, 1] = s[I_TURN]
