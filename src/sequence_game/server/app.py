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
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from .. import __version__
from ..board import LAYOUT
from ..bots import BOTS
from ..cards import card_name
from ..records import MAX_RECORD_BYTES, RecordError, load
from .protocol import CreateRoom, Hello, JoinSeat, ProtocolError, parse_message
from .replays import replay_frames
from .rooms import Connection, Room, RoomManager, record_of
from .store import Store

STATIC = Path(__file__).with_name("static")
#: Refuse uploaded records above this size (a long 12-player game is well under 1 MB).
MAX_UPLOAD = min(MAX_RECORD_BYTES, 2 * 1024 * 1024)
HELLO_TIMEOUT = 10.0


def create_app(
    store: Store,
    *,
    bot_seconds: float = 1.0,
    bot_delay: float = 0.6,
    migrate: bool = True,
) -> FastAPI:
    """A server over ``store``; ``bot_delay`` pauses before each bot move so people can follow."""
    manager = RoomManager(store, bot_seconds=bot_seconds, bot_delay=bot_delay)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        if migrate:
            store.migrate()
        yield
        await manager.shutdown()

    app = FastAPI(title="Sequence", version=__version__, lifespan=lifespan)
    app.state.manager = manager
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.exception_handler(ProtocolError)
    async def _refused(_request: Request, exc: ProtocolError) -> JSONResponse:
        status = {"unknown_room": 404, "in_progress": 409, "seat_taken": 409, "started": 409}.get(
            exc.code, 400
        )
        return JSONResponse(exc.to_dict(), status_code=status)

    async def room_or_404(code: str) -> Room:
        room = await manager.get(code)
        if room is None:
            raise ProtocolError("unknown_room", f"no room {code!r}")
        return room

    @app.get("/health")
    async def health() -> dict[str, Any]:
        """Liveness and database reachability, for load balancers and the tests."""
        try:
            ok = await asyncio.to_thread(store.ping)
        except Exception as exc:  # noqa: BLE001 - any database failure means unhealthy
            return JSONResponse({"ok": False, "db": str(exc)[:200]}, status_code=503)  # type: ignore[return-value]
        return {"ok": ok, "db": "ok", "version": __version__, "rooms_loaded": len(manager.rooms)}

    @app.get("/api/board")
    async def board() -> dict[str, list[str]]:
        """The printed layout (R1.1), row 0 first; ``jk`` marks a corner."""
        return {"cells": ["jk" if c < 0 else card_name(c) for c in LAYOUT]}

    @app.get("/api/bots")
    async def bots() -> dict[str, list[str]]:
        return {"bots": list(BOTS)}

    @app.post("/api/rooms", status_code=201)
    async def create_room(body: CreateRoom) -> dict[str, Any]:
        room, token = await manager.create(body)
        return {"code": room.code, "seat": body.seat, "token": token, "room": room.public()}

    @app.get("/api/rooms/{code}")
    async def get_room(code: str) -> dict[str, Any]:
        return (await room_or_404(code)).public()

    @app.post("/api/rooms/{code}/seats/{seat}", status_code=201)
    async def join(code: str, seat: int, body: JoinSeat) -> dict[str, Any]:
        room = await room_or_404(code)
        token = await manager.take_seat(room, seat, body.name)
        return {"code": room.code, "seat": seat, "token": token}

    @app.get("/api/rooms/{code}/record")
    async def record(code: str) -> Response:
        room = await room_or_404(code)
        async with room.lock:
            data = record_of(room)
        return Response(
            json.dumps(data),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="sequence-{room.code}.json"'},
        )

    @app.get("/api/rooms/{code}/replay")
    async def room_replay(code: str) -> dict[str, Any]:
        room = await room_or_404(code)
        async with room.lock:
            data = record_of(room)
        return {"frames": replay_frames(data), "players": data["players"], "teams": data["teams"]}

    @app.post("/api/replay")
    async def upload_replay(request: Request) -> dict[str, Any]:
        body = await request.body()
        if len(body) > MAX_UPLOAD:
            raise HTTPException(413, f"a record is at most {MAX_UPLOAD} bytes")
        try:
            data = load(body)
            frames = replay_frames(data)
        except RecordError as exc:
            raise HTTPException(422, str(exc)) from None
        return {"frames": frames, "players": data["players"], "teams": data.get("teams")}

    @app.get("/")
    @app.get("/r/{code}")
    async def page(code: str | None = None) -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @app.websocket("/ws/{code}")
    async def socket(ws: WebSocket, code: str) -> None:
        await ws.accept()
        room = await manager.get(code)
        if room is None:
            await ws.send_json(ProtocolError("unknown_room", f"no room {code!r}").to_dict())
            await ws.close(code=4404)
            return
        conn = Connection()
        writer = asyncio.create_task(_writer(ws, conn))
        try:
            await _serve_socket(ws, manager, room, conn)
        except WebSocketDisconnect:
            pass
        finally:
            await manager.disconnect(room, conn)
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
            await ws.send_text(json.dumps(msg, separators=(",", ":")))
        except Exception:  # noqa: BLE001 - a socket closing mid-send ends the writer
            return


async def _serve_socket(ws: WebSocket, manager: RoomManager, room: Room, conn: Connection) -> None:
    """Read frames; the first must be ``hello``; every refusal goes to this client alone."""
    while True:
        if not conn.authed:
            try:
                text = await asyncio.wait_for(_receive(ws), HELLO_TIMEOUT)
            except TimeoutError:
                conn.send(ProtocolError("no_hello", "send hello first").to_dict())
                conn.queue.put_nowait(None)
                return
        else:
            text = await _receive(ws)
        try:
            msg = parse_message(text)
            if not conn.authed:
                if not isinstance(msg, Hello):
                    raise ProtocolError("no_hello", "the first message must be hello")
                try:
                    await manager.connect(room, conn, msg)
                except ProtocolError:
                    conn.send(ProtocolError("bad_token", "this token holds no seat in this room").to_dict())
                    conn.queue.put_nowait(None)
                    return
                continue
            if isinstance(msg, Hello):
                raise ProtocolError("bad_message", "already greeted; reconnect to change seat")
            await manager.handle(room, conn, msg)
        except ProtocolError as exc:
            reply = exc.to_dict()
            reply["version"] = room.version
            conn.send(reply)


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
