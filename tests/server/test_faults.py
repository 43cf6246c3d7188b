"""Issue 42: rooms under faults. A seat nobody connects to, a stand-in racing its player's return,
and PostgreSQL restarting under two workers; each test failed before its fix.

Real servers (``sequence serve`` in a subprocess), real websockets, real databases: SQLite files,
and a throwaway PostgreSQL that this module starts, and restarts, itself.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import Client, Server, advance, free_port, my_turn
from .test_postgres import _as_postgres


def _playing(m: dict[str, Any]) -> bool:
    room = m.get("room")
    return m["type"] in ("welcome", "state") and isinstance(room, dict) and room["status"] == "playing"


def _event(kind: str, seat: int | None = None) -> Callable[[dict[str, Any]], bool]:
    def pred(m: dict[str, Any]) -> bool:
        ev = m.get("event") or {}
        return m["type"] == "state" and ev.get("kind") == kind and (seat is None or ev.get("seat") == seat)

    return pred


def _wait(what: Callable[[], bool], timeout: float, why: str) -> None:
    deadline = time.monotonic() + timeout
    while not what():
        assert time.monotonic() < deadline, why
        time.sleep(0.1)


def _log_kinds(server: Server, code: str) -> list[dict[str, Any]]:
    """The room's recent public events, as a fresh spectator's welcome has them."""
    watcher = server.client(code)
    try:
        return list(watcher.welcome["log"])
    finally:
        watcher.close()


# ----------------------------------------------------------------- bug 1: a seat nobody connects to


@pytest.mark.parametrize("how", ["http_only", "closed_in_lobby"])
def test_a_seat_whose_player_never_connects_gets_a_stand_in(server: Server, how: str) -> None:
    """Bob takes his seat over HTTP and never opens a socket (or opens one in the lobby and closes
    it before the start): after the grace period a bot plays for him. Before, the grace period
    started only when a socket closed during play, so the game waited for Bob for ever."""
    room = server.create_room(players=2, name="Ann", grace_seconds=0.5)
    code = room["code"]
    bob_token = server.join(code, 1, "Bob")
    if how == "closed_in_lobby":
        server.client(code, bob_token).close()
    ann = server.client(code, room["token"])
    ann.send({"type": "start"})
    ann.recv_until(_playing)
    away = ann.recv_until(_event("away", 1), timeout=30)
    assert away["room"]["seats"][1]["stand_in"] is True
    # the stand-in plays Bob's turns: Ann gets her turns and the game moves on
    clients = {0: ann}
    for _ in range(6):
        assert advance(clients)
    assert any((m.get("event") or {}).get("auto") == "stand_in" for m in ann.messages), "no stand-in move"
    ann.close()


def test_a_bot_room_nobody_joins_pauses_and_leaves_memory(tmp_path: Path) -> None:
    """ "Play a bot now" whose player never connects: once the grace period is over the seat is
    marked away, but no bot plays a game nobody is at; the room leaves memory, and the player who
    comes back later finds it as it was and plays on."""
    limits = ["--limit", "finished_seconds=0.5", "--limit", "sweep_seconds=0.2"]
    srv = Server(str(tmp_path / "bot.db"), log=tmp_path / "bot.log", extra=limits).start()
    try:
        room = srv.create_room(players=2, name="Ann", against="random", grace_seconds=0.5)
        code = room["code"]
        _wait(
            lambda: srv.get(f"/api/rooms/{code}").json()["seats"][0]["stand_in"],
            30,
            "the absent player's seat was never marked away",
        )
        version = srv.get(f"/api/rooms/{code}").json()["version"]
        _wait(lambda: srv.get("/health").json()["rooms_evicted"] >= 1, 30, "the abandoned room stayed")
        shown = srv.get(f"/api/rooms/{code}").json()  # loaded again: nothing was played meanwhile
        assert shown["version"] == version and shown["status"] == "playing"
        ann = srv.client(code, room["token"])
        assert ann.welcome["room"]["seats"][0]["stand_in"] is False  # back: her seat again
        assert ann.welcome["log"][-1]["kind"] == "back"
        for _ in range(4):  # Ann and the bot play on
            assert advance({0: ann})
        ann.close()
    finally:
        srv.stop()


# ----------------------------------------------------------------- bug 3: a stand-in after the return


def test_a_stand_in_never_moves_for_a_player_who_is_back(tmp_path: Path) -> None:
    """Bob leaves on his turn; after the grace period a stand-in starts on his move (waiting
    ``--bot-delay`` before it plays). Bob is back before it moves: the move is his, and no
    stand-in action follows his ``back``. Before, the stand-in played his turn anyway."""
    srv = Server(str(tmp_path / "race.db"), log=tmp_path / "race.log", bot_delay=4.0).start()
    try:
        room = srv.create_room(players=2, name="Ann", grace_seconds=0.5)
        code = room["code"]
        bob_token = srv.join(code, 1, "Bob")
        ann, bob = srv.client(code, room["token"]), srv.client(code, bob_token)
        ann.send({"type": "start"})
        ann.recv_until(_playing)
        bob.recv_until(_playing)
        clients = {0: ann, 1: bob}
        while True:  # on to Bob's turn
            assert ann.last is not None and ann.last["view"] is not None
            if ann.last["view"]["seats_to_act"] == [1]:
                break
            assert advance(clients)
        bob.close()
        ann.recv_until(_event("away", 1), timeout=30)
        away_at = time.monotonic()
        bob = srv.client(code, bob_token)  # back within the stand-in's delay
        assert bob.welcome["room"]["seats"][1]["stand_in"] is False
        mine = bob.welcome if my_turn(1)(bob.welcome) else bob.recv_until(my_turn(1), timeout=10)
        assert mine["view"]["seats_to_act"] == [1], "the stand-in moved for Bob after he was back"
        # give a stand-in that was already waiting the time to (wrongly) move: past its delay
        time.sleep(max(0.0, away_at + 5.0 - time.monotonic()))
        legal = list(mine["view"]["legal_actions"])
        bob.send({"type": "act", "action": legal[0], "version": mine["version"]})
        reply = bob.recv_until(lambda m: m["type"] == "error" or _event("action", 1)(m), timeout=20)
        assert reply["type"] == "state", reply  # refused: the stand-in had played Bob's turn
        assert "auto" not in reply["event"], reply["event"]
        kinds = _log_kinds(srv, code)
        after_back = kinds[max(i for i, e in enumerate(kinds) if e["kind"] == "back") :]
        assert not [e for e in after_back if e.get("auto") == "stand_in" and e["seat"] == 1], after_back
        ann.close()
        bob.close()
    finally:
        srv.stop()


# ----------------------------------------------------------------- bug 2: PostgreSQL restarts


class Postgres:
    """A throwaway PostgreSQL that the test can stop and start again (on the same port)."""

    def __init__(self) -> None:
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        if not found:
            pytest.skip("PostgreSQL binaries not found (apt-get install postgresql)")
        self.bindir = Path(found[-1]).parent
        if os.geteuid() == 0:
            import pwd

            try:
                pwd.getpwnam("postgres")
            except KeyError:
                pytest.skip("no 'postgres' user to run PostgreSQL as")
        self.base = Path(tempfile.mkdtemp(prefix="sequence-pgfault-"))
        self.data, sock = self.base / "data", self.base / "sock"
        sock.mkdir()
        if os.geteuid() == 0:
            shutil.chown(self.base, "postgres")
            shutil.chown(sock, "postgres")
        self.port = free_port()
        initdb = [str(self.bindir / "initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust"]
        subprocess.run(_as_postgres([*initdb, "-E", "UTF8"]), check=True, capture_output=True)
        self.opts = f"-p {self.port} -k {sock} -c listen_addresses=127.0.0.1 -c fsync=off"
        self.url = f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def _ctl(self, *args: str, check: bool = True) -> None:
        cmd = [str(self.bindir / "pg_ctl"), "-D", str(self.data), *args]
        subprocess.run(_as_postgres(cmd), check=check, capture_output=True, timeout=120)

    def start(self) -> None:
        self._ctl("-o", self.opts, "-l", str(self.base / "pg.log"), "-w", "-t", "90", "start")

    def stop(self, mode: str = "fast") -> None:
        self._ctl("-m", mode, "-w", "-t", "90", "stop", check=False)

    def remove(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.base, ignore_errors=True)


@pytest.fixture
def postgres() -> Iterator[Postgres]:
    pytest.importorskip("psycopg")
    pg = Postgres()
    pg.start()
    try:
        yield pg
    finally:
        pg.remove()


def _chat_crosses(sender: Client, receiver: Client, text: str) -> None:
    """``text`` sent on one worker reaches the other's socket (a refusal fails the test)."""
    sender.send({"type": "chat", "text": text})
    got = sender.recv_until(
        lambda m: m["type"] == "error" or (m["type"] == "chat" and m["chat"]["text"] == text)
    )
    assert got["type"] == "chat", got
    receiver.recv_until(lambda m: m["type"] == "chat" and m["chat"]["text"] == text, timeout=30)


