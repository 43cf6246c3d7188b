"""The PostgreSQL path: a real PostgreSQL server (Debian's packages), started by the test itself.

Skipped, with the reason, where the binaries are absent; CI installs ``postgresql`` with apt.
Set ``SEQUENCE_TEST_POSTGRES_URL`` to use an existing server instead.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from sequence_game.records import replay

from .conftest import Server, advance, free_port

pytestmark = pytest.mark.postgres


def _as_postgres(cmd: list[str]) -> list[str]:
    """initdb refuses to run as root: run as the ``postgres`` user when we are root."""
    if os.geteuid() != 0:
        return cmd
    runuser = shutil.which("runuser")
    if runuser is None:
        pytest.skip("running as root without runuser: cannot start PostgreSQL as an unprivileged user")
    return [runuser, "-u", "postgres", "--", *cmd]


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    if url := os.environ.get("SEQUENCE_TEST_POSTGRES_URL"):
        yield url
        return
    pytest.importorskip("psycopg")
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        pytest.skip(
            "PostgreSQL binaries not found (apt-get install postgresql); skipping the PostgreSQL path"
        )
    bindir = Path(found[-1]).parent
    if os.geteuid() == 0:
        try:
            import pwd

            pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("no 'postgres' user to run PostgreSQL as")
    base = Path(tempfile.mkdtemp(prefix="sequence-pg-"))
    data, sock = base / "data", base / "sock"
    sock.mkdir()
    if os.geteuid() == 0:
        shutil.chown(base, "postgres")
        shutil.chown(sock, "postgres")
    port = free_port()
    subprocess.run(
        _as_postgres(
            [str(bindir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8"]
        ),
        check=True,
        capture_output=True,
    )
    opts = f"-p {port} -k {sock} -c listen_addresses=127.0.0.1 -c fsync=off"
    ctl = str(bindir / "pg_ctl")
    subprocess.run(
        _as_postgres([ctl, "-D", str(data), "-o", opts, "-l", str(base / "pg.log"), "-w", "start"]),
        check=True,
        capture_output=True,
    )
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            _as_postgres([ctl, "-D", str(data), "-m", "immediate", "stop"]), capture_output=True, check=False
        )
        shutil.rmtree(base, ignore_errors=True)


def test_postgres_game_survives_a_restart(postgres_url: str, tmp_path: Path) -> None:
    first = Server(postgres_url, log=tmp_path / "pg-first.log").start()
    try:
        assert first.get("/health").json()["db"] == "ok"
        room = first.create_room(players=2, name="Ann")
        code, token = room["code"], room["token"]
        clients = {0: first.client(code, token)}
        clients[0].send({"type": "bot", "seat": 1, "level": "random"})
        clients[0].send({"type": "start"})
        clients[0].recv_until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing")
        events = 0
        # stop on our own turn: were the bot to act next, its move could land after ``before``
        while events < 6 or clients[0].last["view"]["seats_to_act"][0] == 1:
            assert advance(clients)
            events += 1
        before = clients[0].last
    finally:
        first.kill()
    second = Server(postgres_url, log=tmp_path / "pg-second.log").start()  # migrations are idempotent
    try:
        clients = {0: second.client(code, token)}
        assert clients[0].welcome["view"] == before["view"]
        while advance(clients):
            pass
        record = second.get(f"/api/rooms/{code}/record").json()
        assert "result" in record, record  # the reply itself when it is an error
        assert record["result"]["end"] in ("sequences", "stuck"), record["result"]
        result = replay(record)
        assert result.ok, result
    finally:
        second.stop()


def test_postgres_refuses_a_nul_in_a_name_and_keeps_no_room_without_a_host(
    postgres_url: str, tmp_path: Path
) -> None:
    import httpx
    import sqlalchemy as sa

    server = Server(postgres_url, log=tmp_path / "pg-nul.log").start()
    engine = sa.create_engine(postgres_url)
    try:
        with engine.connect() as conn:
            count = (
                "SELECT count(*) FROM rooms r WHERE NOT EXISTS (SELECT 1 FROM seats s WHERE s.room_id = r.id)"
            )
            hostless = conn.execute(sa.text(count)).scalar()
        headers = {"content-type": "application/json"}
        r = httpx.post(f"{server.http}/api/rooms", content='{"name": "A\\u0000B"}', headers=headers)
        assert r.status_code == 422 and r.json()["code"] == "bad_request", r.text  # was: a 500
        room = server.create_room(players=2, name="Ann")
        r = httpx.post(
            f"{server.http}/api/rooms/{room['code']}/seats/1", content='{"name": "\\u0000"}', headers=headers
        )
        assert r.status_code == 422, r.text
        host = server.client(room["code"], room["token"])
        assert host.error('{"type": "chat", "text": "a\\u0000b"}')["code"] == "bad_message"
        host.send({"type": "chat", "text": "still here"})
        assert host.recv_until(lambda m: m["type"] == "chat")["chat"]["text"] == "still here"
        host.close()
        with engine.connect() as conn:
            assert conn.execute(sa.text(count)).scalar() == hostless  # no room was left without its host
    finally:
        engine.dispose()
        server.stop()


def test_a_group_commit_refuses_only_its_stale_event(postgres_url: str) -> None:
    """The events of one loop turn go as one statement (one transaction); when one of them is
    stale (its number is taken), the others are committed alone and only it is refused."""
    import asyncio

    from sqlalchemy.exc import IntegrityError

    from sequence_game.server.store import EventRow, Store

    store = Store(postgres_url)
    store.migrate()

    async def scenario() -> list[BaseException | None]:
        for code in ("GROUPA", "GROUPB"):
            store.create_room(code, {"players": 2}, host_seat=0)
        first = store.submit("GROUPA", EventRow(1, "seed", None, {"seed": "00"}))
        assert first is not None
        await first  # alone: nothing else was queued
        done = [
            store.submit("GROUPA", EventRow(2, "chat", 0, {"text": "one", "name": "Ann"})),
            store.submit("GROUPA", EventRow(1, "chat", 0, {"text": "stale", "name": "Ann"})),
            store.submit("GROUPB", EventRow(1, "seed", None, {"seed": "01"})),
        ]
        results = await asyncio.gather(*(d for d in done if d is not None), return_exceptions=True)
        return [r if isinstance(r, BaseException) else None for r in results]

    try:
        results = asyncio.run(scenario())
        assert results[0] is None and results[2] is None
        assert isinstance(results[1], IntegrityError)
        room_a, room_b = store.load_room("GROUPA"), store.load_room("GROUPB")
        assert room_a is not None and room_b is not None
        assert [(e.n, e.kind) for e in room_a.events] == [(1, "seed"), (2, "chat")]
        assert room_a.version == 2 and room_b.version == 1
        assert store.groups == (3, 3)  # the group of three failed whole; two of them then went alone
    finally:
        store.close()


def test_a_group_commit_mixes_plain_events_and_events_with_parts_of_their_own(postgres_url: str) -> None:
    """One statement commits every event of a loop turn: the plain ones (each a row of the group's
    JSON array: the event, its room's version, its NOTIFY) beside one that also sets its room's
    fields and a seat (its own ``WITH`` parts); names with quotes, a backslash and newlines
    arrive as sent."""
    import asyncio

    import psycopg

    from sequence_game.server.store import NOTIFY_CHANNEL, EventRow, SeatRow, Store, conninfo

    store = Store(postgres_url)
    store.migrate()
    store.notify = True
    odd = 'An "odd" \\ name\nline two'

    async def scenario() -> None:
        for code in ("MIXEDA", "MIXEDB", "MIXEDC"):
            store.create_room(code, {"players": 2}, host_seat=0)
        done = [
            store.submit("MIXEDA", EventRow(1, "chat", 0, {"text": odd, "name": "Ann"})),
            store.submit(
                "MIXEDB",
                EventRow(1, "seat", 1, {"seat": 1, "kind": "human", "name": odd}),
                room={"status": "over", "result": {"winner": 1, "end": "sequences"}},
                seat_rows=[SeatRow(1, "human", odd, "ab" * 32, None)],
            ),
            store.submit("MIXEDC", EventRow(1, "seed", None, {"seed": "02"})),
        ]
        await asyncio.gather(*(d for d in done if d is not None))

    with psycopg.connect(conninfo(postgres_url), autocommit=True) as listener:
        listener.execute(f"LISTEN {NOTIFY_CHANNEL}")
        try:
            asyncio.run(scenario())
            assert store.groups == (3, 1)  # one statement for the three
            a, b, c = (store.load_room(code) for code in ("MIXEDA", "MIXEDB", "MIXEDC"))
            assert a is not None and b is not None and c is not None
            assert [(r.version, r.status) for r in (a, b, c)] == [(1, "lobby"), (1, "over"), (1, "lobby")]
            assert a.events[0].data == {"text": odd, "name": "Ann"}
            assert b.result == {"winner": 1, "end": "sequences"}
            assert [(s.seat, s.name, s.token_hash) for s in b.seats] == [(1, odd, "ab" * 32)]
            assert [e.kind for e in c.events] == ["seed"]
            heard = [n.payload for n in listener.notifies(timeout=5, stop_after=3)]
            assert sorted(p.split(" ", 1)[0] for p in heard) == ["MIXEDA:1", "MIXEDB:1", "MIXEDC:1"]
        finally:
            store.close()
