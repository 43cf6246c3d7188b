"""Reporting a player over HTTP, and the checks a ban makes on a request or a chat line.

=================================  ============================================================
``GET /api/rooms/{code}/reports``  who the logged-in player may report in this room:
                                   ``{can, why, seats: [{seat, name}], reasons, max_text}``
``POST /api/reports``              ``{code, seat, reason, text?}``: report the account that holds
                                   ``seat`` of room ``code`` (201 ``{id, name}``)
=================================  ============================================================

Who may report whom: a logged-in account, not banned, that holds a seat of the room, may report
another account holding a seat of it (a guest has no account: a report must come from one, so
that one person cannot file a hundred; a guest's lines can be muted instead). The reason is one
of :data:`.moderation.REASONS`; the text is kept verbatim (at most :data:`.moderation.MAX_TEXT`
characters). The state-changing request carries the session's CSRF token and comes from this
site (:func:`.sessions.check_csrf`), as every account request does.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import FastAPI, Request
from pydantic import BaseModel, ConfigDict, Field

from ..i18n import N_
from .account_routes import BANNED_CHAT, BANNED_RATED, AccountRoutes
from .account_store import Account
from .manager import RoomManager
from .moderation import MAX_TEXT, REASONS, Moderation
from .protocol import Printable, ProtocolError
from .room_state import Room
from .sessions import check_csrf
from .store import Store

#: HTTP status of each refusal of this module (others are :mod:`.app`'s).
STATUS = {"not_in_room": 403, "already_reported": 409, "guest": 401}

GUEST = ProtocolError(
    "guest",
    N_("log in to report a player: reports come from accounts, so that one person cannot file many"),
)


class NewReport(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    code: str = Field(min_length=1, max_length=16, pattern=r"^[A-Za-z0-9]+$")
    seat: int = Field(ge=0, le=63)
    reason: str = Field(max_length=32)
    text: Printable = Field(default="", max_length=4 * MAX_TEXT)  # the real cap is checked below


def game_number(room: Room) -> int:
    """The game of the room's match that a report is about: the one in play, else the last one."""
    if room.status == "playing" or not room.records:
        return len(room.records)
    return len(room.records) - 1


class Reports:
    """Reports and ban checks of one application."""

    def __init__(self, store: Store, manager: RoomManager, accounts: AccountRoutes) -> None:
        self.db = Moderation(store)
        self.manager = manager
        self.accounts = accounts
        manager.may_chat = self.may_chat
        accounts.moderation = self.db

    async def refuse_rated(self, account: Account | None) -> None:
        """A banned account takes no part in a rated game (``banned``)."""
        if account is not None and await asyncio.to_thread(self.db.ban_of, account.id) is not None:
            raise BANNED_RATED

    async def may_chat(self, room: Room, seat: int) -> None:
        """Refuse a chat line from a seat that a banned account holds (called per line)."""
        if await asyncio.to_thread(self.db.seat_banned, room.code, seat):
            raise BANNED_CHAT

    async def _room(self, code: str, request: Request) -> Room:
        """The room, or 404, a missing code costing a guess (:meth:`.manager.RoomManager.room_for`)."""
        return await self.manager.room_for(code, request.client.host if request.client else "")

    def install(self, app: FastAPI) -> None:
        db = self.db

        @app.get("/api/rooms/{code}/reports")
        async def reportable(code: str, request: Request) -> dict[str, Any]:
            room = await self._room(code, request)
            found = await self.accounts.current(request)
            body: dict[str, Any] = {"can": False, "why": "guest", "seats": [], "reasons": list(REASONS)}
            body["max_text"] = MAX_TEXT
            if found is None:
                return body
            seats = await asyncio.to_thread(db.room_seats, room.code)
            mine = {s for s, (account_id, _name) in seats.items() if account_id == found[0].id}
            if not mine:
                return body | {"why": "not_in_room"}
            if await asyncio.to_thread(db.ban_of, found[0].id) is not None:
                return body | {"why": "banned"}
            others = [
                {"seat": s, "name": name}
                for s, (account_id, name) in sorted(seats.items())
                if account_id != found[0].id
            ]
            return body | {"can": True, "why": None, "seats": others}

        @app.post("/api/reports", status_code=201)
        async def report(body: NewReport, request: Request) -> dict[str, Any]:
            found = await self.accounts.current(request)
            if found is None:
                raise GUEST
            account, token = found
            check_csrf(request, token)
            if body.reason not in REASONS:
                raise ProtocolError("bad_reason", N_("choose one of the reasons offered"))
            text = body.text.strip()
            if len(text) > MAX_TEXT:
                raise ProtocolError(
                    "too_long", N_("a report's text has at most {n} characters"), params={"n": MAX_TEXT}
                )
            if await asyncio.to_thread(db.ban_of, account.id) is not None:
                raise ProtocolError("banned", N_("your account is banned: it cannot report players"))
            room = await self._room(body.code, request)
            seats = await asyncio.to_thread(db.room_seats, room.code)
            if not any(account_id == account.id for account_id, _name in seats.values()):
                raise ProtocolError("not_in_room", N_("only a player of this room can report its players"))
            if body.seat not in seats:
                raise ProtocolError(
                    "no_account",
                    N_("that seat is not an account's (a guest or a bot): mute a guest's chat instead"),
                )
            reported, name = seats[body.seat]
            if reported == account.id:
                raise ProtocolError("self", N_("you cannot report yourself"))
            new_id = await asyncio.to_thread(
                db.file_report, account.id, reported, room.code, game_number(room), body.reason, text
            )
            return {"id": new_id, "name": name}
