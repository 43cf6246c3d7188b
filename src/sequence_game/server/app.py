"""The ASGI application: HTTP for rooms and records, one websocket per player or spectator.

``create_app`` is the only entry point and holds no module-level state, so tests can build as
many independent servers as they like.

>>> from sequence_game.server.store import Store
>>> app = create_app(Store("sqlite://"))
>>> sorted({r.path for r in app.routes} & {"/health", "/ws/{code}"})
['/health', '/ws/{code}']
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import HTTPConnection

from .. import __version__
from ..board import LAYOUT
from ..bots import LEVELS, available_bots
from ..cards import card_name
from ..i18n import N_
from ..records import MAX_RECORD_BYTES, RecordError, load, parse_record
from .account_routes import STATUS as ACCOUNT_STATUS
from .account_routes import AccountRoutes
from .accounts import Accounts
from .analysis_jobs import AnalysisJobs
from .cluster import Cluster
from .fair_rooms import finished_record
from .forwarded import ClientAddress
from .http_guard import BodyLimit, SecurityHeaders
from .json_text import encode
from .limits import Limits
from .manager import RoomManager
from .passkeys import Passkeys
from .play_routes import Play
from .protocol import CreateRoom, Hello, HintRequest, JoinSeat, ProtocolError, parse_message
from .replays import replay_frames
from .report_routes import STATUS as REPORT_STATUS
from .report_routes import Reports
from .rooms import Connection, Room, room_public
from .static_files import StaticAssets
from .store import Store, unreachable_errors

log = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("static")
#: Refuse uploaded records above this size (a long 12-player game is well under 1 MB).
MAX_UPLOAD = min(MAX_RECORD_BYTES, 2 * 1024 * 1024)
#: ``code`` of a refusal raised as a plain HTTP status.
HTTP_CODES = {400: "bad_request", 404: "not_found", 405: "bad_method", 413: "too_large", 422: "bad_record"}
DOCS_PATHS = frozenset({"/docs", "/docs/oauth2-redirect", "/redoc"})
#: The refusal while the database is down or restarting (HTTP 503, or a websocket error).
UNAVAILABLE = ProtocolError(
    "unavailable", N_("the game store is unavailable for a moment; try again shortly")
)


def create_app(
    store: Store,
    *,
    bot_seconds: float = 1.0,
    bot_delay: float = 0.6,
    migrate: bool = True,
    limits: Limits | None = None,
    api_docs: bool = False,
    cluster: bool = False,
    trusted_proxies: Sequence[str] = (),
) -> FastAPI:
    """A server over ``store``; ``bot_delay`` pauses before each bot move so people can follow.

    ``api_docs``: serve ``/docs`` and ``/openapi.json`` (off by default: they map the attack surface).
    ``trusted_proxies``: addresses or networks whose ``X-Forwarded-For`` / ``X-Real-IP`` name the
    client (:mod:`.forwarded`); from anyone else the socket's peer is the client."""
    limits = limits or Limits()
    manager = RoomManager(
        store,
        bot_seconds=bot_seconds,
        bot_delay=bot_delay,
        limits=limits,
        cluster=Cluster(store) if cluster else None,  # several workers share the database
    )
    analyses = AnalysisJobs(limits)
    accounts = AccountRoutes(Accounts(store, limits, manager.shared.buckets), manager)
    reports = Reports(store, manager, accounts)  # players' reports; what a ban forbids
    play = Play(store, manager, accounts, reports)  # ratings, the "Play now" queue, players' pages

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        if migrate:
            store.migrate()
        manager.start()
        play.start()
        await asyncio.to_thread(accounts.accounts.dummy_hash)  # an unknown name's login costs the same
        manager.memory.settle()  # the start's objects leave the collector's reach (.memory)
        yield
        await analyses.close()
        await play.close()
        await manager.shutdown()

    docs: dict[str, Any] = {} if api_docs else {"docs_url": None, "redoc_url": None, "openapi_url": None}
    app = FastAPI(title="Sequence", version=__version__, lifespan=lifespan, **docs)
    app.state.manager = manager
    assets = StaticAssets(STATIC)  # compressed once, versioned names cached for a year (issue 41)
    app.add_route("/static/{path:path}", assets.serve, methods=["GET", "HEAD"], include_in_schema=False)
    app.add_middleware(
        BodyLimit, limit_for=lambda path: MAX_UPLOAD if path == "/api/replay" else limits.max_body
    )
    app.add_middleware(SecurityHeaders, no_csp=DOCS_PATHS if api_docs else frozenset())
    app.add_middleware(ClientAddress, trusted=trusted_proxies)  # outermost: every part sees the client

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        # the default handler echoes the input back, and a lone surrogate in it cannot be encoded
        errors = [{"loc": list(e["loc"]), "msg": e["msg"]} for e in exc.errors()]
        where = ".".join(str(p) for p in errors[0]["loc"]) if errors else "body"
        message = f"{where}: {errors[0]['msg']}" if errors else "invalid request"
        body = {"type": "error", "code": "bad_request", "message": message, "detail": errors}
        return JSONResponse(body, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        """Every refusal in the one shape ``{type, code, message}`` (``detail`` kept for old pages)."""
        parse = exc.status_code == 400 and exc.detail == "There was an error parsing the body"
        code = "bad_json" if parse else HTTP_CODES.get(exc.status_code, "http_error")
        body = {"type": "error", "code": code, "message": str(exc.detail), "detail": exc.detail}
        return JSONResponse(body, status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(RecursionError)
    async def _too_deep(_request: Request, _exc: RecursionError) -> JSONResponse:
        error = ProtocolError("bad_json", N_("not valid JSON: nested too deeply"))
        return JSONResponse(error.to_dict(), status_code=400)

    @app.exception_handler(ProtocolError)
    async def _refused(_request: Request, exc: ProtocolError) -> JSONResponse:
        status = (
            {
                "unknown_room": 404,
                "in_progress": 409,
                "no_game": 404,
                "seat_taken": 409,
                "started": 409,
                "rate_limited": 429,
                "hints_off": 403,
                "hint_not_ready": 503,
                "bad_token": 403,
                "no_player": 404,
            }.get(exc.code)
            or ACCOUNT_STATUS.get(exc.code)
            or REPORT_STATUS.get(exc.code, 400)
        )
        return JSONResponse(exc.to_dict(), status_code=status)

    async def _database_down(_request: Request, exc: Exception) -> JSONResponse:
        """The database is down or restarting: a clear refusal to try again, not a 500 with a
        traceback in the log (issue 42); ``/health`` says 503 too."""
        log.warning("database unavailable: %s", _first_line(exc))
        return JSONResponse(UNAVAILABLE.to_dict(), status_code=503, headers={"Retry-After": "5"})

    for error in unreachable_errors():
        app.add_exception_handler(error, _database_down)

    async def room_or_404(code: str, request: Request) -> Room:
        """The room, or 404 (:meth:`.manager.RoomManager.room_for`)."""
        return await manager.room_for(code, _client(request))

    @app.get("/health")
    async def health() -> dict[str, Any]:
        """Liveness and database reachability, for load balancers and the tests."""
        try:
            ok = await asyncio.to_thread(store.ping)
        except Exception as exc:  # noqa: BLE001 - any database failure means unhealthy
            return JSONResponse({"ok": False, "db": str(exc)[:200]}, status_code=503)  # type: ignore[return-value]
        return {
            "ok": ok,
            "db": "ok",
            "version": __version__,
            "rooms_loaded": len(manager.rooms),
            "rooms_evicted": manager.evicted,
            "rooms_handed_over": manager.handed_over,
            "rooms_alive": len(manager.alive),
            "pid": os.getpid(),
            "rooms_owned": len(manager.cluster.owned) if manager.cluster else None,
            "memory": manager.memory.stats(),
            "commits": dict(zip(("events", "statements"), store.groups, strict=True)),
            "queue_rooms": play.paired,
        }

    @app.get("/api/board")
    async def board() -> dict[str, list[str]]:
        """The printed layout (R1.1), row 0 first; ``jk`` marks a corner."""
        return {"cells": ["jk" if c < 0 else card_name(c) for c in LAYOUT]}

    @app.get("/api/bots")
    async def bots() -> dict[str, list[str]]:
        return {"bots": list(available_bots()), "levels": list(LEVELS)}

    @app.post("/api/rooms", status_code=201)
    async def create_room(body: CreateRoom, request: Request) -> dict[str, Any]:
        account = await accounts.seat_account(request)  # a guest: None; logged in: the seat's name
        if body.rated:
            await reports.refuse_rated(account)  # a banned account hosts no rated game
        if account is not None:
            body = body.model_copy(update={"name": account.name})
        elif body.rated:
            body = body.model_copy(update={"rated": False})  # a guest's game is never rated
        room, token = await manager.create(body, _client(request))
        await accounts.link(account, room.code, body.seat)
        return {"code": room.code, "seat": body.seat, "token": token, "room": room_public(room)}

    @app.get("/api/rooms")
    async def open_rooms(open: int = 0) -> dict[str, Any]:
        """Public rooms still in their lobby with a free seat (at most 50), from memory."""
        return {"rooms": manager.open_rooms() if open else []}

    @app.post("/api/rooms/{code}/hint")
    async def hint(code: str, body: HintRequest, request: Request) -> dict[str, Any]:
        """The strongest bot's play for the token's seat (rooms created with ``hints``)."""
        room = await room_or_404(code, request)
        seat = manager.seat_of_token(room, body.token)
        if seat is None:
            raise ProtocolError("bad_token", N_("this token holds no seat in this room"))
        return await manager.hint(room, seat)

    @app.get("/api/rooms/{code}")
    async def get_room(code: str, request: Request) -> dict[str, Any]:
        return manager.public(await room_or_404(code, request))

    @app.post("/api/rooms/{code}/seats/{seat}", status_code=201)
    async def join(code: str, seat: int, body: JoinSeat, request: Request) -> dict[str, Any]:
        room = await room_or_404(code, request)
        account = await accounts.seat_account(request)
        if room.config.get("rated"):
            await reports.refuse_rated(account)  # nor sits at one
        token = await manager.take_seat(room, seat, account.name if account is not None else body.name)
        await accounts.link(account, room.code, seat)
        return {"code": room.code, "seat": seat, "token": token}

    @app.get("/api/rooms/{code}/record")
    async def record(code: str, request: Request, game: int | None = None) -> Response:
        """A finished game's record (``game``: its number in the room's match; default the one
        just over), with the fairness block that ``sequence verify`` checks."""
        room = await room_or_404(code, request)
        async with room.lock:
            number, data = finished_record(room, game)
        name = f"sequence-{room.code}" + (f"-{number + 1}" if number else "")
        return Response(
            json.dumps(data),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{name}.json"'},
        )

    @app.get("/api/rooms/{code}/replay")
    async def room_replay(code: str, request: Request, game: int | None = None) -> dict[str, Any]:
        room = await room_or_404(code, request)
        async with room.lock:
            number, data = finished_record(room, game)
        return {
            "frames": replay_frames(data),
            "players": data["players"],
            "teams": data["teams"],
            "game": number,
        }

    @app.post("/api/rooms/{code}/analysis", status_code=202)
    async def start_analysis(code: str, request: Request, game: int | None = None) -> dict[str, Any]:
        """Analyse a finished game in a worker process (``docs/analysis.md``); poll with GET."""
        room = await room_or_404(code, request)
        async with room.lock:
            number, data = finished_record(room, game)
        job = analyses.start((room.code, number), data)
        return {"game": number, **job.public()}

    @app.get("/api/rooms/{code}/analysis")
    async def analysis(code: str, request: Request, game: int | None = None) -> dict[str, Any]:
        room = await room_or_404(code, request)
        async with room.lock:
            number, _data = finished_record(room, game)
        job = analyses.get((room.code, number))
        if job is None:
            return {"game": number, "status": "none"}
        return {"game": number, **job.public()}

    @app.post("/api/replay")
    async def upload_replay(request: Request) -> dict[str, Any]:
        body = await request.body()
        if len(body) > MAX_UPLOAD:
            raise HTTPException(413, f"a record is at most {MAX_UPLOAD} bytes")
        # Malformed input (not JSON, or not a record's form) is a 400; a well-formed record that
        # breaks a rule or has not ended is a 422 (the record reader's two answers, docs/record-format.md).
        try:
            data = load(body)
        except RecordError as exc:
            raise ProtocolError("bad_json", str(exc), plain=True) from None
        try:
            parse_record(data)
        except RecordError as exc:
            raise ProtocolError("bad_record", str(exc), plain=True) from None
        try:
            frames = replay_frames(data)
        except RecordError as exc:
            raise HTTPException(422, str(exc)) from None
        return {"frames": frames, "players": data["players"], "teams": data.get("teams")}

    accounts.install(app)
    Passkeys(accounts, store).install(app)  # a second way to log in (WebAuthn)
    play.install(app)
    reports.install(app)

    @app.get("/")
    @app.get("/account")
    @app.get("/leaderboard")
    @app.get("/u/{name}")
    @app.get("/r/{code}")
    async def page(request: Request, code: str | None = None, name: str | None = None) -> Response:
        return assets.page(request)

    @app.websocket("/ws/{code}")
    async def socket(ws: WebSocket, code: str) -> None:
        await ws.accept()
        client = _client(ws)
        try:
            manager.shared.check_guesses(client)  # out of guesses: refused, found or not
            room = await manager.get(code)
            if room is None:
                await manager.shared.missed(client)  # a guess spent, or refused if none is left
        except unreachable_errors() as exc:
            log.warning("database unavailable: %s", _first_line(exc))
            await ws.send_json(UNAVAILABLE.to_dict())
            await ws.close(code=1013)  # try again later
            return
        except ProtocolError as exc:
            await ws.send_json(exc.to_dict())
            await ws.close(code=4429)
            return
        if room is None:
            await ws.send_json(
                ProtocolError("unknown_room", N_("no room {code}"), params={"code": code}).to_dict()
            )
            await ws.close(code=4404)
            return
        conn = Connection()
        writer = asyncio.create_task(_writer(ws, conn))
        served = _Served(room)
        try:
            await _serve_socket(ws, manager, served, conn, limits.hello_seconds)
        except WebSocketDisconnect:
            pass
        finally:
            await manager.disconnect(served.room, conn)
            conn.queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 2)
            writer.cancel()

    return app


async def _writer(ws: WebSocket, conn: Connection) -> None:
    """Drain the connection's queue in order; ``None`` closes the socket."""
    while True:
        msg = await conn.queue.get()
        if msg is None:
            with contextlib.suppress(Exception):
                await ws.close()
            return
        try:
            await ws.send_text(msg if isinstance(msg, str) else encode(msg))
        except Exception:  # noqa: BLE001 - a socket closing mid-send ends the writer
            return


class _Served:
    """The room a socket is in: it can change once, if the room left memory before the hello."""

    def __init__(self, room: Room) -> None:
        self.room = room


async def _serve_socket(
    ws: WebSocket, manager: RoomManager, served: _Served, conn: Connection, hello_seconds: float
) -> None:
    """Read frames; the first must be ``hello``; every refusal goes to this client alone.

    The hello must come within ``hello_seconds`` of the socket opening, however many other
    frames are sent meanwhile."""
    hello_by = asyncio.get_running_loop().time() + hello_seconds
    while True:
        if not conn.authed:
            try:
                left = hello_by - asyncio.get_running_loop().time()
                text = await asyncio.wait_for(_receive(ws), max(0.0, left))
            except TimeoutError:
                conn.send(ProtocolError("no_hello", N_("no hello in time: closing")).to_dict())
                conn.queue.put_nowait(None)
                return
        else:
            text = await _receive(ws)
        room = served.room
        try:
            msg = parse_message(text)
            if not conn.authed:
                if not isinstance(msg, Hello):
                    raise ProtocolError("no_hello", N_("the first message must be hello"))
                try:
                    served.room = await manager.connect(room, conn, msg)
                except ProtocolError as exc:
                    conn.send(exc.to_dict())
                    conn.queue.put_nowait(None)
                    return
                continue
            if isinstance(msg, Hello):
                raise ProtocolError("bad_message", N_("already greeted; reconnect to change seat"))
            await manager.handle(room, conn, msg)
        except ProtocolError as exc:
            reply = exc.to_dict()
            reply["version"] = room.version
            conn.send(reply)
        except unreachable_errors() as exc:  # the database is down or restarting: nothing changed
            log.warning("command in room %s: database unavailable: %s", room.code, _first_line(exc))
            reply = UNAVAILABLE.to_dict()
            reply["version"] = room.version
            conn.send(reply)
        except Exception:  # a failing store must cost one reply, not the socket
            log.exception("command failed in room %s", room.code)
            reply = ProtocolError(
                "server_error", N_("the server could not do that; nothing changed")
            ).to_dict()
            reply["version"] = room.version
            conn.send(reply)


def _client(conn: HTTPConnection) -> str:
    """The client's address (the peer's, or a trusted proxy's word for it: :mod:`.forwarded`)."""
    return conn.client.host if conn.client else ""


def _first_line(exc: BaseException) -> str:
    """An error's first line, for a one-line log (the database's messages run to several)."""
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]


async def _receive(ws: WebSocket) -> str:
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    if message.get("text") is not None:
        return str(message["text"])
    data = message.get("bytes") or b""
    if len(data) > 4096:
        return "x" * 4097  # refused as too large by parse_message
    return data.decode("utf-8", errors="replace")
