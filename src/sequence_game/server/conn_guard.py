"""Slow and idle clients: deadlines for a request's headers and body, and a cap on the
connections one address may hold open.

Why: uvicorn arms its keep-alive timer only after a response, so a connection that sends nothing,
or half its headers and then nothing, or a body at one byte every five seconds, was kept for ever;
1,100 of them from one address used up the process's file descriptors and took ``/health`` down
(issue 42). :class:`GuardedHttp` is uvicorn's HTTP protocol (the ``httptools`` one) with

- a **header deadline**: from the connection's start, or the end of the previous response, to the
  end of a request's headers (``header_seconds``); a silent connection is closed, one that sent
  part of a request gets ``408``;
- a **body deadline**: from the end of the headers to the end of the body (``body_seconds``, enough
  for the 2 MB record upload on a slow line);
- a **cap per address** (``per_address`` connections open at once, websockets included); a
  connection over it is closed at once. Addresses of trusted proxies are exempt (every client
  behind them shares their address); the proxy in front must then cap and time out its clients
  itself (``docs/server.md``, Deployment notes).

A websocket keeps its place in the count until it closes (:func:`release` from
:mod:`.ws_protocol`); its own deadlines are the hello's (``Limits.hello_seconds``) and the pings'.

>>> counter = AddressCount(2)
>>> counter.admit(1, "10.0.0.1"), counter.admit(2, "10.0.0.1"), counter.admit(3, "10.0.0.1")
(True, True, False)
>>> counter.release(1); counter.admit(4, "10.0.0.1")
True
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Sequence
from typing import Any

from .forwarded import is_trusted, parse_proxies

log = logging.getLogger(__name__)

#: Seconds from a connection's start (or its previous response) to the end of a request's headers.
HEADER_SECONDS = 10.0
#: Seconds from the end of a request's headers to the end of its body.
BODY_SECONDS = 60.0
#: Connections one address may hold open at once, per server process.
PER_ADDRESS = 256

_REQUEST_TIMEOUT = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"content-length: 16\r\nconnection: close\r\n\r\nrequest too slow"
)


class AddressCount:
    """Open connections by address, each known by a key (its transport's id)."""

    def __init__(self, per_address: int) -> None:
        self.per_address = per_address
        self._open: dict[str, int] = {}
        self._keys: dict[int, str] = {}

    def admit(self, key: int, address: str) -> bool:
        """Count connection ``key`` from ``address``; ``False`` (not counted) if over the cap."""
        if self._open.get(address, 0) >= self.per_address:
            return False
        self._open[address] = self._open.get(address, 0) + 1
        self._keys[key] = address
        return True

    def release(self, key: int) -> None:
        """Connection ``key`` is closed (nothing happens for one not counted, or released twice)."""
        address = self._keys.pop(key, None)
        if address is None:
            return
        left = self._open[address] - 1
        if left:
            self._open[address] = left
        else:
            del self._open[address]

    def open(self, address: str) -> int:
        return self._open.get(address, 0)


#: This process's count (one event loop a process: uvicorn's workers are processes).
COUNT = AddressCount(PER_ADDRESS)


def release(transport: object) -> None:
    """A connection's transport is closed: its address may open another."""
    COUNT.release(id(transport))


try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # pragma: no cover - uvicorn without httptools (not the server extra)
    HttpToolsProtocol = None  # type: ignore[assignment,misc]


if HttpToolsProtocol is not None:

    class GuardedHttp(HttpToolsProtocol):
        """uvicorn's httptools protocol with the deadlines and the cap of this module."""

        def __init__(
            self,
            *args: Any,
            header_seconds: float = HEADER_SECONDS,
            body_seconds: float = BODY_SECONDS,
            per_address: int = PER_ADDRESS,
            trusted: Sequence[str] = (),
            **kwargs: Any,
        ) -> None:
            super().__init__(*args, **kwargs)
            self.header_seconds = header_seconds
            self.body_seconds = body_seconds
            COUNT.per_address = per_address
            self.trusted = parse_proxies(trusted)
            self._deadline: asyncio.TimerHandle | None = None
            self._partial = False
            """Bytes of a request arrived whose headers are not complete (a 408 is owed at the deadline)."""
            self._refused = False

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            peer = transport.get_extra_info("peername")
            host = str(peer[0]) if isinstance(peer, tuple) and peer else ""
            if host and not is_trusted(host, self.trusted) and not COUNT.admit(id(transport), host):
                self._refused = True  # over the cap: closed before anything is read or parsed
                log.warning("%s holds %d connections: one more refused", host, COUNT.open(host))
                transport.abort()
                return
            super().connection_made(transport)
            self._arm(self.header_seconds)

        def connection_lost(self, exc: Exception | None) -> None:
            if self._refused:
                return
            self._disarm()
            release(self.transport)
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            if self._refused:
                return
            if self._deadline is None and self.cycle is not None and self.cycle.response_complete:
                self._arm(self.header_seconds)  # a keep-alive connection's next request begins
            super().data_received(data)

        def on_message_begin(self) -> None:
            self._partial = True
            super().on_message_begin()

        def on_headers_complete(self) -> None:
            self._partial = False
            self._arm(self.body_seconds)
            super().on_headers_complete()

        def on_message_complete(self) -> None:
            self._disarm()  # the app has the whole request: its own time is not the client's
            super().on_message_complete()

        def handle_websocket_upgrade(self) -> None:
            self._disarm()
            if not getattr(self.ws_protocol_class, "releases_count", False):
                release(self.transport)  # a protocol that would not give the place back
            super().handle_websocket_upgrade()  # the websocket protocol takes the transport

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and self.pipeline:
                self._arm(self.header_seconds)

        def _arm(self, seconds: float) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(seconds, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self) -> None:
            self._deadline = None
            if self.transport.is_closing():
                return
            if self.cycle is not None and not self.cycle.response_complete and not self._partial:
                # headers done, body incomplete: the app waits on it; tell it the client is gone
                self.cycle.disconnected = True
                self.cycle.message_event.set()
            if self._partial or (self.cycle is not None and not self.cycle.response_complete):
                self.transport.write(_REQUEST_TIMEOUT)
            self.transport.close()


def http_protocol(
    header_seconds: float = HEADER_SECONDS,
    body_seconds: float = BODY_SECONDS,
    per_address: int = PER_ADDRESS,
    trusted: Sequence[str] = (),
) -> Any:
    """uvicorn's ``http`` setting: :class:`GuardedHttp` with these settings (picklable, for the
    worker processes of ``--workers N``), or ``"auto"`` where uvicorn has no httptools."""
    if HttpToolsProtocol is None:  # pragma: no cover
        log.warning("httptools is missing: slow clients are not timed out (pip install 'uvicorn[standard]')")
        return "auto"
    return functools.partial(
        GuardedHttp,
        header_seconds=header_seconds,
        body_seconds=body_seconds,
        per_address=per_address,
        trusted=tuple(trusted),
    )
