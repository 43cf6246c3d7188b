"""Perfect-information Monte Carlo on the compiled engine: the rollouts of the ``pimc`` bot
(:mod:`sequence_game.bots.pimc`).

A search samples ``W`` full worlds from its view (pure-engine states, converted to rows) and asks
:func:`candidate_values` for the value of each of its ``C`` candidate plays in each world: the
play is made and the game is played out to the end by a rollout policy, all in one compiled call.
Every candidate meets the same world *and the same random stream* (common random numbers), so
the differences between candidates are measured on paired games and most of the luck cancels.

Rollout policies: :data:`RANDOM` (:func:`~.kernels.playout`, uniform legal play) and
:data:`HEURISTIC` (the compiled heuristic, :func:`~.heuristic.choose`, on every seat: it plays as
the ``heuristic`` bot does, so against that bot a rollout predicts the opponent's replies) and
:data:`LITE` (its cheaper form, :func:`~.heuristic.choose_lite`) and :data:`INFERRING` (the heuristic with
inference, exactly the ``heuristic`` bot's default).

>>> from sequence_game import GameConfig, new_game
>>> state = new_game(GameConfig(players=2), seed=3)
>>> rows = world_rows([state, state])
>>> cands = [a for a in state.legal_actions() if a < 100][:3]
>>> values = candidate_values(rows, [1, 2], cands, side=state.current_seat % 2, policy=RANDOM)
>>> values.shape
(3, 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from itertools import pairwise
from typing import Final

import numpy as np

from ..cards import DECK_SIZE
from ..state import GameState
from . import heuristic as h
from . import kernels as k
from .compile import ensure_compiled, register_warm_up
from .engine import FastGame

RANDOM: Final = 0
"""Rollout policy: uniformly random legal play (dead cards exchanged first)."""
HEURISTIC: Final = h.FULL
"""Rollout policy: every seat plays the compiled heuristic (:func:`~.heuristic.choose`)."""
LITE: Final = h.LITE
"""Rollout policy: every seat plays the heuristic's cheap form (:func:`~.heuristic.choose_lite`)."""
INFERRING: Final = h.INFERRING
"""Rollout policy: every seat plays the heuristic with inference (:func:`~.heuristic.choose_inferring`,
the ``heuristic`` bot's default: what the others' plays showed they lack)."""
GREEDY: Final = h.GREEDY
"""Rollout policy: the ``greedy`` bot compiled (:func:`~.heuristic.choose_greedy`); as the other
seats' model (``others``) it says how a search fares against a player who is not the heuristic."""
TUNED: Final = h.TUNED
"""Rollout policy: the heuristic with inference playing its tuned numbers (:data:`~.heuristic.TUNED_PARAMS`),
a little stronger than :data:`INFERRING`: for a search's own seats, whose future play is stronger
than the heuristic's."""
POLICIES: Final = (RANDOM, HEURISTIC, LITE, INFERRING, GREEDY, TUNED)
NO_HORIZON: Final = 2000
"""Turns after which a rollout stops unfinished (games end long before)."""


@k.inline_kernel
def rollout_value(winner: int, side: int, turns: int, length_penalty: float) -> float:
    """What a rollout's end is worth to ``side``: +1 (less ``length_penalty`` a turn of the
    ``turns`` it took) for a win, -1 (plus as much) for a loss, 0 for a drawn or unfinished game."""
    if winner < 0:
        return 0.0
    length = length_penalty * turns
    return 1.0 - length if winner == side else -1.0 + length


