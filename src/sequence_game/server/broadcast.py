"""What each socket of a room is sent: the room's public form, and each recipient's own message.

Why a module of its own: a change reaches every socket of the room, each with the view its seat may
see (a seat its own hand, a spectator none), and with many sockets the building and encoding is
most of a move's cost; so a message is built and encoded once per seat (:class:`.fanout.SeatViews`
builds the public part once), and a chat line goes only to those who have not muted its seat.
"""

from __future__ import annotations

from typing import Any

from . import chat, room_clocks
from .cluster import Cluster
from .fanout import SeatViews
from .json_text import encode
from .room_state import Room
from .rooms import room_public
from .seats import Connection


class Broadcaster:
    """Sends a room's changes to its sockets on this worker, each built for its recipient."""

    def __init__(self, cluster: Cluster | None) -> None:
        self.cluster = cluster

    def public(self, room: Room) -> dict[str, Any]:
        """The room's public form; with several workers a seat connected on any of them shows
        ``connected`` (as of the last cluster tick), not only those with a socket here."""
        info = room_public(room)
        return self.cluster.mark_connected(room.code, info) if self.cluster is not None else info

    def event(self, room: Room, public: dict[str, Any]) -> None:
        """Tell every socket of the room about a folded event (``public``: its public form)."""
        if public["kind"] == "chat":
            msg = {"type": "chat", "version": room.version, "chat": public["chat"]}
            for conn in room.conns:
                if public["seat"] not in chat.muted_by(room, conn):
                    conn.send(msg)
            return
        info = self.public(room)
        views = SeatViews(room.state) if room.state is not None else None
        sent: dict[int | None, str] = {}  # a message depends only on its seat: encoded once each
        for conn in room.conns:
            text = sent.get(conn.seat)
            if text is None:
                text = sent[conn.seat] = encode(self.state_message(room, conn, info, public, views))
            conn.send(text)

    def state_message(
        self,
        room: Room,
        conn: Connection,
        info: dict[str, Any],
        event: dict[str, Any] | None,
        views: SeatViews | None = None,
    ) -> dict[str, Any]:
        view = None
        if room.state is not None:
            view = (views or SeatViews(room.state)).view(conn.seat)  # public part built once a broadcast
            view = room_clocks.ended_view(room, view)
        return {
            "type": "state",
            "version": room.version,
            "you": {"seat": conn.seat, "host": conn.seat is not None and conn.seat == room.host_seat},
            "room": info,
            "view": view,
            "event": event,
        }

    def welcome(self, room: Room, conn: Connection) -> None:
        """Send a socket just let in the full snapshot: the room, its view, the chat it hears, the log."""
        welcome = self.state_message(room, conn, self.public(room), None)
        welcome.update(
            type="welcome", chat=chat.audible(room, conn, list(room.chat)), log=list(room.log)[-100:]
        )
        welcome["muted"] = sorted(chat.muted_by(room, conn))  # the page's mute buttons, after a reconnect
        conn.send(welcome)

    def presence(self, room: Room) -> None:
        """Tell every socket of the room who is connected now, after a socket came or went: a
        ``presence`` message (each seat's ``connected`` and ``stand_in_at``), so a player who
        closed the tab shows as gone at once and one who sat down as here, with no event stored."""
        seats = [
            {"seat": s["seat"], "connected": s["connected"], "stand_in_at": s["stand_in_at"]}
            for s in self.public(room)["seats"]
        ]
        text = encode({"type": "presence", "version": room.version, "seats": seats})
        for conn in room.conns:
            conn.send(text)

    def mutes(self, room: Room, seat: int) -> None:
        """The ``muted`` message to every socket on ``seat`` here (the page's mute buttons)."""
        msg = {"type": "muted", "version": room.version, "seats": sorted(room.seats[seat].muted)}
        for conn in room.conns:
            if conn.seat == seat:
                conn.send(msg)
