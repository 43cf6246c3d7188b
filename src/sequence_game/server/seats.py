"""Seats and connections: who sits where, and the sockets attached to each seat.

A seat counts the sockets attached to it (``connections``) so the grace period starts only when
the last one goes; every change of a socket's seat goes through :func:`attach` and :func:`detach`
so that count can never drift from the sockets really attached.
"""

from __future__ import annotations

import asyncio
import hashlib
from dataclasses import dataclass, field
from typing import Any

from ..bots import LEVELS, available_bots, level_bot
from ..i18n import N_
from .limits import TokenBucket
from .protocol import ProtocolError
from .store import SeatRow


def hash_token(token: str) -> str:
    """Tokens are stored only as SHA-256 digests: a leaked database seats nobody."""
    return hashlib.sha256(token.encode()).hexdigest()


def bot_seat(index: int, level: str) -> dict[str, Any]:
    """A ``seat`` event's data for a bot of ``level`` in seat ``index``: a level people are offered
    (``easy`` .. ``expert``, stored as the bot this installation plays at it) or a bot's own name.
    Refused (``bad_bot``) when it is neither."""
    bot = level_bot(level) if level in LEVELS else level if level in available_bots() else None
    if bot is None:
        raise ProtocolError(
            "bad_bot",
            N_("unknown bot {bot}; choose from {bots}"),
            params={"bot": level, "bots": ", ".join([*LEVELS, *available_bots()])},
        )
    return {"seat": index, "kind": "bot", "name": f"Bot {index} ({level})", "bot_level": bot}


@dataclass
class Seat:
    index: int
    kind: str = "empty"
    """``empty``, ``human`` or ``bot``."""
    name: str = ""
    token_hash: str | None = None
    bot_level: str | None = None
    stand_in: bool = False
    """A bot plays for the absent human until they come back."""
    connections: int = 0
    grace_task: asyncio.Task[None] | None = None
    stand_in_at: float | None = None
    """While the grace period runs: when (epoch seconds) a bot takes the absent player's seat."""
    muted: set[int] = field(default_factory=set)
    """Seats whose chat this seat's player does not want to see (kept while the room is loaded)."""

    def row(self) -> SeatRow:
        return SeatRow(self.index, self.kind, self.name, self.token_hash, self.bot_level)

    def public(self, sides: int) -> dict[str, Any]:
        return {
            "seat": self.index,
            "side": self.index % sides,
            "kind": self.kind,
            "name": self.name,
            "bot_level": self.bot_level,
            "connected": self.connections > 0,
            "stand_in": self.stand_in,
            "stand_in_at": None if self.stand_in_at is None else round(self.stand_in_at, 1),
        }


@dataclass(eq=False)
class Connection:
    """One websocket: its seat (``None`` for a spectator) and a queue its writer task drains."""

    seat: int | None = None
    queue: asyncio.Queue[dict[str, Any] | str | None] = field(default_factory=asyncio.Queue)
    """Messages to send: a dict, or its JSON text already encoded (shared by a seat's sockets)."""
    authed: bool = False
    chat_bucket: TokenBucket | None = None
    muted: set[int] = field(default_factory=set)
    """A spectator's mutes (a player's live on the seat, so they survive a reconnect)."""

    def send(self, message: dict[str, Any] | str) -> None:
        self.queue.put_nowait(message)


def attach(conn: Connection, seat: Seat) -> None:
    conn.seat = seat.index
    seat.connections += 1


def detach(conn: Connection, seat: Seat) -> bool:
    """Take the socket off its seat; True when it was the seat's last socket."""
    if conn.seat != seat.index:
        return False
    conn.seat = None
    seat.connections = max(0, seat.connections - 1)
    return seat.connections == 0
