"""Which rooms leave memory, and which are deleted, so a busy server's memory stays flat.

Rooms live in the store; memory holds only those in use. A room nobody is connected to leaves
memory once it is finished (after ``finished_seconds``) or once nothing has happened in it for
``idle_seconds``; it is loaded again, exactly as it was, by the next request for it. A room never
started that nobody is connected to is deleted ``lobby_seconds`` after it was created.
"""

from __future__ import annotations

from .limits import Limits
from .room_state import Room


def evictable(room: Room, limits: Limits, now: float) -> bool:
    """``now`` is ``time.monotonic()``. A room with a socket, or a game still moving, stays."""
    if room.conns or room.evicted:
        return False
    quiet = now - room.active_at
    if room.status == "over":
        return quiet >= limits.finished_seconds
    return quiet >= limits.idle_seconds


def expired(room: Room, limits: Limits, wall: float) -> bool:
    """``wall`` is ``time.time()``: a lobby nobody uses, older than ``lobby_seconds``."""
    return room.status == "lobby" and not room.conns and wall - room.created_at >= limits.lobby_seconds
