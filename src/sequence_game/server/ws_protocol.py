"""uvicorn's websocket protocol, freed as soon as its connection is lost.

uvicorn serves websockets with the ``websockets`` library's sans-I/O ``ServerProtocol``, which
parses frames in a generator that refers back to the protocol: a reference cycle, so a closed
connection, with its permessage-deflate state (about 50 KB), waits for a full run of the cyclic
garbage collector, which CPython makes rarely on a large heap and which walks every live object
(about 100 ms with 50 busy rooms). Dropping the generator once the connection is lost breaks the
cycle and reference counting frees it at once; nothing parses a lost connection's bytes again.

It also compresses with an 8 KB window (``server_max_window_bits`` 13) where uvicorn uses 4 KB
(12): a state message is about 2.3 KB, so a 4 KB window holds little more than the message before
it, while 8 KB holds the last three, whose long matches make each message both smaller (about 95
bytes instead of 150 on the wire) and cheaper to deflate (about a fifth less zlib CPU a message,
``benchmarks/ws_compression.py --window-bits``), for 16 KB more zlib state a socket (48 KB, against
32 KB; browsers accept any window from 8 to 15 bits, RFC 7692 7.1.2.2).

``sequence serve`` passes :data:`PROTOCOL` as uvicorn's ``ws``; it is ``"auto"`` (uvicorn's own
choice) when this uvicorn has no such class, and :mod:`.memory`'s collection after a sweep still
frees what is left then.
"""

from __future__ import annotations

import logging
import re
from typing import Any

try:
    from uvicorn.protocols.websockets import websockets_sansio_impl as _impl
    from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
    from websockets.server import ServerProtocol

    from .conn_guard import release
except ImportError:  # pragma: no cover - another uvicorn, or no websockets library
    _impl = None  # type: ignore[assignment]

#: The server's deflate window, in bits (uvicorn's own is 12: see above).
SERVER_WINDOW_BITS = 13

#: A seat token in a logged frame (``hello``): a bearer secret, so never written to a log.
_TOKEN = re.compile(r"""(["']token["']\s*:\s*)(["'])[^"']*\2?""")  # cut short in a long frame too


class RedactSecrets(logging.Filter):
    """Blank the seat tokens in log records: at ``--log-level debug`` the websocket protocol logs
    every frame it reads, a hello's token included (issue 42), and whoever reads the log could
    then take the seat.

    >>> record = logging.LogRecord("x", logging.DEBUG, "", 0, "< TEXT %s", ('{"token": "abc"}',), None)
    >>> RedactSecrets().filter(record), record.getMessage()
    (True, '< TEXT {"token": "[redacted]"}')
    """

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        if "token" in text:
            record.msg, record.args = _TOKEN.sub(r"\1\2[redacted]\2", text), ()
        return True


def redact_logger(logger: Any) -> None:
    """Put :class:`RedactSecrets` on ``logger`` (or the logger a ``LoggerAdapter`` wraps), once."""
    target = getattr(logger, "logger", logger)
    if isinstance(target, logging.Logger) and not any(isinstance(f, RedactSecrets) for f in target.filters):
        target.addFilter(RedactSecrets())


if _impl is not None:

    class FreedOnClose(_impl.WebSocketsSansIOProtocol):
        """uvicorn's protocol, minus the cycle that kept it after its connection was lost, and
        with an 8 KB deflate window."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            redact_logger(self.conn.logger)  # frames are logged at debug, hellos hold tokens
            if self.config.ws_per_message_deflate:  # uvicorn's settings, but the window
                self.conn = ServerProtocol(
                    extensions=[
                        ServerPerMessageDeflateFactory(
                            server_max_window_bits=SERVER_WINDOW_BITS,
                            client_max_window_bits=12,
                            compress_settings={"memLevel": 5},
                        )
                    ],
                    max_size=self.config.ws_max_size,
                    logger=self.conn.logger,
                )

        releases_count = True
        """Gives back its address's place in :mod:`.conn_guard`'s count when it closes."""

        def connection_lost(self, exc: Exception | None) -> None:
            release(self.transport)
            super().connection_lost(exc)
            conn: Any = getattr(self, "conn", None)
            if conn is not None and hasattr(conn, "parser"):
                conn.parser = None  # the generator held the protocol: now refcounts free both

    PROTOCOL = f"{__name__}:FreedOnClose"
else:  # pragma: no cover
    PROTOCOL = "auto"
