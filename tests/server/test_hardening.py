"""Issue 16: the server against abuse. Each bug found by playing as an attacker has a test here that
failed before its fix; each limit is exercised against a real server with small limits."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from .conftest import Client, Server, advance, over

#: Small limits so a test reaches them in a few messages.
SMALL = [
    "--limit", "chat_burst=3",
    "--limit", "chat_rate=0.01",
    "--limit", "room_chat_burst=5",
    "--limit", "room_chat_rate=0.01",
    "--limit", "room_chat_lines=8",
    "--limit", "rooms_burst=40",
    "--limit", "hello_seconds=1.5",
]  # fmt: skip


@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("limited")
    srv = Server(str(tmp / "limited.db"), log=tmp / "server.log", extra=[*SMALL, "--api-docs"]).start()
    yield srv
    srv.stop()


def seat_public(server: Server, code: str, seat: int) -> dict[str, object]:
    return dict(server.get(f"/api/rooms/{code}").json()["seats"][seat])


# ----------------------------------------------------------------------------- bugs 1-5


def test_bug1_a_seat_left_in_the_lobby_and_taken_again_still_gets_its_grace_period(server: Server) -> None:
    room = server.create_room(players=2, name="Ann", grace_seconds=0.5)
    code = room["code"]
    host = server.client(code, room["token"])
    bob = server.client(code, server.join(code, 1, "Bob"))
    bob.send({"type": "leave"})
    left = bob.recv_until(lambda m: m["type"] == "state" and m["room"]["seats"][1]["kind"] == "empty")
    assert left["you"]["seat"] is None  # Bob's socket stays open, as a spectator
    assert seat_public(server, code, 1)["connected"] is False  # was True: an empty seat "connected"
    cid = server.client(code, server.join(code, 1, "Cid"))
    assert cid.welcome["you"]["seat"] == 1
    host.send({"type": "start"})
    host.recv_until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing")
    cid.close()  # Cid's connection drops: after the grace period a bot plays for Cid
    away = host.recv_until(lambda m: m["type"] == "state" and (m["event"] or {}).get("kind") == "away", 15)
    assert away["event"]["seat"] == 1 and away["room"]["seats"][1]["stand_in"] is True
    assert seat_public(server, code, 1)["connected"] is False
    bob.close()
    host.close()


def test_bug2_deeply_nested_json_is_bad_json_and_the_socket_stays_open(server: Server) -> None:
    room = server.create_room(players=2)
    me = server.client(room["code"], room["token"])
    assert me.error("[" * 2000 + "]" * 2000)["code"] == "bad_json"  # was: the socket closed
    assert me.error('{"type": "chat", "text": ' + "[" * 1500 + "]" * 1500 + "}")["code"] == "bad_json"
    me.send({"type": "ping"})
    assert me.recv_until(lambda m: m["type"] in ("pong", "error"))["type"] == "pong"
    # the HTTP API: a deeply nested body is a 400 bad_json, not a 500
    r = httpx.post(
        f"{server.http}/api/rooms",
        content="[" * 5000 + "]" * 5000,
        headers={"content-type": "application/json"},
        timeout=10,
    )
    assert r.status_code == 400 and r.json()["code"] == "bad_json", r.text
    me.close()


@pytest.mark.parametrize("bad", ["A\x00B", "tab\x07bell", "\ud800"])
def test_bug3_control_characters_in_names_are_refused_before_anything_is_stored(
    server: Server, bad: str
) -> None:
    body = json.dumps({"players": 2, "name": bad})  # json.dumps escapes them: valid JSON
    r = httpx.post(f"{server.http}/api/rooms", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json()["code"] == "bad_request", r.text
    room = server.create_room(players=2, name="Ann")
    r = httpx.post(
        f"{server.http}/api/rooms/{room['code']}/seats/1",
        content=json.dumps({"name": bad}),
        headers={"content-type": "application/json"},
    )
    assert r.status_code == 422, r.text
    assert seat_public(server, room["code"], 1)["kind"] == "empty"
    host = server.client(room["code"], room["token"])
    assert host.error({"type": "chat", "text": f"hi {bad}"})["code"] == "bad_message"
    host.close()


def test_bug4_the_hello_timeout_is_absolute(limited: Server) -> None:
    room = limited.create_room(players=2)
    junk = limited.client(room["code"], hello=False)
    opened = time.monotonic()
    replies: list[dict[str, object]] = []
    closed = False
    while not closed and time.monotonic() - opened < 8:  # hello_seconds is 1.5: it stayed open before
        try:
            junk.send({"type": "ping"})
            with contextlib.suppress(TimeoutError):
                replies.append(junk.recv(timeout=0.5))
        except ConnectionClosed:
            closed = True
    assert closed, "a socket that never said hello is still open"
    with contextlib.suppress(ConnectionClosed):
        while True:  # what arrived before the close
            replies.append(junk.recv(timeout=1))
    assert replies[-1]["code"] == "no_hello" and "in time" in str(replies[-1]["message"]), replies
    assert time.monotonic() - opened < 5


def test_bug5_spectators_may_not_chat(server: Server) -> None:
    room = server.create_room(players=2)
    watcher = server.client(room["code"])
    assert watcher.error({"type": "chat", "text": "hello"})["code"] == "not_seated"
    # the page hides the chat box from spectators: see test_browser's spectator test
    watcher.close()


# ----------------------------------------------------------------------------- 6: chat


def replies(client: Client, seat: int, count: int) -> list[dict[str, Any]]:
    """The answers to ``client``'s next ``count`` chat lines: its own line coming back, or a
    refusal. Waits on those answers, not on a clock, so a busy machine only makes it slower."""
    out: list[dict[str, Any]] = []
    while len(out) < count:
        msg = client.recv_until(
            lambda m: m["type"] == "error" or (m["type"] == "chat" and m["chat"]["seat"] == seat)
        )
        out.append(msg)
    return out


def test_chat_is_rate_limited_per_socket_and_per_room_and_capped_per_room(limited: Server) -> None:
    room = limited.create_room(players=3, name="Ann")
    code = room["code"]
    ann = limited.client(code, room["token"])
    bob = limited.client(code, limited.join(code, 1, "Bob"))
    for i in range(10):  # a flood from one socket: 3 lines pass (chat_burst), the rest are refused
        ann.send({"type": "chat", "text": f"line {i}"})
    got = replies(ann, 0, 10)
    assert [m["chat"]["text"] for m in got if m["type"] == "chat"] == ["line 0", "line 1", "line 2"]
    assert [m["code"] for m in got if m["type"] == "error"] == ["rate_limited"] * 7
    for i in range(3):  # Bob has his own 3, but the room only 2 more (room_chat_burst=5)
        bob.send({"type": "chat", "text": f"bob {i}"})
    got = replies(bob, 1, 3)
    assert [m["chat"]["text"] for m in got if m["type"] == "chat"][-2:] == ["bob 0", "bob 1"]
    assert [m["code"] for m in got if m["type"] == "error"] == ["rate_limited"]
    # the seed's commitment, two seats, five lines
    assert limited.get(f"/api/rooms/{code}").json()["version"] == 1 + 2 + 5
    assert ann.error({"type": "chat", "text": "x" * 301})["code"] == "bad_message"  # length cap
    ann.close()
    bob.close()


def test_usr1_writes_every_threads_stack_to_the_log_and_the_server_goes_on(tmp_path: Path) -> None:
    """What a test (or an operator) sees of a server that stopped answering: ``kill -USR1`` makes
    it write every thread's stack to its log, and it keeps serving."""
    srv = Server(str(tmp_path / "dump.db")).start()
    try:
        told = srv.post_mortem()
        assert "still running" in told
        assert "most recent call first" in told and "uvicorn" in told  # the event loop's thread
        assert srv.get("/health").json()["ok"]
    finally:
        srv.stop()
    assert srv.log is None  # the log the harness made for it is gone with it


