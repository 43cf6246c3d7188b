"""Abuse limits: how much one socket, one room and one client may ask of the server.

Every figure lives in :class:`Limits`, so ``sequence serve`` options, the tests and the load test
can set them; the defaults are sized for people playing, not for scripts.

>>> bucket = TokenBucket(rate=1.0, burst=2, now=0.0)
>>> [bucket.take(now=0.0), bucket.take(now=0.0), bucket.take(now=0.0), bucket.take(now=1.0)]
[True, True, False, True]
>>> bucket.spend(now=1.0)  # paid for an event admitted elsewhere: the next one waits longer
>>> [bucket.ready(now=2.0), bucket.ready(now=3.0)]
[False, True]
"""

from __future__ import annotations

import time
from dataclasses import dataclass


class TokenBucket:
    """``burst`` events at once, then ``rate`` per second: the usual rate limiter, in a few lines."""

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: float, now: float | None = None) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.stamp = time.monotonic() if now is None else now

    def take(self, now: float | None = None) -> bool:
        """Spend one token if there is one."""
        now = time.monotonic() if now is None else now
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def ready(self, now: float | None = None) -> bool:
        """Whether a token is there, without spending it (see :meth:`spend`)."""
        now = time.monotonic() if now is None else now
        return self.tokens + (now - self.stamp) * self.rate >= 1.0

    def spend(self, now: float | None = None) -> None:
        """Spend a token even when none is left (down to ``-burst``): an event admitted
        elsewhere (another worker) is paid for by waiting longer here."""
        now = time.monotonic() if now is None else now
        self.tokens = max(-self.burst, min(self.burst, self.tokens + (now - self.stamp) * self.rate) - 1.0)
        self.stamp = now

    def full(self, now: float | None = None) -> bool:
        """Refilled to the brim: forgetting this bucket would change nothing."""
        now = time.monotonic() if now is None else now
        return self.tokens + (now - self.stamp) * self.rate >= self.burst


@dataclass(frozen=True)
class Limits:
    """The server's limits; every one is a number a test or benchmark measures."""

    chat_rate: float = 0.5
    """Chat lines per second one socket may send after its burst."""
    chat_burst: int = 5
    room_chat_rate: float = 2.0
    """Chat lines per second a whole room may send after its burst."""
    room_chat_burst: int = 20
    room_chat_lines: int = 2000
    """Chat lines stored per room at most (a long 12-player game needs a few hundred)."""
    rooms_per_minute: float = 20.0
    """Rooms one client address may create per minute after its burst."""
    rooms_burst: int = 10
    guesses_per_minute: float = 20.0
    """Room codes that do not exist one client address may look up per minute after its burst
    (HTTP and websockets; past it every look-up by code is refused, found or not)."""
    guesses_burst: int = 20
    logins_per_minute: float = 10.0
    """Login attempts one client address may make per minute after its burst (shared by workers)."""
    logins_burst: int = 10
    name_logins_per_minute: float = 3.0
    """Login attempts per minute at one account name after its burst, from any address, whether
    the name is registered or not (so the limit tells nothing about the name)."""
    name_logins_burst: int = 6
    registrations_per_minute: float = 2.0
    """Accounts one client address may register per minute after its burst."""
    registrations_burst: int = 5
    session_days: float = 30.0
    """A login lasts this long (then the player logs in again); logging out ends it at once."""
    max_body: int = 16 * 1024
    """Request bodies above this are refused (413) unread; the record upload has its own limit."""
    hello_seconds: float = 10.0
    """A socket must say hello this long after it opens, whatever else it sends."""
    finished_seconds: float = 30.0
    """A finished room with nobody connected leaves memory after this long (it stays in the store)."""
    idle_seconds: float = 600.0
    """Any room where nothing happened and nobody is connected leaves memory after this long."""
    lobby_seconds: float = 3600.0
    """A room never started, with nobody connected, is deleted this long after it was created."""
    sweep_seconds: float = 5.0
    """How often rooms are checked for eviction and expiry."""
    collect_seconds: float = 60.0
    """A full garbage collection after rooms left memory at most this often (it walks every live
    object: a pause of about 1 ms per 1,000 of them; ``server/memory.py``)."""
    room_bot_seconds: float = 900.0
    """Bot thinking one room may use in all; past it its bots play at once (a random legal move)."""
    bot_workers: int = 1
    """Processes that run bot thinking (off the event loop; one job per room at a time)."""
    nonce_seconds: float = 2.0
    """How long a start waits for the connected people's nonces (fair deals); then it deals anyway."""
    analysis_workers: int = 1
    """Post-game analyses run at once, each in its own process; more wait their turn."""
    analysis_seconds: float = 1.0
    """Analysis budget: seconds per move (``analysis.Budget.seconds``)."""
    analysis_total: float = 90.0
    """Analysis budget: seconds for a whole game (``analysis.Budget.total``)."""
    analysis_samples: int = 64
    """Analysis budget: sampled worlds per move at most (``analysis.Budget.samples``)."""
