"""uvicorn's websocket protocol, freed as soon as its connection is lost.

uvicorn serves websockets with the ``websockets`` library's sans-I/O ``ServerProtocol``, which
parses frames in a generator that refers back to the protocol: a reference cycle, so a closed
connection, with its permessage-deflate state (about 50 KB), waits for a full run of the cyclic
garbage collector, which CPython makes rarely on a large heap and which walks every live object
(about 100 ms with 50 busy rooms). Dropping the generator once the connection is lost breaks the
cycle and reference counting frees it at once; nothing parses a lost connection's bytes again.

``sequence serve`` passes :data:`PROTOCOL` as uvicorn's ``ws``; it is ``"auto"`` (uvicorn's own
choice) when this uvicorn has no such class, and :mod:`.memory`'s collection after a sweep still
frees what is left then.
"""

from __future__ import annotations

from typing import Any

try:
    from uvicorn.protocols.websockets import websockets_sansio_impl as _impl
except ImportError:  # pragma: no cover - another uvicorn, or no websockets library
    _impl = None  # type: ignore[assignment]


if _impl is not None:

    class FreedOnClose(_impl.WebSocketsSansIOProtocol):
        """uvicorn's protocol, minus the cycle that kept it after its connection was lost."""

        def connection_lost(self, exc: Exception | None) -> None:
            super().connection_lost(exc)
            conn: Any = getattr(self, "conn", None)
            if conn is not None and hasattr(conn, "parser"):
                conn.parser = None  # the generator held the protocol: now refcounts free both

    PROTOCOL = f"{__name__}:FreedOnClose"
else:  # pragma: no cover
    PROTOCOL = "auto"