def test_chat_store_per_room_is_capped(tmp_path: Path) -> None:
    srv = Server(
        str(tmp_path / "cap.db"), extra=["--limit", "room_chat_lines=4", "--limit", "room_chat_burst=100"]
    ).start()
    try:
        room = srv.create_room(players=2)
        ann = srv.client(room["code"], room["token"])
        bob = srv.client(room["code"], srv.join(room["code"], 1, "Bob"))
        for i, (seat, c) in enumerate(((0, ann), (1, bob), (0, ann), (1, bob))):
            # each line is stored before the next is sent: the ban check before the room's lock
            # runs in a thread, so lines sent at once from two sockets may be stored in any order
            c.send({"type": "chat", "text": f"hi {i}"})
            assert replies(c, seat, 1)[0]["chat"]["text"] == f"hi {i}"
        assert bob.error({"type": "chat", "text": "one more"})["code"] == "chat_full"
    finally:
        srv.stop()


def test_a_player_mutes_another_and_only_their_own_feed_changes(limited: Server) -> None:
    room = limited.create_room(players=2, name="Ann")
    code = room["code"]
    ann = limited.client(code, room["token"])
    bob_token = limited.join(code, 1, "Bob")
    bob = limited.client(code, bob_token)
    watcher = limited.client(code)
    ann.send({"type": "mute", "seat": 1})
    assert ann.recv_until(lambda m: m["type"] == "muted")["seats"] == [1]
    assert ann.error({"type": "mute", "seat": 0})["code"] == "bad_seat"
    bob.send({"type": "chat", "text": "psst"})
    assert watcher.recv_until(lambda m: m["type"] == "chat")["chat"]["text"] == "psst"
    assert bob.recv_until(lambda m: m["type"] == "chat")["chat"]["text"] == "psst"
    heard = len(ann.messages)
    ann.send({"type": "ping"})  # the line went out to all before it: Ann's pong comes after it
    ann.recv_until(lambda m: m["type"] == "pong")
    assert [m["type"] for m in ann.messages[heard:]] == ["pong"]  # Ann heard nothing
    again = limited.client(code, room["token"])  # the mute is the seat's: it holds on a new socket
    assert again.welcome["chat"] == []
    ann.send({"type": "mute", "seat": 1, "mute": False})
    assert ann.recv_until(lambda m: m["type"] == "muted")["seats"] == []
    for c in (ann, bob, watcher, again):
        c.close()


