"""How a kernel is compiled: Numba's ``njit`` with the options each kind of kernel needs.

Every kernel of the ``fast`` package is decorated with one of these, so that the options (the
disk cache, no GIL, numpy's error model, Numba's runtime off where nothing is allocated) are
set in one place. Importing this module first keys Numba's disk cache to the modules a kernel
imports (:mod:`.cache`): the cache's locators are chosen when a kernel is decorated.
"""

from __future__ import annotations

from typing import Any, Final, TypeVar

import numpy as np

from .cache import register_package_cache

try:
    import numba
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "the fast engine needs Numba: pip install 'sequence-game[fast]' (the pure engine needs nothing)"
    ) from exc

_F = TypeVar("_F")

register_package_cache()

# Numba's runtime (``_nrt``) keeps reference counts of the arrays passed between kernels: off for
# every kernel that allocates nothing, which made playouts about a third faster (docs/fast.md).
_NO_RUNTIME: Final[dict[str, Any]] = {"cache": True, "nogil": True, "error_model": "numpy", "_nrt": False}


def kernel(fn: _F) -> _F:
    """Compile with Numba, cached on disk (``__pycache__``) so that later processes start fast."""
    compiled: Any = numba.njit(**_NO_RUNTIME)(fn)
    return compiled  # type: ignore[no-any-return]


def allocating_kernel(fn: _F) -> _F:
    """As :func:`kernel`, for the few entry points that allocate arrays (Numba's runtime on)."""
    compiled: Any = numba.njit(cache=True, nogil=True, error_model="numpy")(fn)
    return compiled  # type: ignore[no-any-return]


def inline_kernel(fn: _F) -> _F:
    """As :func:`kernel`, inlined into its callers by Numba: a small helper of the hot loop, where a
    call would cost more than its body (arrays passed by struct, reference counts kept)."""
    compiled: Any = numba.njit(**_NO_RUNTIME, inline="always")(fn)
    return compiled  # type: ignore[no-any-return]


def parallel_kernel(fn: _F) -> _F:
    """As :func:`kernel`, with ``prange`` loops spread over threads (the batched environment)."""
    compiled: Any = numba.njit(cache=True, nogil=True, parallel=True, error_model="numpy")(fn)
    return compiled  # type: ignore[no-any-return]


prange = numba.prange

# ------------------------------------------------------------------ the one helper of every kernel


@inline_kernel
def index(value: int) -> int:
    """``value`` (a card, cell, seat or small count: 0-255) as an unsigned byte, so that the
    compiler knows it is not negative and drops the negative-index fix-up (Python's ``a[-1]``)
    from every index computed from it: on the hot path of a turn that took a quarter of its
    time (``benchmarks/fast_vs_c.py``)."""
    return int(np.uint8(value))
