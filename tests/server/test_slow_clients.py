"""Issue 42: slow and idle clients are timed out, and one address cannot hold every connection.

Each test failed before ``server/conn_guard.py``: a connection that sent nothing, half its headers,
or a body a byte at a time was kept for ever, and one address could open connections until the
process ran out of file descriptors. The tests wait for the server's answer, never on a clock of
their own: the deadlines are short (1-2 s), the bounds on the waits generous (a busy machine).

A client picks its own address on the loopback network (127.0.0.2, ...), so the cap of one does
not touch the test's other requests, made from 127.0.0.1.
"""

from __future__ import annotations

import contextlib
import json
import select
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from .conftest import Server

#: The longest any wait here may take before the test calls the server stuck.
BOUND = 120.0


def open_from(server: Server, source: str) -> socket.socket:
    """A TCP connection to ``server`` from the loopback address ``source``."""
    sock = socket.socket()
    sock.bind((source, 0))
    sock.settimeout(BOUND)
    sock.connect(("127.0.0.1", server.port))
    return sock


def read_to_close(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (a reset counts as a close)."""
    data = b""
    with contextlib.suppress(ConnectionResetError):
        while chunk := sock.recv(4096):
            data += chunk
    return data


def health(server: Server) -> int:
    return httpx.get(f"{server.http}/health", timeout=BOUND).status_code


@pytest.fixture
def strict(tmp_path: Path) -> Iterator[Server]:
    """A server with short deadlines and room for 3 connections an address."""
    extra = ["--header-seconds", "1", "--body-seconds", "2", "--connections-per-address", "3"]
    srv = Server(str(tmp_path / "s.db"), log=tmp_path / "s.log", extra=extra).start()
    yield srv
    srv.stop()


@pytest.fixture
def capped(tmp_path: Path) -> Iterator[Server]:
    """A server with room for 3 connections an address and a long header deadline, so that
    silent connections stay until the test closes them."""
    extra = ["--header-seconds", "600", "--connections-per-address", "3"]
    srv = Server(str(tmp_path / "c.db"), log=tmp_path / "c.log", extra=extra).start()
    yield srv
    srv.stop()


def ask_health(sock: socket.socket) -> bytes:
    """``GET /health`` on ``sock``: the first bytes of the answer, or ``b""`` if it was refused."""
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: example\r\n\r\n")
        return sock.recv(4096)
    return b""


def served_again(server: Server, source: str) -> None:
    """Wait until ``source`` is served again (the server has seen its connections close)."""
    deadline = time.monotonic() + BOUND
    while True:
        with open_from(server, source) as again:
            if ask_health(again).startswith(b"HTTP/1.1 200 "):
                return
        assert time.monotonic() < deadline, "closed connections were never given back"
        time.sleep(0.05)


def test_a_connection_that_sends_nothing_is_closed(strict: Server) -> None:
    with open_from(strict, "127.0.0.2") as sock:
        assert read_to_close(sock) == b""  # closed without a word: it asked nothing


def test_headers_that_never_end_get_408(strict: Server) -> None:
    with open_from(strict, "127.0.0.2") as sock:
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: example\r\nX-Slow: ")
        answer = read_to_close(sock)
    assert answer.startswith(b"HTTP/1.1 408 "), answer[:80]


def test_a_body_a_byte_at_a_time_is_cut_off(strict: Server) -> None:
    """A 10,000-byte body at a byte every 0.2 s would take half an hour; the server answers 408
    after its deadline, long before."""
    with open_from(strict, "127.0.0.2") as sock:
        sock.sendall(
            b"POST /api/rooms HTTP/1.1\r\nHost: example\r\ncontent-type: application/json\r\n"
            b"content-length: 10000\r\n\r\n"
        )
        sent = 0
        deadline = time.monotonic() + BOUND
        while time.monotonic() < deadline and sent < 10_000:
            readable, _, _ = select.select([sock], [], [], 0.2)
            if readable:
                break
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                sock.sendall(b" ")
            sent += 1
        answer = read_to_close(sock)
    assert sent < 10_000
    assert answer.startswith(b"HTTP/1.1 408 "), answer[:80]


def test_a_keep_alive_connection_gets_its_next_request_on_time(strict: Server) -> None:
    """The deadline starts again for each request: a quick client is never cut off."""
    with httpx.Client(base_url=strict.http, timeout=BOUND) as client:
        for _ in range(3):
            assert client.get("/health").status_code == 200


def test_one_address_may_hold_only_so_many_connections(capped: Server) -> None:
    """Three silent connections from one address fill its place; a fourth is refused at once (the
    server accepts connections in order, so it has counted the three first)."""
    held = [open_from(capped, "127.0.0.3") for _ in range(3)]
    try:
        with open_from(capped, "127.0.0.3") as fourth:
            assert ask_health(fourth) == b""  # refused before a byte was read
            assert read_to_close(fourth) == b""
        assert health(capped) == 200  # everyone else is served
    finally:
        for sock in held:
            sock.close()
    served_again(capped, "127.0.0.3")


def test_websockets_count_towards_the_cap_until_they_close(capped: Server) -> None:
    code = capped.create_room(players=2, name="Ann")["code"]
    sockets = [
        connect(f"{capped.ws}/ws/{code}", sock=open_from(capped, "127.0.0.4"), open_timeout=BOUND)
        for _ in range(3)
    ]
    try:
        for ws in sockets:  # each is a websocket now, answered by the room
            ws.send(json.dumps({"type": "hello", "token": None}))
            assert json.loads(ws.recv(timeout=BOUND))["type"]
        with open_from(capped, "127.0.0.4") as fourth:
            assert ask_health(fourth) == b""
    finally:
        for ws in sockets:
            ws.close()
    served_again(capped, "127.0.0.4")


def test_bad_settings_are_refused(tmp_path: Path) -> None:
    srv = Server(str(tmp_path / "b.db"), extra=["--header-seconds", "0"])
    with pytest.raises(RuntimeError, match="exited"):
        srv.start()
