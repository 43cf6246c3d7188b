"""Limits per client address that every worker shares: rooms created and room codes guessed.

Why in the store: each worker kept its own buckets in memory, so with three workers one address
created 39 rooms where 20 were meant (issue 42). Here a bucket is a row of ``rate_limits``, taken
with one upsert (:meth:`.token_buckets.TokenBuckets.take_token`), so every worker, and a restart, sees the same
count. Only what is rare pays it: creating a room, and looking up a code that does not exist.

Guessing codes: a look-up of a room that does not exist costs a token of the address's
``guesses`` bucket. Once it is empty, every look-up by code from that address is refused with
``rate_limited``, found or not, so a refusal tells nothing about a code. The worker that saw the
refusal keeps the address blocked in memory until the bucket holds a token again (no statement
per blocked request); another worker learns it at the address's next miss there, so an address
gets at most one more look-up per worker than the limit allows in that time.

>>> client_key("2001:db8::1") == client_key("2001:db8::ffff")  # one /64: one household
True
>>> client_key("203.0.113.9")
'203.0.113.9'
"""

from __future__ import annotations

import asyncio
import ipaddress
import time

from ..i18n import N_
from .limits import Limits
from .protocol import ProtocolError
from .store import Store
from .token_buckets import TokenBuckets

ROOMS = "rooms"
"""The bucket of rooms created."""
GUESSES = "guesses"
"""The bucket of look-ups of room codes that do not exist."""
PRUNE_SECONDS = 60.0
"""How often a worker deletes the buckets that have refilled (any worker's)."""


def client_key(host: str) -> str:
    """The bucket's key for a client address: an IPv6 address by its /64 (one household or
    server gets a whole /64, so a key per address would be no limit at all), anything else as is."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host[:64]
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:  # ::ffff:1.2.3.4 is 1.2.3.4
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


class SharedLimits:
    """The shared buckets of one worker's clients, and the addresses it knows to be blocked."""

    def __init__(self, store: Store, limits: Limits) -> None:
        self.store = store
        self.buckets = TokenBuckets(store)
        self.limits = limits
        self._blocked: dict[str, float] = {}
        """Addresses out of guesses, until when (monotonic): refused here without a statement."""
        self._pruned = time.monotonic()

    async def _take(self, bucket: str, key: str, per_minute: float, burst: int) -> tuple[bool, float]:
        """A token of ``key``'s ``bucket``; PostgreSQL's round trip runs off the event loop."""
        rate = per_minute / 60
        if self.store.url.startswith("postgresql"):
            return await asyncio.to_thread(self.buckets.take_token, bucket, key, rate, burst)
        return self.buckets.take_token(bucket, key, rate, burst)

    async def create_room(self, client: str) -> None:
        """Refuse a room over ``rooms_burst`` at once and ``rooms_per_minute`` after, counted over
        every worker."""
        admitted, _ = await self._take(
            ROOMS, client_key(client), self.limits.rooms_per_minute, self.limits.rooms_burst
        )
        if not admitted:
            raise ProtocolError(
                "rate_limited",
                N_("at most {rooms} new rooms a minute; wait a little"),
                params={"rooms": f"{self.limits.rooms_per_minute:g}"},
            )

    def check_guesses(self, client: str) -> None:
        """Before a look-up by code: refuse an address this worker knows is out of guesses."""
        until = self._blocked.get(client_key(client))
        if until is not None:
            if time.monotonic() < until:
                raise too_many_guesses()
            self._blocked.pop(client_key(client), None)

    async def missed(self, client: str) -> None:
        """A look-up by code found no room: pay a guess; raise ``rate_limited`` if none was left
        (the caller answers ``unknown_room`` otherwise)."""
        key = client_key(client)
        per_minute, burst = self.limits.guesses_per_minute, self.limits.guesses_burst
        admitted, tokens = await self._take(GUESSES, key, per_minute, burst)
        if admitted:
            return
        wait = (1 - tokens) * 60 / per_minute if per_minute > 0 else 3600.0
        self._blocked[key] = time.monotonic() + max(0.0, wait)
        raise too_many_guesses()

    def close(self) -> None:
        """Close the buckets' own connection (PostgreSQL)."""
        self.buckets.close()

    async def prune(self) -> None:
        """Forget blocks that ended here and, at most every :data:`PRUNE_SECONDS`, the shared
        buckets that have refilled (called by the sweep)."""
        now = time.monotonic()
        for key, until in list(self._blocked.items()):
            if until <= now:
                del self._blocked[key]
        if now - self._pruned < PRUNE_SECONDS:
            return
        self._pruned = now
        wall = time.time()
        for bucket, per_minute, burst in (
            (ROOMS, self.limits.rooms_per_minute, self.limits.rooms_burst),
            (GUESSES, self.limits.guesses_per_minute, self.limits.guesses_burst),
        ):
            if per_minute > 0:  # full again after burst / rate seconds: a fresh row is the same
                await asyncio.to_thread(self.buckets.prune_tokens, bucket, wall - burst * 60 / per_minute - 1)


def too_many_guesses() -> ProtocolError:
    """The refusal of a look-up by code from an address out of guesses: the same whether the
    room exists or not."""
    return ProtocolError(
        "rate_limited", N_("too many room codes tried that do not exist; wait a minute and try again")
    )