# ----------------------------------------------------------------------------- 7: request bodies


def test_an_oversized_body_is_refused_by_content_length_unread(server: Server) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(
            b"POST /api/replay HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 209715200\r\n\r\n{"
        )
        reply = s.recv(4096).decode()  # answered at once: the 200 MB were never awaited
    assert reply.startswith("HTTP/1.1 413"), reply
    r = server.post("/api/rooms", {"players": 2, "name": "x" * 40_000})
    assert r.status_code == 413 and r.json()["code"] == "too_large"


def test_a_streamed_body_is_cut_off_at_the_limit_and_memory_stays(server: Server) -> None:
    before = server.rss_kb()

    def chunks() -> Iterator[bytes]:
        for _ in range(100):  # 100 MB, chunked: no Content-Length to refuse it by
            yield b"[" * (1 << 20)

    try:
        r = httpx.post(f"{server.http}/api/replay", content=chunks(), timeout=30)
        assert r.status_code == 413
    except httpx.HTTPError:
        pass  # the server may close the connection while we are still sending: also a refusal
    grown = server.rss_kb() - before
    assert grown < 20_000, f"server memory grew by {grown} KB"  # reading it whole took 200+ MB
    assert server.get("/health").json()["ok"]


# ----------------------------------------------------------------------------- 8: rooms in memory


def test_room_creation_is_limited_per_client(tmp_path: Path) -> None:
    srv = Server(
        str(tmp_path / "r.db"), extra=["--limit", "rooms_burst=3", "--limit", "rooms_per_minute=1"]
    ).start()
    try:
        codes = [srv.post("/api/rooms", {"players": 2}).status_code for _ in range(5)]
        assert codes == [201, 201, 201, 429, 429]
        assert srv.post("/api/rooms", {"players": 2}).json()["code"] == "rate_limited"
    finally:
        srv.stop()


