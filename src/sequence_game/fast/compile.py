"""Compiling the kernels once per machine, with a notice when that takes a while.

Numba compiles a kernel on its first call and caches the machine code on disk (``cache=True``),
so only the first process on a machine pays the compile (tens of seconds); later ones load it.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from typing import Final, TextIO, cast

import numpy as np

from ..cards import DECK_SIZE
from . import kernels as k

NOTICE_AFTER: Final = 3.0
"""Seconds of compiling after which a notice is shown (a cached start takes well under one)."""

_compile_seconds: dict[str, float] = {}
_WARM_UPS: dict[str, Callable[[], None]] = {}
_lock = threading.RLock()  # a group's warm-up may need the engine's first


_STDERR: Final = object()


def register_warm_up(group: str, warm_up: Callable[[], None]) -> None:
    """Name the call that compiles ``group``'s kernels. Each module of the compiled engine
    registers its own when imported, so this module imports none of them (no import circle)."""
    _WARM_UPS[group] = warm_up


def is_compiled(group: str) -> bool:
    """Whether ``group``'s kernels are ready in this process (no wait before their first use)."""
    return group in _compile_seconds


def ensure_compiled(group: str = "engine", notice: TextIO | object | None = _STDERR) -> float:
    """Compile (or load from the cache) the kernels of ``group`` (``"engine"``, or a module that
    registered its warm-up: ``"rollout"``, ``"vector"``, ``"heuristic"``, ``"pimc"``), once per
    process; the seconds it took.

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
            warm_up = _WARM_UPS.get(group)
            if warm_up is None:
                raise KeyError(f"no kernels registered as {group!r}: import sequence_game.fast.{group} first")
            warm_up()
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


register_warm_up("engine", _warm_up)
