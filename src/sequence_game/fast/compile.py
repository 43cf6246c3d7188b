"""Compiling the kernels once per machine, with a notice when that takes a while.

Numba compiles a kernel on its first call and caches the machine code on disk (``cache=True``),
so only the first process on a machine pays the compile (tens of seconds); later ones load it.
"""

from __future__ import annotations

import sys
import threading
import time
from typing import Final, TextIO, cast

import numpy as np

from ..cards import DECK_SIZE
from . import kernels as k

NOTICE_AFTER: Final = 3.0
"""Seconds of compiling after which a notice is shown (a cached start takes well under one)."""

_compile_seconds: dict[str, float] = {}
_lock = threading.RLock()  # a group's warm-up may need the engine's first


_STDERR: Final = object()


def ensure_compiled(group: str = "engine", notice: TextIO | object | None = _STDERR) -> float:
    """Compile (or load from the cache) the kernels of ``group`` (``"engine"``, ``"rollout"``,
    ``"vector"``, ``"heuristic"``, and the others of ``_WARM_UPS``), once per process; the
    seconds it took.

    If it takes longer than :data:`NOTICE_AFTER`, a line is written to ``notice`` (standard
    error by default, as it is when called: a terminal interface captures it; ``None`` for
    silence) saying why the wait.
    """
    with _lock:
        if group in _compile_seconds:
            return _compile_seconds[group]
        timer = None
        if notice is not None:
            stream = cast(TextIO, sys.stderr if notice is _STDERR else notice)

            def warn() -> None:
                print(
                    f"sequence: compiling the fast engine's {group} kernels "
                    "(first run on this machine only; cached after)...",
                    file=stream,
                    flush=True,
                )

            timer = threading.Timer(NOTICE_AFTER, warn)
            timer.daemon = True
            timer.start()
        start = time.perf_counter()
        try:
            _WARM_UPS[group]()
        finally:
            if timer is not None:
                timer.cancel()
        _compile_seconds[group] = time.perf_counter() - start
        return _compile_seconds[group]


def _warm_up() -> None:
    """Call every entry point once with the types the package uses."""
    row = np.empty(k.ROW, dtype=np.int32)
    rng = np.array([k.seed_state(1)], dtype=np.uint64)
    deck = np.empty(DECK_SIZE, dtype=np.int32)
    k.deal_random(row, rng, 0, 2, 2, deck)
    k.deal(row, 2, 2, 0, deck)
    mask = np.zeros(405, dtype=np.int8)
    k.legal_mask(row, mask)
    k.apply(row, rng, 0, k.random_action(row, rng, 0))
    k.playout(row, rng, 0, 1 << 30)
    stats = np.zeros((1, 2), dtype=np.int64)
    k.play_games(2, 2, 1, 1, 10, stats)
    # two players: the head, three masks, then counts of 2 sides, 2 hands, the pile, 2 discards, the log
    empty = [2, 2, 2, 0, 0, 0, 0, 0, -1, 0, -1] + [0] * (3 * k.MASK_BYTES) + [0] * 8
    k.load_position(row, np.array(empty, dtype=np.int32))


def _warm_up_rollout() -> None:
    from .rollout import many_playouts

    row = np.empty(k.ROW, dtype=np.int32)
    rng = np.array([k.seed_state(1)], dtype=np.uint64)
    k.deal_random(row, rng, 0, 2, 2, np.empty(DECK_SIZE, dtype=np.int32))
    many_playouts(row, 1, 1, 10, np.zeros(4, dtype=np.int64))


def _warm_up_vector() -> None:
    from .vector import (
        OBSERVE_FLOAT,
        OBSERVE_PACKED,
        SCRATCH,
        encode_row,
        encode_row_packed,
        first_illegal,
        plane_values,
        random_masked,
        reset_games,
        step_games,
    )

    n, players = 2, 2
    rows = np.zeros((n, k.ROW), dtype=np.int32)
    rngs = np.ones(n, dtype=np.uint64)
    learners = np.ones(players, dtype=np.int8)
    fvals = plane_values(players, 2, 1000, np.float32)
    ivals = plane_values(players, 2, 1000, np.uint8).astype(np.int64)
    obs = np.zeros((n, 100, 24), dtype=np.float32)
    words = np.zeros((n, 100, 3), dtype=np.int64)
    masks = np.zeros((n, 405), dtype=np.int8)
    seats = np.zeros(n, dtype=np.int64)
    scratch = np.zeros((1, SCRATCH), dtype=np.int64)
    reset_games(
        rows, rngs, players, 2, learners, 1000, OBSERVE_FLOAT, fvals, obs, ivals, words, masks, seats, scratch
    )
    actions = np.zeros(n, dtype=np.int64)
    random_masked(masks, rngs, actions)
    first_illegal(masks, actions)
    rewards = np.zeros((n, players), dtype=np.float32)
    flags = np.zeros(n, dtype=np.bool_), np.zeros(n, dtype=np.bool_)
    for mode in (OBSERVE_FLOAT, OBSERVE_PACKED):
        random_masked(masks, rngs, actions)  # legal actions: the step trusts them
        step_games(
            rows,
            rngs,
            actions,
            learners,
            1000,
            mode,
            fvals,
            obs,
            ivals,
            words,
            masks,
            seats,
            rewards,
            *flags,
            scratch,
        )
    encode_row(rows[0], fvals, 1000, obs[0], masks[0])
    encode_row_packed(rows[0], ivals, 1000, words[0], masks[0], scratch[0])


def _warm_up_pimc() -> None:
    from .pimc import _candidate_values

    row = np.empty((1, k.ROW), dtype=np.int32)
    rng = np.array([k.seed_state(1)], dtype=np.uint64)
    k.deal_random(row[0], rng, 0, 2, 2, np.empty(DECK_SIZE, dtype=np.int32))
    plays = np.array([k.random_action(row[0], rng, 0)], dtype=np.int64)
    _candidate_values(row, rng, plays, 0, 0, 0, 10, 0.0, np.zeros((1, 1), dtype=np.float64))


def _warm_up_heuristic() -> None:
    from . import heuristic as h

    row = np.empty(k.ROW, dtype=np.int32)
    rng = np.array([k.seed_state(1)], dtype=np.uint64)
    k.deal_random(row, rng, 0, 2, 2, np.empty(DECK_SIZE, dtype=np.int32))
    iw, fw = h.new_work()
    h.score_full(row, iw, fw)
    h.score_lite(row, iw, fw)
    h.choose(row, rng, 0)
    h.choose_lite(row, rng, 0)
    h.choose_with(row, rng, 0, iw, fw)
    h.score_inferring(row, iw, fw)
    h.choose_inferring(row, rng, 0)
    h.inferring_playout(row.copy(), rng, 0, 10)
    h.heuristic_playout(row.copy(), rng, 0, 10)
    h.playout_with(row.copy(), rng, 0, 10, iw, fw)
    h.score_policy(row, iw, fw, h.INFERRING)
    h.choose_policy_with(row, rng, 0, iw, fw, h.INFERRING)
    h.lite_playout(row, rng, 0, 10)
    h.score_greedy(row, iw, fw)
    h.choose_greedy(row, rng, 0)


_WARM_UPS: Final = {
    "engine": _warm_up,
    "rollout": _warm_up_rollout,
    "vector": _warm_up_vector,
    "pimc": _warm_up_pimc,
    "heuristic": _warm_up_heuristic,
}
