"""Issue 42: limits per client address that hold over every worker, a client address that only a
configured proxy may name, guessing room codes limited, and longer codes for private rooms.

Each test failed before its change: the room buckets lived in each worker's memory (three workers
let one address create three times the rooms), uvicorn trusted ``X-Forwarded-For`` from loopback
(anyone on the host picked their own bucket), a code that does not exist was answered 404 as often
as anyone asked, and a private room's code had 6 letters.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from .conftest import Server
from .test_postgres import postgres_url

__all__ = ["postgres_url"]  # the fixture: a throwaway PostgreSQL for the tests that need one


def limits(**values: float) -> list[str]:
    return [arg for name, value in values.items() for arg in ("--limit", f"{name}={value:g}")]


def create(server: Server, client: str | None = None, header: str = "x-forwarded-for", **body: Any) -> int:
    """Create a room as ``client`` (through the header a proxy sets); the HTTP status."""
    headers = {header: client} if client else {}
    r = httpx.post(f"{server.http}/api/rooms", json={"players": 2, **body}, headers=headers, timeout=60)
    return r.status_code


def look(server: Server, code: str, client: str) -> httpx.Response:
    return httpx.get(f"{server.http}/api/rooms/{code}", headers={"x-forwarded-for": client}, timeout=60)


def socket_answer(server: Server, code: str, client: str, token: str | None = None) -> dict[str, Any]:
    """The first message a socket to ``code`` gets after its hello, as ``client``."""
    with connect(
        f"{server.ws}/ws/{code}", additional_headers={"x-forwarded-for": client}, open_timeout=60
    ) as ws:
        with contextlib.suppress(ConnectionClosed):  # a refusal comes at once, before any hello
            ws.send(json.dumps({"type": "hello", "token": token}))
        answer = ws.recv(timeout=60)
    assert isinstance(answer, str)
    return dict(json.loads(answer))


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[Server]:
    """A server behind a proxy on loopback, with small limits."""
    extra = ["--trusted-proxy", "127.0.0.1"]
    extra += limits(rooms_burst=2, rooms_per_minute=1, guesses_burst=3, guesses_per_minute=1)
    srv = Server(str(tmp_path / "p.db"), log=tmp_path / "p.log", extra=extra).start()
    yield srv
    srv.stop()


def test_a_forwarded_address_from_loopback_is_not_trusted_by_default(tmp_path: Path) -> None:
    """Without ``--trusted-proxy`` the peer is the client, whatever ``X-Forwarded-For`` says:
    uvicorn used to believe it from 127.0.0.1, so a client on the host chose its bucket."""
    extra = limits(rooms_burst=2, rooms_per_minute=1)
    srv = Server(str(tmp_path / "d.db"), log=tmp_path / "d.log", extra=extra).start()
    try:
        assert [create(srv, "198.51.100.1") for _ in range(2)] == [201, 201]
        assert create(srv, "198.51.100.2") == 429  # the same peer: the same bucket
        assert create(srv, "198.51.100.3", header="x-real-ip") == 429
    finally:
        srv.stop()


def test_a_trusted_proxy_names_the_client(proxied: Server) -> None:
    assert [create(proxied, "198.51.100.1") for _ in range(3)] == [201, 201, 429]
    assert create(proxied, "198.51.100.2") == 201  # another client behind the same proxy
    assert create(proxied, "198.51.100.4", header="x-real-ip") == 201  # nginx's $remote_addr
    # a client's own X-Forwarded-For is read from the right: the proxy appended the real peer
    assert create(proxied, "203.0.113.9, 198.51.100.1") == 429
    assert create(proxied, "2001:db8::1") == 201
    assert create(proxied, "2001:db8::2") == 201
    assert create(proxied, "2001:db8::3") == 429  # one /64, one bucket


def test_guessing_room_codes_is_limited_and_the_refusal_reveals_nothing(proxied: Server) -> None:
    r = httpx.post(
        f"{proxied.http}/api/rooms",
        json={"players": 2, "name": "Ann"},
        headers={"x-forwarded-for": "198.51.100.1"},
        timeout=60,
    )
    assert r.status_code == 201
    code, token = r.json()["code"], r.json()["token"]
    guesser = "203.0.113.66"
    assert [look(proxied, f"NOPE{i}X", guesser).status_code for i in range(2)] == [404, 404]
    assert socket_answer(proxied, "NOPE9X", guesser)["code"] == "unknown_room"  # sockets count too
    refused = look(proxied, "NOPE3X", guesser)
    assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
    # out of guesses, a room that exists is refused alike: the answer says nothing of the code
    found = look(proxied, code, guesser)
    assert found.status_code == 429 and found.json() == refused.json()
    join = httpx.post(
        f"{proxied.http}/api/rooms/{code}/seats/1",
        json={"name": "Eve"},
        headers={"x-forwarded-for": guesser},
        timeout=60,
    )
    assert join.status_code == 429
    assert socket_answer(proxied, code, guesser)["code"] == "rate_limited"
    # anyone else is served as ever, its own misses counted apart
    assert look(proxied, code, "198.51.100.1").status_code == 200
    assert look(proxied, "NOPE1X", "198.51.100.1").status_code == 404
    assert socket_answer(proxied, code, "198.51.100.1", token)["type"] == "welcome"


def test_private_rooms_get_longer_codes_and_old_codes_keep_working(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    srv = Server(str(db), log=tmp_path / "c.log").start()
    try:
        private = srv.create_room(players=2, name="Ann")
        public = srv.create_room(players=2, name="Bob", public=True)
        bot = srv.create_room(players=2, name="Cid", against="random")
        assert len(private["code"]) == 10 and len(bot["code"]) == 10
        assert len(public["code"]) == 6
    finally:
        srv.stop()
    with sqlite3.connect(db) as conn:  # a private room made before, with a 6-letter code
        conn.execute("UPDATE rooms SET code = 'OLDPRV' WHERE code = ?", (private["code"],))
    srv = Server(str(db), log=tmp_path / "c.log").start()
    try:
        assert srv.get("/api/rooms/OLDPRV").json()["seats"][0]["name"] == "Ann"
        assert srv.get("/api/rooms/oldprv").status_code == 200  # any case, as before
        ann = srv.client("OLDPRV", private["token"])
        assert ann.welcome["you"]["seat"] == 0
        ann.close()
    finally:
        srv.stop()


# ------------------------------------------------------------------ several workers (PostgreSQL)


@pytest.mark.postgres
def test_room_creation_is_counted_over_every_worker(postgres_url: str, tmp_path: Path) -> None:
    extra = ["--cluster", "--trusted-proxy", "127.0.0.1", *limits(rooms_burst=3, rooms_per_minute=1)]
    a = Server(postgres_url, log=tmp_path / "a.log", extra=extra).start()
    b = Server(postgres_url, log=tmp_path / "b.log", extra=extra).start()
    try:
        made = [create(server, "198.51.100.7") for server in (a, b, a, b, a, b)]
        assert made.count(201) == 3, made  # was 6: each worker had its own bucket
        assert made[3:] == [429, 429, 429]
        assert create(b, "198.51.100.8") == 201  # another address has its own
    finally:
        a.stop()
        b.stop()


@pytest.mark.postgres
def test_guesses_are_counted_over_every_worker(postgres_url: str, tmp_path: Path) -> None:
    extra = ["--cluster", "--trusted-proxy", "127.0.0.1", *limits(guesses_burst=4, guesses_per_minute=1)]
    a = Server(postgres_url, log=tmp_path / "ga.log", extra=extra).start()
    b = Server(postgres_url, log=tmp_path / "gb.log", extra=extra).start()
    try:
        guesser = "203.0.113.77"
        tried = [look(server, f"GUESS{i}", guesser).status_code for i, server in enumerate((a, b, a, b))]
        assert tried == [404, 404, 404, 404]
        assert look(a, "GUESS8", guesser).status_code == 429
        assert look(b, "GUESS9", guesser).status_code == 429  # the other worker counted them too
        assert socket_answer(b, "GUESSA", guesser)["code"] == "rate_limited"
    finally:
        a.stop()
        b.stop()
