"""Whole self-play games in one compiled call, with everything a dataset keeps of them.

A dataset of games needs more than their results: the actions in order (with the seat of each),
the new draw piles the reshuffles made (R5.4), so that a game can be replayed exactly as a record
without any random generator, and, when asked, what the seat to act saw before each action.
:func:`play_logged` plays a game to its end with a compiled policy at every seat and writes
those into the caller's arrays; Python runs once a game, not once a move.

Policies by seat: :data:`RANDOM` (``random``), or one of the heuristic kernels' policies
(``heuristic.GREEDY`` for ``greedy``, ``heuristic.INFERRING`` for ``hard``, ``heuristic.FULL``,
``heuristic.LITE``, ``heuristic.TUNED``).

>>> from sequence_game import GameConfig
>>> log = GameLog.for_turns(400)
>>> n = play_game(GameConfig(players=2), deck_seed=1, rng_seed=2, policies=(h.INFERRING, h.GREEDY), log=log)
>>> n.actions > 0, n.winner in (-1, 0, 1)
(True, True)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

import numpy as np

from ..actions import NUM_ACTIONS
from ..board import NUM_CELLS
from ..cards import FULL_DECK
from ..config import GameConfig
from ..features.planes import DEFAULT_MAX_TURNS
from . import heuristic as h
from . import kernels as k
from .compile import ensure_compiled, register_warm_up
from .engine import check_config
from .vector import SCRATCH, encode_row_packed, plane_values

RANDOM: Final = 0
"""The policy code of uniformly random play (a dead card exchanged first, as ``random``)."""
POLICIES: Final = {
    "random": RANDOM,
    "greedy": h.GREEDY,
    "hard": h.INFERRING,
    "heuristic": h.INFERRING,
    "heuristic-plain": h.FULL,
    "lite": h.LITE,
    "tuned": h.TUNED,
}
"""The names a dataset's ``--bots`` accepts, and the compiled policy each plays."""

TRUNCATED: Final = -2
"""``winner`` of a game stopped at the turn limit (``-1`` is a drawn game, R7.2)."""


@k.kernel
def play_logged(
    s: np.ndarray,
    rs: np.ndarray,
    iw: np.ndarray,
    fw: np.ndarray,
    policies: np.ndarray,
    max_turns: int,
    actions: np.ndarray,
    seats: np.ndarray,
    resh_at: np.ndarray,
    resh_cards: np.ndarray,
    observe: bool,
    obs_turns: int,
    vals: np.ndarray,
    words: np.ndarray,
    masks: np.ndarray,
    scratch: np.ndarray,
) -> tuple[int, int]:
    """Play the dealt row ``s`` to its end (or ``max_turns`` turns); ``(actions, reshuffles)``.

    ``actions[i]`` was played by ``seats[i]``; reshuffle ``j`` happened during action
    ``resh_at[j]`` and made the pile ``resh_cards[j, :n]`` (top card first, ``-1`` after it).
    With ``observe``, ``words[i]`` and ``masks[i]`` are the packed uint8 planes (turns scaled by
    ``obs_turns``, with ``vals`` made for it) and the legal mask of ``seats[i]`` just before
    action ``i``. A full buffer stops the game (truncated)."""
    n = 0
    r = 0
    limit = actions.shape[0]
    while s[k.I_END] == k.END_NONE and s[k.I_TURN] < max_turns and n < limit:
        seat = s[k.I_SEAT]
        if observe:
            encode_row_packed(s, vals, obs_turns, words[n], masks[n], scratch)
        policy = policies[seat]
        if policy == RANDOM:
            action = k.random_action(s, rs, 0)
        else:
            action = h.choose_policy_with(s, rs, 0, iw, fw, policy)
        before = s[k.I_RESHUFFLES]
        k.apply(s, rs, 0, action)
        actions[n] = action
        seats[n] = seat
        if s[k.I_RESHUFFLES] != before and r < resh_at.shape[0]:
            size = s[k.I_RESHUFFLED]
            resh_at[r] = n
            for i in range(resh_cards.shape[1]):
                resh_cards[r, i] = s[k.O_DECK + size - 1 - i] if i < size else -1
            r += 1
        n += 1
    return n, r