@k.allocating_kernel
def _candidate_values(
    worlds: np.ndarray,
    seeds: np.ndarray,
    cands: np.ndarray,
    side: int,
    policy: int,
    others: int,
    horizon: int,
    length_penalty: float,
    out: np.ndarray,
) -> None:
    """``out[c, w]``: the value for ``side`` of playing ``cands[c]`` in ``worlds[w]`` and then
    rolling out for at most ``horizon`` turns, ``side``'s seats playing ``policy`` and the other
    seats ``others`` (random play only with both random), with the random stream
    ``seeds[w]`` for every candidate: +1 (less ``length_penalty`` a turn) for a win, -1 (plus as
    much) for a loss, 0 for a drawn or unfinished game."""
    s = np.empty(worlds.shape[1], dtype=np.int32)
    rs = np.empty(1, dtype=np.uint64)
    iw = np.zeros(h.INT_WORK, dtype=np.int64)
    fw = np.zeros(h.FLOAT_WORK, dtype=np.float64)
    for w in range(worlds.shape[0]):
        for c in range(cands.shape[0]):
            s[:] = worlds[w]
            rs[0] = seeds[w]
            start = s[k.I_TURN]
            k.apply(s, rs, 0, cands[c])
            stop = start + horizon
            if policy == RANDOM and others == RANDOM:
                winner = k.playout(s, rs, 0, stop)
            else:
                winner = h.playout_sides_with(s, rs, 0, stop, iw, fw, policy, side, others)
            out[c, w] = rollout_value(winner, side, s[k.I_TURN] - start, length_penalty)


def world_rows(worlds: Sequence[GameState]) -> np.ndarray:
    """The compiled engine's rows of full pure-engine states (auto draws, no fine pending)."""
    rows = np.empty((len(worlds), k.ROW), dtype=np.int32)
    for i, world in enumerate(worlds):
        rows[i] = FastGame.from_state(world).row
    return rows