def _healthy(server: Server) -> bool:
    try:
        return httpx.get(f"{server.http}/health", timeout=5).status_code == 200
    except httpx.HTTPError:
        return False


@pytest.mark.postgres
def test_updates_cross_workers_after_postgres_restarts(postgres: Postgres, tmp_path: Path) -> None:
    """Two workers, Ann on one and Bob on the other; PostgreSQL restarts. Afterwards chat and moves
    made on either worker reach the other's sockets, the first commit on each worker succeeds (a
    dead connection is noticed and opened again, not reported as ``server_error``), and a
    reconnect on either worker is welcomed with the room as stored, never a stale copy. Before,
    the first lines after the restart never crossed and a worker served an old version."""
    a = Server(postgres.url, log=tmp_path / "a.log", extra=["--cluster"]).start()
    b = Server(postgres.url, log=tmp_path / "b.log", extra=["--cluster"]).start()
    try:
        room = a.create_room(players=2, name="Ann", grace_seconds=120)
        code = room["code"]
        bob_token = b.join(code, 1, "Bob")
        ann, bob = a.client(code, room["token"]), b.client(code, bob_token)
        ann.send({"type": "start"})
        ann.recv_until(_playing)
        bob.recv_until(_playing)
        clients = {0: ann, 1: bob}
        for _ in range(4):
            assert advance(clients)
        _chat_crosses(ann, bob, "before the restart")

        postgres.stop("fast")
        # while the database is down a room in memory still answers, at once
        started = time.monotonic()
        assert a.get(f"/api/rooms/{code}").status_code == 200
        assert time.monotonic() - started < 5
        postgres.start()  # and at once, before the workers' listeners are back:

        _chat_crosses(ann, bob, "first line from a after the restart")
        _chat_crosses(bob, ann, "first line from b after the restart")
        for _ in range(4):  # moves on both workers cross too
            assert advance(clients)
        assert _healthy(a) and _healthy(b)
        assert ann.last is not None and bob.last is not None
        assert ann.last["version"] == bob.last["version"]
        version = ann.last["version"]
        for server, token in ((a, bob_token), (b, room["token"]), (a, room["token"]), (b, bob_token)):
            again = server.client(code, token)  # a reconnect, on either worker: never stale
            assert again.welcome["version"] >= version, (server.port, again.welcome["version"], version)
            again.close()
        ann.close()
        bob.close()
    finally:
        a.stop()
        b.stop()


