"""Handing memory back to the system once rooms have left it, so a busy hour does not stay.

Two things kept a server's memory high after its games were over (issue 16, measured with the
load test and ``gdb``'s ``malloc_stats`` on the running server):

* A closed websocket was not freed by reference counting: its protocol object sat in a cycle
  with its own parser generator, holding the connection's permessage-deflate state (zlib, about
  50 KB with uvicorn's 12 window bits and ``memLevel`` 5); 200 closed sockets still held 10 MB.
  :mod:`.ws_protocol` now breaks that cycle when the connection is lost. Any other cycle waits
  for the collector, which CPython runs in full only once the objects that survived grow by a
  quarter, rarely on a large heap: after a sweep that evicted rooms, a full collection runs, at
  most every ``Limits.collect_seconds`` (it walks every live object: about 100 ms with 50 busy
  rooms and 250 sockets, well under 1 ms once they are gone).
* The C allocator keeps freed memory as its own high-water mark: glibc's ``malloc_trim`` gives
  the free pages back after every such sweep (a no-op on other C libraries).

A started server has about 100,000 objects of its own (modules, the app, the engine's tables):
:meth:`MemoryKeeper.settle` freezes them once the server is up (``gc.freeze``: they are never
garbage), so neither these collections nor CPython's own walk them again.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import sys
import time
from typing import Any


class MemoryKeeper:
    """Frees what evicted rooms left behind, and counts what that costs."""

    def __init__(self, collect_seconds: float = 60.0) -> None:
        self.collect_seconds = collect_seconds
        self.collections = 0
        self.last_ms = 0.0
        self.max_ms = 0.0
        self.trims = 0
        self.trim_max_ms = 0.0
        """The longest ``malloc_trim`` alone (the sweeps without a collection): issue 42 measured
        336-459 ms pauses when trims followed a collection of many closed sockets' state."""
        self.frozen = 0
        """Objects moved out of the collector's reach by :meth:`settle`."""
        self.pending = False
        """Rooms left since the last collection: one is due once ``collect_seconds`` have passed."""
        self._collected_at = -float("inf")

    def settle(self) -> None:
        """Once the server has started: collect what starting left, then freeze the rest."""
        gc.collect()
        gc.freeze()
        self.frozen = gc.get_freeze_count()

    def release(self, now: float | None = None) -> None:
        """Rooms left memory: give the freed pages back now, and collect when one is due."""
        self.pending = True
        if not self.tick(now):
            started = time.perf_counter()
            trim()
            self.trims += 1
            self.trim_max_ms = max(self.trim_max_ms, 1000 * (time.perf_counter() - started))

    def tick(self, now: float | None = None) -> bool:
        """Every sweep: the full collection (then a trim) if one is pending and due; True if it ran."""
        now = time.monotonic() if now is None else now
        if not self.pending or now - self._collected_at < self.collect_seconds:
            return False
        started = time.perf_counter()
        gc.collect()
        trim()
        spent = 1000 * (time.perf_counter() - started)
        self.pending = False
        self._collected_at = now
        self.collections += 1
        self.last_ms = spent
        self.max_ms = max(self.max_ms, spent)
        return True

    def stats(self) -> dict[str, Any]:
        """For ``/health``: how often memory was collected and how long the pauses were."""
        return {
            "collections": self.collections,
            "last_ms": round(self.last_ms, 2),
            "max_ms": round(self.max_ms, 2),
            "pending": self.pending,
            "frozen": self.frozen,
            "trims": self.trims,
            "trim_max_ms": round(self.trim_max_ms, 2),
        }


def trim() -> None:
    """Give the C allocator's free pages back to the system (glibc's ``malloc_trim``)."""
    if _LIBC is not None:
        _LIBC.malloc_trim(0)


def _load_libc() -> Any:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    except OSError:
        return None
    return libc if hasattr(libc, "malloc_trim") else None  # musl has none


_LIBC = _load_libc()
