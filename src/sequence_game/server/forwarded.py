"""The client's address: the socket's peer, or what a configured reverse proxy says it is.

Why: every per-address limit keys on it. uvicorn trusted ``X-Forwarded-For`` from 127.0.0.1 by
default, so anyone able to reach the server from the same host chose their own address, and behind
a proxy that did not set the header the whole site shared one bucket (issue 42). Here a forwarded
address is read only when the direct peer is one of ``sequence serve --trusted-proxy`` (none by
default), and ``sequence serve`` switches uvicorn's own reading off, so this is the one place.

``X-Forwarded-For`` is read from the right: each proxy appends the peer it saw, so the first hop
that is not a trusted proxy is the client (whatever a client wrote to the left of it is ignored).
Without it, ``X-Real-IP`` (nginx's ``$remote_addr``) is used. ``X-Forwarded-Proto`` sets the scheme,
as uvicorn's did for trusted proxies.

>>> trusted = parse_proxies(["10.0.0.1, 192.168.0.0/16"])
>>> forwarded_client("10.0.0.1", [b"1.2.3.4, 192.168.1.5"], None, trusted)
'1.2.3.4'
>>> forwarded_client("8.8.8.8", [b"1.2.3.4"], None, trusted) is None  # not a proxy: its own word
True
>>> forwarded_client("10.0.0.1", [], b"5.6.7.8", trusted)
'5.6.7.8'
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Sequence

from starlette.types import ASGIApp, Receive, Scope, Send

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_proxies(values: Iterable[str]) -> tuple[Network, ...]:
    """Addresses or networks (``10.0.0.1``, ``10.0.0.0/8``, ``::1``), each value possibly a comma
    list; ``ValueError`` naming a value that is neither."""
    found: list[Network] = []
    for value in values:
        for item in value.split(","):
            item = item.strip()
            if item:
                try:
                    found.append(ipaddress.ip_network(item, strict=False))
                except ValueError:
                    raise ValueError(item) from None
    return tuple(found)


def _host(hop: str) -> str:
    """An address from a hop of ``X-Forwarded-For``: ``[::1]:80`` and ``1.2.3.4:80`` lose the port."""
    hop = hop.strip()
    if hop.startswith("["):
        return hop[1 : hop.find("]")] if "]" in hop else hop
    if hop.count(":") == 1:
        return hop.partition(":")[0]
    return hop


def is_trusted(host: str, trusted: Sequence[Network]) -> bool:
    """Whether ``host`` is an address inside one of ``trusted``."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return any(address in network for network in trusted)


def forwarded_client(
    peer: str, forwarded_for: list[bytes], real_ip: bytes | None, trusted: Sequence[Network]
) -> str | None:
    """The client's address as the proxies in front say, or ``None`` to keep the peer's."""
    if not trusted or not is_trusted(peer, trusted):
        return None
    hops = [h for h in b",".join(forwarded_for).decode("latin-1").split(",") if h.strip()]
    if hops:
        for hop in reversed(hops):
            host = _host(hop)
            if not is_trusted(host, trusted):
                return host[:64]
        return _host(hops[0])[:64]  # every hop a proxy of ours: the first is the client
    if real_ip is not None and real_ip.strip():
        return _host(real_ip.decode("latin-1"))[:64]
    return None


class ClientAddress:
    """ASGI middleware: ``scope["client"]`` becomes the address :func:`forwarded_client` finds."""

    def __init__(self, app: ASGIApp, trusted: Sequence[str] = ()) -> None:
        self.app = app
        self.trusted = parse_proxies(trusted)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        peer = scope.get("client")
        if (
            self.trusted
            and scope["type"] in ("http", "websocket")
            and peer
            and is_trusted(peer[0], self.trusted)
        ):
            forwarded_for: list[bytes] = []
            real_ip = proto = None
            for name, value in scope["headers"]:
                if name == b"x-forwarded-for":
                    forwarded_for.append(value)
                elif name == b"x-real-ip":
                    real_ip = value
                elif name == b"x-forwarded-proto":
                    proto = value.decode("latin-1").strip().lower()
            changed = dict(scope)
            client = forwarded_client(peer[0], forwarded_for, real_ip, self.trusted)
            if client is not None:
                changed["client"] = (client, 0)
            if proto in ("http", "https"):
                secure = proto == "https"
                changed["scheme"] = ("wss" if secure else "ws") if scope["type"] == "websocket" else proto
            scope = changed
        await self.app(scope, receive, send)