def _worlds_and_streams(rows: np.ndarray, seeds: Sequence[int] | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The world rows checked, and one random state per world from its seed (kernels compiled)."""
    ensure_compiled("pimc")
    rows = np.ascontiguousarray(rows, dtype=np.int32)
    if rows.ndim != 2 or rows.shape[1] != k.ROW:
        raise ValueError(f"rows must be an int32 array of shape (worlds, {k.ROW})")
    states = np.array([k.seed_state(int(x) & ((1 << 63) - 1)) for x in seeds], dtype=np.uint64)
    if states.shape[0] != rows.shape[0]:
        raise ValueError(f"{rows.shape[0]} worlds but {states.shape[0]} seeds")
    return rows, states


def candidate_values(
    rows: np.ndarray,
    seeds: Sequence[int] | np.ndarray,
    cands: Sequence[int],
    side: int,
    policy: int = HEURISTIC,
    horizon: int = NO_HORIZON,
    length_penalty: float = 0.0,
    threads: int = 1,
    others: int | None = None,
) -> np.ndarray:
    """A ``float64[C, W]`` array: the value for ``side`` of each candidate play (legal for the
    seat to move in every world) in each world ``rows[w]``, rolled out with the random stream of
    ``seeds[w]`` (see :func:`_candidate_values`). With ``threads`` above 1 the worlds are split
    among that many threads (the kernels release the GIL); every world keeps its own random
    stream, so the values are the same whatever the split. ``others`` is the policy of the seats
    not on ``side`` (the search's model of its opponents; ``None``: ``policy`` too)."""
    others = policy if others is None else others
    for p in (policy, others):
        if p not in POLICIES:
            raise ValueError(
                f"rollout policy must be one of {POLICIES} (0 random, 1 heuristic, 2 lite, 3 inferring, "
                f"4 greedy, 5 tuned), not {p!r}"
            )
    if (policy == RANDOM) != (others == RANDOM):
        raise ValueError("random rollouts are for every seat or none (policy and others both 0, or neither)")
    if horizon < 1:
        raise ValueError(f"horizon must be at least 1 turn, not {horizon!r}")
    if threads < 1:
        raise ValueError(f"threads must be at least 1, not {threads!r}")
    rows, states = _worlds_and_streams(rows, seeds)
    plays = np.asarray(cands, dtype=np.int64)
    parts = min(threads, rows.shape[0])
    if parts <= 1:
        out = np.zeros((plays.shape[0], rows.shape[0]), dtype=np.float64)
        _candidate_values(rows, states, plays, side, policy, others, horizon, length_penalty, out)
        return out
    bounds = np.linspace(0, rows.shape[0], parts + 1).astype(np.int64)
    outs = [np.zeros((plays.shape[0], int(b - a)), dtype=np.float64) for a, b in pairwise(bounds)]

    def run(i: int) -> None:
        a, b = int(bounds[i]), int(bounds[i + 1])
        _candidate_values(
            rows[a:b], states[a:b], plays, side, policy, others, horizon, length_penalty, outs[i]
        )

    list(_pool(parts).map(run, range(parts)))
    return np.concatenate(outs, axis=1)


@k.allocating_kernel
def _cut_rows(
    worlds: np.ndarray,
    seeds: np.ndarray,
    cands: np.ndarray,
    side: int,
    policy: int,
    others: int,
    turns: int,
    out: np.ndarray,
) -> None:
    """``out[c, w]``: the row after playing ``cands[c]`` in ``worlds[w]`` and rolling out until
    ``turns`` turns have passed, the candidate's own included, or the game is over: the rollout of
    :func:`_candidate_values` (the same policies, the same random stream) stopped early."""
    rs = np.empty(1, dtype=np.uint64)
    iw = np.zeros(h.INT_WORK, dtype=np.int64)
    fw = np.zeros(h.FLOAT_WORK, dtype=np.float64)
    for w in range(worlds.shape[0]):
        for c in range(cands.shape[0]):
            s = out[c, w]
            s[:] = worlds[w]
            rs[0] = seeds[w]
            stop = s[k.I_TURN] + turns
            k.apply(s, rs, 0, cands[c])
            if policy == RANDOM and others == RANDOM:
                k.playout(s, rs, 0, stop)
            else:
                h.playout_sides_with(s, rs, 0, stop, iw, fw, policy, side, others)


def cut_rollouts(
    rows: np.ndarray,
    seeds: Sequence[int] | np.ndarray,
    cands: Sequence[int],
    side: int,
    turns: int,
    policy: int = HEURISTIC,
    others: int | None = None,
) -> np.ndarray:
    """An ``int32[C, W, ROW]`` array: the rows where :func:`candidate_values`' rollouts of each
    candidate in each world stand after ``turns`` turns (the candidate's own turn included; a
    game over sooner stays over). For a search that judges those positions instead of playing
    them out (``pimc(leaf=...)``): the compiled part, the judging is the evaluator's."""
    others = policy if others is None else others
    if policy not in POLICIES or others not in POLICIES or (policy == RANDOM) != (others == RANDOM):
        raise ValueError(f"rollout policies must be among {POLICIES}, random for all or none")
    if turns < 1:
        raise ValueError(f"a cut rollout runs at least the candidate's own turn, not {turns!r}")
    rows, states = _worlds_and_streams(rows, seeds)
    out = np.empty((len(cands), rows.shape[0], k.ROW), dtype=np.int32)
    _cut_rows(rows, states, np.asarray(cands, dtype=np.int64), side, policy, others, turns, out)
    return out


_pools: dict[int, ThreadPoolExecutor] = {}


def _pool(threads: int) -> ThreadPoolExecutor:
    """One pool per thread count, kept for the process (a move makes many calls)."""
    pool = _pools.get(threads)
    if pool is None:
        pool = _pools[threads] = ThreadPoolExecutor(threads, thread_name_prefix="pimc")
    return pool


def _warm_up() -> None:
    row = np.empty((1, k.ROW), dtype=np.int32)
    rng = np.array([k.seed_state(1)], dtype=np.uint64)
    k.deal_random(row[0], rng, 0, 2, 2, np.empty(DECK_SIZE, dtype=np.int32))
    plays = np.array([k.random_action(row[0], rng, 0)], dtype=np.int64)
    _candidate_values(row, rng, plays, 0, 0, 0, 10, 0.0, np.zeros((1, 1), dtype=np.float64))
    _cut_rows(row, rng, plays, 0, 0, 0, 2, np.empty((1, 1, k.ROW), dtype=np.int32))


GROUP: Final = "pimc"
"""The name :func:`~.compile.ensure_compiled` knows this module's kernels by."""
register_warm_up(GROUP, _warm_up)