@pytest.mark.postgres
def test_a_worker_that_lost_its_listener_welcomes_from_the_store(postgres: Postgres, tmp_path: Path) -> None:
    """The workers' LISTEN connections are cut (as a restart or a network fault does) and Ann moves
    on worker a at once: worker b has not heard of it, yet Bob reconnecting to b is welcomed with
    the room as stored, and his move goes through. Before, b welcomed him with its old copy
    (``version`` one behind) and refused his move as ``stale``."""
    import psycopg

    from sequence_game.server.store import conninfo

    a = Server(postgres.url, log=tmp_path / "la.log", extra=["--cluster"]).start()
    b = Server(postgres.url, log=tmp_path / "lb.log", extra=["--cluster"]).start()
    try:
        room = a.create_room(players=2, name="Ann", grace_seconds=120)
        code = room["code"]
        bob_token = b.join(code, 1, "Bob")
        ann, bob = a.client(code, room["token"]), b.client(code, bob_token)
        ann.send({"type": "start"})
        ann.recv_until(_playing)
        bob.recv_until(_playing)
        clients = {0: ann, 1: bob}
        while True:  # on to Ann's turn
            assert ann.last is not None and ann.last["view"] is not None
            if ann.last["view"]["seats_to_act"] == [0]:
                break
            assert advance(clients)
        bob.close()
        cut = "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%'"
        with psycopg.connect(conninfo(postgres.url), autocommit=True) as admin:
            assert len(admin.execute(cut).fetchall()) == 2  # one listener a worker
        legal = list(ann.last["view"]["legal_actions"])
        ann.send({"type": "act", "action": legal[0], "version": ann.last["version"]})
        moved = ann.recv_until(_event("action", 0))
        bob = b.client(code, bob_token)  # on the worker that missed the notice
        assert bob.welcome["version"] == moved["version"], (bob.welcome["version"], moved["version"])
        mine = bob.welcome if my_turn(1)(bob.welcome) else bob.recv_until(my_turn(1), timeout=30)
        bob.send({"type": "act", "action": mine["view"]["legal_actions"][0], "version": mine["version"]})
        reply = bob.recv_until(lambda m: m["type"] == "error" or _event("action", 1)(m), timeout=30)
        assert reply["type"] == "state", reply
        ann.recv_until(_event("action", 1), timeout=30)
        ann.close()
        bob.close()
    finally:
        a.stop()
        b.stop()


