"""One BLAS thread for the processes that run an analysis.

Why: the evaluator multiplies small matrices (a few thousand rows by 48 to 64 columns a move);
OpenBLAS's threads cost more than they bring there, and on a busy machine (a server's rooms, a
terminal's interface, other analyses) they make an analysis several times slower (measured on
the 2-core development machine: 3.5 s of CPU for a game with one thread, 14.6 s with the default).
The thread count is read once, when NumPy is first imported, so it is set in the environment of
a child process before it starts (``sequence analyze`` sets its own before importing NumPy).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import Final

ONE_THREAD: Final = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


@contextlib.contextmanager
def one_thread_children() -> Iterator[None]:
    """Child processes started inside get one BLAS thread (the parent's own setting is restored)."""
    saved = {name: os.environ.get(name) for name in ONE_THREAD}
    for name in ONE_THREAD:
        os.environ.setdefault(name, "1")  # a setting already made is kept
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
