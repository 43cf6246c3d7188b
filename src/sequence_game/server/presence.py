"""Who is at the table: sockets coming and going, and the grace period of a player who left.

Why a module of its own: a socket proves its seat by the seat's token, and a seat counts its
sockets (:func:`.seats.attach`, :func:`.seats.detach`), so when the last one goes the grace period
starts; a player still away when it ends is replaced by a bot (an ``away`` event) until they come
back (``back``). With several workers, a player connected to any of them is present
(:mod:`.cluster`), and only the room's owner runs the grace period.
"""

from __future__ import annotations

import asyncio
import hmac
import time

from ..i18n import N_
from . import room_clocks
from .broadcast import Broadcaster
from .cluster import Cluster, room_key, runs_here
from .commands import Table
from .protocol import Hello, ProtocolError
from .room_state import Room
from .seats import Connection, Seat, attach, detach, hash_token


class Presence:
    """Lets sockets into a room and out of it, and runs the grace periods of absent players."""

    def __init__(self, table: Table, broadcaster: Broadcaster, cluster: Cluster | None) -> None:
        self.table = table
        self.broadcaster = broadcaster
        self.cluster = cluster

    async def enter(self, room: Room, conn: Connection, hello: Hello) -> None:
        """Authenticate a socket by its seat token (or none: a spectator) and send a full snapshot.
        A player back from a stand-in takes the seat again. Holds ``room.lock``."""
        seat = None
        if hello.token is not None:
            digest = hash_token(hello.token)
            for s in room.seats:
                if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
                    seat = s
            if seat is None:
                raise ProtocolError("bad_token", N_("this token holds no seat in this room"))
        arrived = False
        if seat is not None:
            if seat.grace_task is not None:
                seat.grace_task.cancel()
                seat.grace_task = None
            seat.stand_in_at = None
            arrived = seat.connections == 0
            # attached first: the ``back`` event's broadcast shows the seat connected, not away
            attach(conn, seat)
            try:
                if (
                    seat.stand_in
                    and room.status == "playing"
                    and not room_clocks.is_flagged(room, seat.index)
                ):
                    await self.table.commit(room, "back", seat.index, {"seat": seat.index}, game_change=True)
                    arrived = False  # the event's broadcast already says so
            except BaseException:
                detach(conn, seat)
                raise
        conn.authed = True
        if arrived:  # the others see a player who sat down or came back at once, lobby included
            self.broadcaster.presence(room)
        room.conns.add(conn)
        room.active_at = time.monotonic()
        self.broadcaster.welcome(room, conn)

    async def leave(self, room: Room, conn: Connection) -> None:
        """A socket closed: the grace period starts when it was its seat's last."""
        async with room.lock:
            if conn not in room.conns:
                return
            room.conns.discard(conn)
            room.active_at = time.monotonic()
            if conn.seat is None:
                return
            seat = room.seats[conn.seat]
            if detach(conn, seat) and seat.kind == "human":
                if room.status == "playing" and not seat.stand_in:
                    self.start_grace(room, seat)
                self.broadcaster.presence(room)  # gone at once, with the stand-in's countdown

    def start_grace(self, room: Room, seat: Seat) -> None:
        """Table rule: a player away longer than the grace period is replaced by a bot."""
        if not runs_here(self.cluster, room.code):
            return
        if seat.grace_task is not None:
            seat.grace_task.cancel()
        delay = float(room.config["grace_seconds"])
        seat.stand_in_at = time.time() + delay
        seat.grace_task = asyncio.create_task(self._grace(room, seat, delay))

    def follow(self, room: Room, elsewhere: set[tuple[int, int]]) -> None:
        """Start or stop the grace periods of an owned room by who is connected on any worker
        (``elsewhere``: (room key, seat) with a socket on another worker). Holds ``room.lock``."""
        key = room_key(room.code)
        for seat in room.seats:
            away = seat.connections == 0 and (key, seat.index) not in elsewhere
            if seat.kind != "human" or seat.stand_in:
                continue
            if away and seat.grace_task is None:
                self.start_grace(room, seat)
            elif not away and seat.grace_task is not None:
                seat.grace_task.cancel()
                seat.grace_task = None
                seat.stand_in_at = None

    async def _grace(self, room: Room, seat: Seat, delay: float) -> None:
        await asyncio.sleep(delay)
        async with room.lock:
            seat.grace_task = None
            seat.stand_in_at = None
            if (
                seat.connections == 0
                and seat.kind == "human"
                and not seat.stand_in
                and room.status == "playing"
                and runs_here(self.cluster, room.code)
                and (self.cluster is None or seat.index not in self.cluster.present_elsewhere(room.code))
            ):
                await self.table.commit(room, "away", seat.index, {"seat": seat.index}, game_change=True)