@dataclass
class GameLog:
    """The arrays one game is written into (reused from game to game)."""

    actions: np.ndarray
    seats: np.ndarray
    resh_at: np.ndarray
    resh_cards: np.ndarray
    words: np.ndarray
    masks: np.ndarray

    @classmethod
    def for_turns(cls, max_turns: int, observe: bool = False) -> GameLog:
        """Room for a game of ``max_turns`` turns: each turn at most one dead-card exchange (R5.1)
        before its play."""
        size = 2 * max_turns + 8
        rows = size if observe else 1
        return cls(
            actions=np.zeros(size, dtype=np.int32),
            seats=np.zeros(size, dtype=np.int32),
            resh_at=np.zeros(64, dtype=np.int32),
            resh_cards=np.zeros((64, len(FULL_DECK)), dtype=np.int32),
            words=np.zeros((rows, NUM_CELLS, 3), dtype=np.int64),
            masks=np.zeros((rows, NUM_ACTIONS), dtype=np.int8),
        )


@dataclass(frozen=True)
class Played:
    """What :func:`play_game` wrote: how many actions and reshuffles, and how the game ended."""

    actions: int
    reshuffles: int
    winner: int
    """The winning side, ``-1`` for a drawn game (R7.2), :data:`TRUNCATED` if stopped."""
    turns: int
    deck: list[int]
    dealer: int


_VALS: dict[tuple[int, int, int], np.ndarray] = {}


def play_game(
    config: GameConfig,
    deck_seed: int,
    rng_seed: int,
    policies: tuple[int, ...],
    log: GameLog,
    *,
    max_turns: int = 400,
    observe: bool = False,
) -> Played:
    """Shuffle a deck with ``deck_seed`` (Python's generator, as the pure engine's ``new_game``),
    cut for the deal, and play it with ``policies`` (one a side, or one a seat) into ``log``."""
    check_config(config)
    ensure_compiled("selfplay", notice=None)
    rng = random.Random(deck_seed)
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    dealer = rng.randrange(config.players)
    if len(policies) == config.sides:
        by_seat = np.array([policies[seat % config.sides] for seat in range(config.players)], dtype=np.int64)
    elif len(policies) == config.players:
        by_seat = np.array(policies, dtype=np.int64)
    else:
        raise ValueError(
            f"one policy a side ({config.sides}) or a seat ({config.players}), not {len(policies)}"
        )
    row = np.empty(k.ROW, dtype=np.int32)
    k.deal(row, config.players, config.sides, dealer, np.asarray(deck, dtype=np.int32))
    rs = np.array([k.seed_state(rng_seed & ((1 << 62) - 1) | 1)], dtype=np.uint64)
    iw, fw = _work()
    key = (config.players, config.sides, DEFAULT_MAX_TURNS)
    vals = _VALS.get(key)
    if vals is None:
        vals = _VALS[key] = plane_values(*key, np.uint8).astype(np.int64)
    n, r = play_logged(
        row,
        rs,
        iw,
        fw,
        by_seat,
        max_turns,
        log.actions,
        log.seats,
        log.resh_at,
        log.resh_cards,
        observe,
        DEFAULT_MAX_TURNS,
        vals,
        log.words,
        log.masks,
        _scratch(),
    )
    end = int(row[k.I_END])
    winner = int(row[k.I_WINNER]) if end != k.END_NONE else TRUNCATED
    return Played(int(n), int(r), winner, int(row[k.I_TURN]), deck, dealer)


_WORK: list[tuple[np.ndarray, np.ndarray]] = []
_SCRATCH: list[np.ndarray] = []


def _work() -> tuple[np.ndarray, np.ndarray]:
    if not _WORK:
        _WORK.append(h.new_work())
    return _WORK[0]


def _scratch() -> np.ndarray:
    if not _SCRATCH:
        _SCRATCH.append(np.zeros(SCRATCH, dtype=np.int64))
    return _SCRATCH[0]


def _warm_up() -> None:
    ensure_compiled("heuristic", notice=None)
    ensure_compiled("vector", notice=None)
    config = GameConfig(players=2)
    row = np.empty(k.ROW, dtype=np.int32)
    k.deal(row, 2, 2, 1, np.asarray(FULL_DECK, dtype=np.int32))
    log = GameLog.for_turns(4, observe=True)
    rs = np.array([k.seed_state(1)], dtype=np.uint64)
    iw, fw = _work()
    vals = plane_values(config.players, config.sides, 4, np.uint8).astype(np.int64)
    play_logged(
        row,
        rs,
        iw,
        fw,
        np.zeros(2, dtype=np.int64),
        4,
        log.actions,
        log.seats,
        log.resh_at,
        log.resh_cards,
        True,
        4,
        vals,
        log.words,
        log.masks,
        _scratch(),
    )


register_warm_up("selfplay", _warm_up)
