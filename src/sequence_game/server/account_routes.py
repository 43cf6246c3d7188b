"""The accounts' HTTP endpoints (``/api/account``), and the account a room's seat is taken with.

=========================  ====================================================================
``GET /api/account``       who is logged in: ``{account, csrf, games, passkeys, banned}``
                           (``account`` null if nobody; ``banned``: ``{reason, at}`` or null)
``POST .../register``      ``{name, password}``: a new account, logged in (201)
``POST .../login``         ``{name, password}``: a new session (the cookie), ``{account, csrf}``
``POST .../logout``        ends the session (CSRF token needed when there is one)
``POST .../password``      ``{current, new}``: every other session ends; this one is renewed
``DELETE /api/account``    ``{password}``: the account and its sessions, passkeys, seat links
``POST .../claim``         ``{code, token}``: a finished game's seat, held by a guest token, joins
                           the logged-in account
=========================  ====================================================================

Every state-changing request that a session authorises must carry its CSRF token and come from
this site (:mod:`.sessions`); every body is validated (types, lengths, no unknown fields).
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from ..i18n import N_
from .account_store import Account
from .accounts import Accounts
from .manager import RoomManager
from .moderation import Moderation
from .protocol import ProtocolError
from .sessions import check_csrf, check_origin, clear_cookie, cookie_token, csrf_token, set_cookie

#: HTTP status of each refusal of this module (others are :mod:`.app`'s).
STATUS = {
    "csrf": 403,
    "not_logged_in": 401,
    "bad_login": 401,
    "name_taken": 409,
    "claimed": 409,
    "bad_name": 400,
    "bad_password": 400,
    "bad_passkey": 401,
    "banned": 403,
}
NOT_LOGGED_IN = ProtocolError("not_logged_in", N_("log in first"))
#: What a ban refuses (:mod:`.moderation`); here, with the page's first-load messages.
BANNED_RATED = ProtocolError("banned", N_("your account is banned: it cannot play rated games"))
BANNED_CHAT = ProtocolError("banned", N_("your account is banned: it cannot write in the chat"))


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Credentials(_Body):
    name: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=1024)


class NewPassword(_Body):
    current: str = Field(min_length=1, max_length=1024)
    new: str = Field(min_length=1, max_length=1024)


class Password(_Body):
    password: str = Field(min_length=1, max_length=1024)


class Claim(_Body):
    code: str = Field(min_length=1, max_length=16, pattern=r"^[A-Za-z0-9]+$")
    token: str = Field(min_length=1, max_length=128)


def public(account: Account) -> dict[str, Any]:
    return {"name": account.name, "created_at": round(account.created_at)}


def _client(request: Request) -> str:
    return request.client.host if request.client else ""


class AccountRoutes:
    """The endpoints of one application, and the account behind a request (for the rooms)."""

    def __init__(self, accounts: Accounts, manager: RoomManager) -> None:
        self.accounts = accounts
        self.manager = manager
        self.moderation: Moderation | None = None
        """Set by :class:`.report_routes.Reports`: ``GET /api/account`` says whether it is banned."""

    async def current(self, request: Request) -> tuple[Account, str] | None:
        """The request's logged-in account and its session token, or ``None``."""
        token = cookie_token(request)
        account = await self.accounts.session(token)
        return None if account is None or token is None else (account, token)

    async def required(self, request: Request) -> tuple[Account, str]:
        """The logged-in account of a state-changing request, its CSRF token checked."""
        found = await self.current(request)
        if found is None:
            raise NOT_LOGGED_IN
        check_csrf(request, found[1])
        return found

    async def seat_account(self, request: Request) -> Account | None:
        """The account a room is created or a seat taken with: none for a guest (no session, or a
        cookie that names none); a session's request must pass the CSRF check."""
        found = await self.current(request)
        if found is None:
            return None
        check_csrf(request, found[1])
        return found[0]

    async def link(self, account: Account | None, code: str, seat: int) -> None:
        if account is not None:
            await self.accounts.run(self.accounts.db.link_seat, code, seat, account.id, False)

    def logged_in(self, request: Request, account: Account, token: str, status: int = 200) -> JSONResponse:
        body = {"account": public(account), "csrf": csrf_token(token)}
        response = JSONResponse(body, status_code=status, headers={"Cache-Control": "no-store"})
        set_cookie(response, request, token, self.accounts.session_seconds)
        return response

    def install(self, app: FastAPI) -> None:
        accounts = self.accounts

        @app.get("/api/account")
        async def me(request: Request) -> JSONResponse:
            found = await self.current(request)
            headers = {"Cache-Control": "no-store"}
            if found is None:
                response = JSONResponse({"account": None, "csrf": None, "games": []}, headers=headers)
                if request.cookies.get("sequence_session") is not None:
                    clear_cookie(response, request)  # forged, expired or ended: forget it
                return response
            account, token = found
            games = await accounts.run(accounts.db.games, account.id)
            keys = await accounts.run(accounts.db.passkey_count, account.id)
            body = {"account": public(account), "csrf": csrf_token(token), "games": games, "passkeys": keys}
            ban = None if self.moderation is None else await accounts.run(self.moderation.ban_of, account.id)
            body["banned"] = None if ban is None else {"reason": ban.reason, "at": round(ban.at)}
            return JSONResponse(body, headers=headers)

        @app.post("/api/account/register", status_code=201)
        async def register(body: Credentials, request: Request) -> JSONResponse:
            check_origin(request)
            account = await accounts.register(body.name, body.password, _client(request))
            token = await accounts.start_session(account, replaces=cookie_token(request))
            return self.logged_in(request, account, token, 201)

        @app.post("/api/account/login")
        async def login(body: Credentials, request: Request) -> JSONResponse:
            check_origin(request)
            account = await accounts.login(body.name, body.password, _client(request))
            token = await accounts.start_session(account, replaces=cookie_token(request))
            return self.logged_in(request, account, token)

        @app.post("/api/account/logout")
        async def logout(request: Request) -> JSONResponse:
            found = await self.current(request)
            if found is not None:
                check_csrf(request, found[1])
                await accounts.end_session(found[1])
            response = JSONResponse({"ok": True})
            clear_cookie(response, request)
            return response

        @app.post("/api/account/password")
        async def change_password(body: NewPassword, request: Request) -> JSONResponse:
            account, token = await self.required(request)
            new_token = await accounts.change_password(account, body.current, body.new, token)
            return self.logged_in(request, account, new_token)

        @app.delete("/api/account")
        async def delete(body: Password, request: Request) -> JSONResponse:
            account, _token = await self.required(request)
            await accounts.delete(account, body.password)
            response = JSONResponse({"ok": True})
            clear_cookie(response, request)
            return response

        @app.post("/api/account/claim")
        async def claim(body: Claim, request: Request) -> dict[str, Any]:
            """A guest's finished game joins the account: the seat's token proves it was theirs."""
            account, _token = await self.required(request)
            manager = self.manager
            room = await manager.room_for(body.code, _client(request))
            seat = manager.seat_of_token(room, body.token)
            if seat is None:
                raise ProtocolError("bad_token", N_("this token holds no seat in this room"))
            if not room.records:
                raise ProtocolError("in_progress", N_("a game can be claimed once it is over"))
            if not await accounts.run(accounts.db.link_seat, room.code, seat, account.id, True):
                raise ProtocolError("claimed", N_("this seat already belongs to an account"))
            return {"code": room.code, "seat": seat, "games": len(room.records)}
