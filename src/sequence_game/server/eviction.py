"""Which rooms leave memory, and which are deleted, so a busy server's memory stays flat.

Rooms live in the store; memory holds only those in use. A room nobody is connected to leaves
memory once it is finished (after ``finished_seconds``) or once nothing has happened in it for
``idle_seconds``; it is loaded again, exactly as it was, by the next request for it. A room never
started that nobody is connected to is deleted ``lobby_seconds`` after it was created. A game
nobody is at (every person's seat has a stand-in, nobody connected) is paused: it leaves memory
as a finished one does, and whoever comes back finds it as it was.
"""

from __future__ import annotations

from .limits import Limits
from .room_state import Room


def evictable(room: Room, limits: Limits, now: float) -> bool:
    """``now`` is ``time.monotonic()``. A room with a socket, or a game still moving, stays."""
    if room.conns or room.evicted:
        return False
    quiet = now - room.active_at
    if room.status == "over" or unattended(room):
        return quiet >= limits.finished_seconds
    return quiet >= limits.idle_seconds


def expired(room: Room, limits: Limits, wall: float) -> bool:
    """``wall`` is ``time.time()``: a lobby nobody uses, older than ``lobby_seconds``."""
    return room.status == "lobby" and not room.conns and wall - room.created_at >= limits.lobby_seconds


def unattended(room: Room) -> bool:
    """A game in play that no person is at: no socket here, and every human seat is away (a bot
    stands in). Its bots do not play on for nobody ("Play a bot now" rooms nobody joins, games
    everyone left); with several workers the owner also asks who is connected elsewhere."""
    return (
        room.status == "playing"
        and not room.conns
        and all(s.stand_in for s in room.seats if s.kind == "human")
    )