@pytest.fixture(scope="module")
def evicting(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("evicting")
    limits = ["finished_seconds=0.3", "idle_seconds=1", "lobby_seconds=2", "sweep_seconds=0.2"]
    extra = [arg for limit in limits for arg in ("--limit", limit)]
    srv = Server(str(tmp / "evict.db"), log=tmp / "server.log", extra=extra).start()
    yield srv
    srv.stop()


def wait_for(check: object, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


def test_finished_and_idle_rooms_leave_memory_and_come_back_from_the_store(evicting: Server) -> None:
    srv = evicting
    room = srv.create_room(players=2, name="Ann")
    code = room["code"]
    host = srv.client(code, room["token"])
    host.send({"type": "bot", "seat": 1, "level": "random"})
    host.send({"type": "start"})
    host.recv_until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing")
    while advance({0: host}):
        pass
    record = srv.get(f"/api/rooms/{code}/record").json()
    evicted = srv.get("/health").json()["rooms_evicted"]
    host.close()
    wait_for(lambda: srv.get("/health").json()["rooms_evicted"] > evicted)
    assert srv.get(f"/api/rooms/{code}/record").json() == record  # loaded again from the store
    watcher = srv.client(code)
    assert over(watcher.welcome)
    watcher.close()
    # a game in progress that everyone left: evicted when idle, resumed exactly on return
    room = srv.create_room(players=2, name="Ann")
    code = room["code"]
    tokens = [room["token"], srv.join(code, 1, "Bob")]
    clients = {seat: srv.client(code, tokens[seat]) for seat in (0, 1)}
    clients[0].send({"type": "start"})
    for c in clients.values():
        c.recv_until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing")
    for _ in range(4):
        advance(clients)
    before = {seat: c.last for seat, c in clients.items()}
    evicted = srv.get("/health").json()["rooms_evicted"]
    for c in clients.values():
        c.close()
    wait_for(lambda: srv.get("/health").json()["rooms_evicted"] > evicted)
    again = {seat: srv.client(code, tokens[seat]) for seat in (0, 1)}
    for seat, c in again.items():
        assert c.welcome["view"] == before[seat]["view"]  # type: ignore[index]
    assert advance(again)
    for c in again.values():
        c.close()


def test_rooms_never_started_expire(evicting: Server) -> None:
    code = evicting.create_room(players=2)["code"]
    assert evicting.get(f"/api/rooms/{code}").status_code == 200
    wait_for(lambda: evicting.get(f"/api/rooms/{code}").status_code == 404, 15)


# ----------------------------------------------------------------------------- 9: bots


def test_bot_thinking_runs_in_a_pool_and_rooms_take_turns() -> None:
    from sequence_game import GameConfig, new_game
    from sequence_game.server.bot_runner import BotRunner

    async def scenario() -> list[str]:
        runner = BotRunner(workers=1, seconds=0.05, room_budget=100, rng=__import__("random").Random(1))
        order: list[str] = []
        state = new_game(GameConfig(players=2), seed=4)
        view = state.view(state.current_seat)

        async def room(name: str) -> None:
            for _ in range(3):
                action, used = await runner.choose("greedy", view, 0.0)
                assert action in state.legal_actions() and used > 0
                order.append(name)

        try:
            await asyncio.gather(room("a"), room("b"), room("c"))
        finally:
            runner.close()
        return order

    order = asyncio.run(scenario())
    # one pool slot, handed out first come first served: no room makes three moves in a row
    assert order == ["a", "b", "c"] * 3, order


def test_a_room_over_its_bot_budget_gets_instant_moves(tmp_path: Path) -> None:
    srv = Server(str(tmp_path / "b.db"), bot_seconds=0.2, extra=["--limit", "room_bot_seconds=0.5"]).start()
    try:
        room = srv.create_room(players=2, name="Ann")
        host = srv.client(room["code"], room["token"])
        host.send({"type": "bot", "seat": 1, "level": "mcts"})
        host.send({"type": "start"})
        host.recv_until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing")
        while advance({0: host}):
            pass
        used = srv.get(f"/api/rooms/{room['code']}").json()["bot_seconds"]
        # the budget was reached, then no more thinking: at most one move past it (0.2 s + overhead)
        assert 0.5 <= used < 0.5 + 1.0, used
        host.close()
    finally:
        srv.stop()


def _children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError):
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(stat.parent.name))
    return found


def test_bot_pool_processes_think_at_a_lower_priority_and_exit_with_a_killed_server(tmp_path: Path) -> None:
    import os

    srv = Server(str(tmp_path / "orphans.db"), bot_seconds=0.05).start()
    try:
        room = srv.create_room(players=2, name="Ann")
        host = srv.client(room["code"], room["token"])
        host.send({"type": "bot", "seat": 1, "level": "greedy"})  # thinks in the pool
        host.send({"type": "start"})
        host.recv_until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing")
        for _ in range(4):  # a few bot moves: the pool is up
            advance({0: host})
        assert srv.proc is not None
        pool = _children(srv.proc.pid)
        assert pool, "no bot pool process"
        server_nice = os.getpriority(os.PRIO_PROCESS, srv.proc.pid)
        # relative to the server, whatever the suite's own priority (niceness stops at 19)
        lower = min(server_nice + 10, 19)
        niced = [pid for pid in pool if os.getpriority(os.PRIO_PROCESS, pid) >= lower]
        assert niced, "no pool process runs at a lower priority than the server"
        host.close()
    finally:
        srv.kill()  # SIGKILL: the server cannot tell its pool to stop
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and any(Path(f"/proc/{pid}").exists() for pid in pool):
        for pid in pool:  # reap nothing (not our children); a zombie has no /proc/PID/stat state R/S
            with contextlib.suppress(OSError):
                if Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z":
                    pool = [p for p in pool if p != pid]
        time.sleep(0.2)
    assert not [pid for pid in pool if Path(f"/proc/{pid}").exists()], "pool processes outlived the server"


# ----------------------------------------------------------------------------- 10: headers, docs


def test_security_headers_and_api_docs_only_when_asked(server: Server, limited: Server) -> None:
    for path in ("/", "/api/bots", "/static/js/main.js"):
        headers = server.get(path).headers
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
        assert "script-src 'self'" in headers["content-security-policy"]
        assert headers["x-frame-options"] == "DENY"
        assert headers["x-content-type-options"] == "nosniff"
    assert server.get("/docs").status_code == 404
    assert server.get("/openapi.json").status_code == 404
    assert limited.get("/openapi.json").status_code == 200  # started with --api-docs
    assert limited.get("/docs").status_code == 200