# ----------------------------------------------------------------- gaps: secrets in logs, bodies, names


def test_debug_logs_hold_no_seat_token(tmp_path: Path) -> None:
    """``--log-level debug`` logs every websocket frame: a hello's seat token was among them, so
    anyone reading the log could take the seat. No token (nor its digest) is ever written."""
    log = tmp_path / "debug.log"
    srv = Server(str(tmp_path / "debug.db"), log=log, extra=["--log-level", "debug"]).start()
    try:
        room = srv.create_room(players=2, name="Ann")
        code = room["code"]
        bob_token = srv.join(code, 1, "Bob")
        ann, bob = srv.client(code, room["token"]), srv.client(code, bob_token)
        ann.send({"type": "chat", "text": "a line to be logged"})
        bob.recv_until(lambda m: m["type"] == "chat")
        ann.close()
        bob.close()
    finally:
        srv.stop()
    from sequence_game.server.seats import hash_token

    text = log.read_text(errors="replace")
    assert "hello" in text or "TEXT" in text or "websocket" in text.lower(), "nothing was logged at debug"
    for token in (room["token"], bob_token):
        assert token not in text, "a seat token was logged"
        assert hash_token(token) not in text, "a seat token's digest was logged"


def test_a_chunked_body_over_the_limit_is_too_large_and_a_blank_name_is_refused(server: Server) -> None:
    """A 40 KiB body sent chunked (no ``Content-Length`` to refuse it by) is cut off at the limit
    and answered 413 ``too_large``: it was 400 ``bad_json`` (FastAPI took the cut for bad JSON).
    A name of only spaces is refused (422), when creating a room and when taking a seat."""

    def chunks() -> Iterator[bytes]:
        yield b'{"players": 2, "name": "'
        for _ in range(40):
            yield b"x" * 1024
        yield b'"}'

    r = httpx.post(
        f"{server.http}/api/rooms", content=chunks(), headers={"content-type": "application/json"}, timeout=30
    )
    assert r.status_code == 413 and r.json()["code"] == "too_large", r.text
    r = server.post("/api/rooms", {"players": 2, "name": "   "})
    assert r.status_code == 422 and r.json()["code"] == "bad_request", r.text
    code = server.create_room(players=2, name="Ann")["code"]
    r = server.post(f"/api/rooms/{code}/seats/1", {"name": " \t "})
    assert r.status_code == 422 and r.json()["code"] == "bad_request", r.text
    assert server.get(f"/api/rooms/{code}").json()["seats"][1]["kind"] == "empty"


@pytest.mark.postgres
def test_the_database_down_is_a_clear_503(postgres: Postgres, tmp_path: Path) -> None:
    """PostgreSQL stops: creating a room and looking up a room not in memory answer 503
    ``unavailable`` with a message at once (they were 500s with a traceback in the log); a room
    in memory still answers; once the database is back, everything works again."""
    log = tmp_path / "down.log"
    srv = Server(postgres.url, log=log).start()
    try:
        code = srv.create_room(players=2, name="Ann")["code"]
        postgres.stop("fast")
        started = time.monotonic()
        for method, path in (("post", "/api/rooms"), ("get", "/api/rooms/NOSUCH")):
            r = srv.post(path, {"players": 2}) if method == "post" else srv.get(path)
            assert r.status_code == 503, (path, r.status_code, r.text)
            assert r.json()["code"] == "unavailable" and r.json()["message"], r.text
        assert srv.get(f"/api/rooms/{code}").status_code == 200
        assert time.monotonic() - started < 15
        postgres.start()
        _wait(lambda: srv.post("/api/rooms", {"players": 2}).status_code == 201, 60, "no room after")
        assert "Traceback" not in log.read_text(errors="replace")
    finally:
        srv.stop()
