"""Table chat: who may say what, how often, and who hears it.

One socket may send ``chat_burst`` lines at once and then ``chat_rate`` a second; a whole room
``room_chat_burst`` and ``room_chat_rate``; a room stores ``room_chat_lines`` at most. The room's
rate is charged when a line is folded in, which every worker with the room loaded does for every
line, wherever it was sent, so it holds across workers (two workers admitting a line in the same
instant may each let one through; the next lines then wait for both). A player can
mute another seat: that seat's lines are no longer sent to them (the line is still stored, so the
host can read it if table talk is called, R6.1). A player's mutes belong to their seat and are
stored with it, so they hold on every socket of the seat, on any worker, and after the room left
memory; a spectator's belong to its socket.
"""

from __future__ import annotations

from typing import Any

from ..i18n import N_
from .limits import Limits, TokenBucket
from .protocol import ProtocolError
from .room_state import Room
from .seats import Connection


def clean(text: str) -> str:
    """One line: runs of whitespace (newlines included) become one space."""
    text = " ".join(text.split())
    if not text:
        raise ProtocolError("bad_message", N_("an empty chat line"))
    return text


def admit(room: Room, conn: Connection, limits: Limits) -> None:
    """Refuse a line over the socket's or the room's rate, or past the room's store of lines."""
    if room.chat_lines >= limits.room_chat_lines:
        raise ProtocolError(
            "chat_full",
            N_("this room has {lines} chat lines: no more are kept"),
            params={"lines": room.chat_lines},
        )
    if conn.chat_bucket is None:
        conn.chat_bucket = TokenBucket(limits.chat_rate, limits.chat_burst)
    if not conn.chat_bucket.take():
        if limits.chat_rate > 0:
            raise ProtocolError(
                "rate_limited",
                N_("slow down: at most {burst} lines at once, then one every {seconds} s"),
                params={"burst": limits.chat_burst, "seconds": f"{1 / limits.chat_rate:g}"},
            )
        raise ProtocolError(
            "rate_limited",
            N_("slow down: at most {burst} lines at once"),
            params={"burst": limits.chat_burst},
        )
    if not _room_bucket(room, limits).ready():  # spent by ``charge`` when the line is folded in
        raise ProtocolError("rate_limited", N_("this table is chatting too fast; wait a moment"))


def charge(room: Room, limits: Limits) -> None:
    """A chat line was committed (here or by another worker, which every worker folds in):
    the room's rate counts it, so the room's limit holds across workers."""
    _room_bucket(room, limits).spend()


def _room_bucket(room: Room, limits: Limits) -> TokenBucket:
    if room.chat_bucket is None:
        room.chat_bucket = TokenBucket(limits.room_chat_rate, limits.room_chat_burst)
    return room.chat_bucket


def muted_by(room: Room, conn: Connection) -> set[int]:
    """The seats whose lines ``conn`` does not want: its seat's mutes, or its own as a spectator."""
    return room.seats[conn.seat].muted if conn.seat is not None else conn.muted


def set_mute(room: Room, conn: Connection, seat: int, mute: bool) -> set[int]:
    """The seats ``conn`` mutes once ``seat`` is muted (or heard again); a player's set is stored
    with their seat by the caller, a spectator's changes here (its socket's own)."""
    if seat >= len(room.seats):
        raise ProtocolError(
            "bad_seat",
            N_("no seat {seat} at a table of {players}"),
            "R2.1",
            params={"seat": seat, "players": len(room.seats)},
        )
    if seat == conn.seat:
        raise ProtocolError("bad_seat", N_("you cannot mute yourself"))
    muted = set(muted_by(room, conn))
    if mute:
        muted.add(seat)
    else:
        muted.discard(seat)
    if conn.seat is None:
        conn.muted = muted
    return muted


def audible(room: Room, conn: Connection, lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The chat lines ``conn`` hears (for the welcome's history)."""
    muted = muted_by(room, conn)
    return [line for line in lines if line["seat"] not in muted]
