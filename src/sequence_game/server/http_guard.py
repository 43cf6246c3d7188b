"""HTTP hardening as plain ASGI middleware: request bodies bounded, security headers on every reply.

A body is refused by its ``Content-Length`` before a byte of it is read, and a body without one
(chunked) is counted as it arrives and refused the moment it passes the limit, so an upload can
never make the server hold more than the limit in memory.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: The page loads only its own script, style and API; nobody may frame it (clickjacking). Style
#: attributes are allowed (the page sets a few), ``<style>`` elements and every script are not.
SECURITY_HEADERS: list[tuple[bytes, bytes]] = [
    (
        b"content-security-policy",
        (
            b"default-src 'self'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; "
            b"img-src 'self' data:; connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; "
            b"object-src 'none'"
        ),
    ),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


class _TooLarge(Exception):
    pass


class BodyLimit:
    """Refuse request bodies over ``limit_for(path)`` bytes with 413, reading no more than that."""

    def __init__(self, app: ASGIApp, limit_for: Callable[[str], int]) -> None:
        self.app = app
        self.limit_for = limit_for

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit_for(scope["path"])
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            await _refuse(send, limit)
            return
        received = 0
        started = over = False

        async def bounded_receive() -> Message:
            nonlocal received, over
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    over = True
                    raise _TooLarge
            return message

        async def watch_send(message: Message) -> None:
            nonlocal started
            if over:  # the app caught the cut (FastAPI answers 400 "error parsing the body"): 413
                if not started:
                    started = True
                    await _refuse(send, limit)
                return
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, bounded_receive, watch_send)
        except _TooLarge:
            if not started:
                await _refuse(send, limit)


async def _refuse(send: Send, limit: int) -> None:
    body = json.dumps(
        {"type": "error", "code": "too_large", "message": f"a request body is at most {limit} bytes here"}
    ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class SecurityHeaders:
    """Add :data:`SECURITY_HEADERS` to every HTTP response that does not set them itself."""

    def __init__(self, app: ASGIApp, no_csp: frozenset[str] = frozenset()) -> None:
        self.app = app
        self.no_csp = no_csp
        """Paths served without the policy (the API docs page, only with ``--api-docs``, loads
        its script from a CDN)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        skip = {b"content-security-policy"} if scope["path"] in self.no_csp else set()

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers: list[Any] = list(message.get("headers", []))
                present = {k.lower() for k, _ in headers} | skip
                headers += [(k, v) for k, v in SECURITY_HEADERS if k not in present]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)
