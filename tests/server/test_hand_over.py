"""A room goes to the worker its people are connected to (issue 16, capacity).

With several workers, a worker that has a room loaded but nobody connected to it, and sees another
worker commit one of its events, leaves the room to that worker instead of folding every event
and building messages nobody here reads. A load balancer that routes by room (docs/server.md,
"More than one process") sends all of a room's sockets to one worker, which then serves the room
alone; correctness never depends on that routing: a socket that reaches another worker still
plays, and that worker keeps the room while someone is connected to it.

Also here, two faults that leaving rooms made frequent: a room loaded while another worker
committed to it read events past its own row, and a takeover during a start's nonce gathering
cancelled the gathering's deadline, so the deal never came.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from .conftest import Client, Server, advance, over, the_same_sound_record
from .test_postgres import postgres_url

__all__ = ["postgres_url"]  # the fixture: a throwaway PostgreSQL for this module


def _health(server: Server) -> dict[str, Any]:
    return dict(server.get("/health").json())


def _wait(what: str, ready: Any, seconds: float = 15) -> None:
    deadline = time.monotonic() + seconds
    while not ready():
        assert time.monotonic() < deadline, what
        time.sleep(0.1)


@pytest.mark.postgres
def test_a_room_goes_to_the_worker_its_sockets_reach(postgres_url: str, tmp_path: Path) -> None:
    a = Server(postgres_url, log=tmp_path / "a.log", extra=["--cluster"]).start()
    b = Server(postgres_url, log=tmp_path / "b.log", extra=["--cluster"]).start()
    try:
        room = a.create_room(players=2, name="Ann")  # created on a, which loads and owns it
        code = room["code"]
        assert _health(a)["rooms_owned"] == 1
        # routed by room: everything about the room now reaches worker b
        token_b = b.join(code, 1, "Bob")  # b commits the seat: a, with nobody in the room, leaves it
        ann, bob = b.client(code, room["token"]), b.client(code, token_b)
        _wait("worker a never left the room", lambda: _health(a)["rooms_loaded"] == 0)
        assert _health(a)["rooms_handed_over"] == 1 and _health(a)["rooms_owned"] == 0
        _wait("worker b never took the room", lambda: _health(b)["rooms_owned"] == 1)
        ann.send({"type": "start"})
        for player in (ann, bob):
            player.recv_until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing")
        clients: dict[int, Client] = {0: ann, 1: bob}
        for _ in range(6):
            assert advance(clients)
        assert _health(a)["rooms_loaded"] == 0  # a folds none of these moves

        # a socket on the "wrong" worker still works: a spectator and Ann's second device on a
        watcher = a.client(code)
        phone = a.client(code, room["token"])
        assert watcher.welcome["version"] == phone.welcome["version"] == ann.last["version"]  # type: ignore[index]
        assert _health(a)["rooms_loaded"] == 1  # loaded again, and kept while they are there
        clients = {0: phone, 1: bob}  # Ann plays on from worker a
        for _ in range(6):
            assert advance(clients)
        watcher.recv_until(lambda m: m["type"] == "state" and m["version"] == bob.last["version"])  # type: ignore[index]
        assert _health(a)["rooms_loaded"] == 1 and _health(a)["rooms_handed_over"] == 1
        while advance(clients):
            pass
        assert over(bob.last or {}) and over(phone.last or {})
        the_same_sound_record(code, b, a)
    finally:
        a.stop()
        b.stop()


def test_a_room_loads_as_of_its_row(tmp_path: Path) -> None:
    """An event committed between reading a room's row and its events (PostgreSQL's read
    committed lets the second read see it) is not loaded with it: the room is rebuilt as its row
    says, and the event reaches it as a notice. It raised "event log ends at 4, room row says 3"."""
    import sqlalchemy as sa

    from sequence_game.server.limits import Limits
    from sequence_game.server.manager import RoomManager
    from sequence_game.server.protocol import CreateRoom
    from sequence_game.server.rooms import rebuild
    from sequence_game.server.store import Store, events, rooms

    async def scenario() -> str:
        manager = RoomManager(store, limits=Limits())
        room, _token = await manager.create(CreateRoom(players=2, name="Ann"))
        await manager.take_seat(room, 1, "Bob")
        await manager.shutdown()
        return room.code

    store = Store(f"sqlite:///{tmp_path / 'load.db'}")
    store.migrate()
    code = asyncio.run(scenario())
    row = store.load_room(code)
    assert row is not None
    version = row.version
    with store.engine.begin() as conn:  # an event of another worker, its room row not yet read
        room_id = conn.execute(sa.select(rooms.c.id).where(rooms.c.code == code)).scalar_one()
        data = {"seat": 1, "name": "Bob", "text": "hi"}
        conn.execute(
            events.insert().values(room_id=room_id, n=version + 1, kind="chat", seat=1, data=data, at=0.0)
        )
    row = store.load_room(code)
    assert row is not None and [e.n for e in row.events][-1] == version
    assert rebuild(row).version == version
    store.close()


def test_a_takeover_during_a_start_keeps_its_deadline(tmp_path: Path) -> None:
    """A worker taking a room over folds what it missed and wakes its bots and timers; during a
    start's nonce gathering that cancelled the gathering's deadline, so a start whose people never
    answered waited for ever (seen in the load test once rooms changed workers)."""
    from sequence_game.server.limits import Limits
    from sequence_game.server.manager import RoomManager
    from sequence_game.server.protocol import CreateRoom, Hello, Start
    from sequence_game.server.seats import Connection
    from sequence_game.server.store import Store

    async def scenario() -> str:
        store = Store(f"sqlite:///{tmp_path / 'start.db'}")
        store.migrate()
        manager = RoomManager(store, limits=Limits(nonce_seconds=0.3))
        try:
            room, token0 = await manager.create(CreateRoom(players=2, name="Ann"))
            tokens = [token0, await manager.take_seat(room, 1, "Bob")]
            conns = [Connection(), Connection()]
            for conn, token in zip(conns, tokens, strict=True):  # neither will answer its nonce request
                room = await manager.connect(room, conn, Hello(type="hello", token=token))
            await manager.handle(room, conns[0], Start(type="start"))
            assert room.gathering is not None
            async with room.lock:  # what a takeover does once it has caught up (manager.tick)
                manager._after_game_change(room)
            for _ in range(100):
                if room.status == "playing":
                    break
                await asyncio.sleep(0.02)
            return room.status
        finally:
            await manager.shutdown()
            store.close()

    assert asyncio.run(scenario()) == "playing"
