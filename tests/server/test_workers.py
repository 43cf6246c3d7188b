"""More than one process (issue 16): workers sharing a real PostgreSQL database, started by the test.

Two ``sequence serve --cluster`` processes on two ports let the test choose each client's worker;
one more test runs ``--workers 2`` on one shared socket. A worker killed with SIGKILL mid-game hands
its rooms to the other: bots keep playing, nothing committed is lost, the record replays.
"""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from sequence_game.records import replay

from .conftest import Client, Server, advance, over, the_same_sound_record
from .test_postgres import postgres_url

__all__ = ["postgres_url"]  # the fixture: a throwaway PostgreSQL for this module

pytestmark = pytest.mark.postgres


def _playing(m: dict[str, object]) -> bool:
    room = m.get("room")
    return m["type"] == "state" and isinstance(room, dict) and room["status"] == "playing"


def test_sqlite_refuses_more_than_one_worker(tmp_path: Path) -> None:
    for flags in (["--workers", "2"], ["--cluster"]):
        cmd = [sys.executable, "-m", "sequence_game", "serve", "--db", str(tmp_path / "x.db"), *flags]
        done = subprocess.run(cmd, check=False, capture_output=True, text=True, timeout=60)
        assert done.returncode != 0
        assert "need PostgreSQL" in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_two_workers_share_a_room(postgres_url: str, tmp_path: Path) -> None:
    a = Server(postgres_url, log=tmp_path / "a.log", extra=["--cluster"]).start()
    b = Server(postgres_url, log=tmp_path / "b.log", extra=["--cluster"]).start()
    try:
        room = a.create_room(players=2, name="Ann")
        code = room["code"]
        token_b = b.join(code, 1, "Bob")  # the other worker seats Bob
        ann = a.client(code, room["token"])
        bob = b.client(code, token_b)
        assert bob.welcome["room"]["seats"][0]["name"] == "Ann"
        ann.send({"type": "start"})
        ann.recv_until(_playing)
        bob.recv_until(_playing)
        clients = {0: ann, 1: bob}
        for _ in range(16):  # each move, made on either worker, reaches both sockets
            assert advance(clients)
        assert ann.last is not None and bob.last is not None
        assert ann.last["version"] == bob.last["version"]
        assert ann.last["view"]["board"] == bob.last["view"]["board"]
        assert ann.last["view"]["hand"] != bob.last["view"]["hand"]  # each worker builds its own views
        bob.send({"type": "chat", "text": "hello from b"})
        assert ann.recv_until(lambda m: m["type"] == "chat")["chat"]["text"] == "hello from b"
        # a stale command on one worker is refused, whichever worker moved last
        mine = clients[ann.last["view"]["seats_to_act"][0]]
        assert mine.error({"type": "act", "action": 0, "version": 1})["code"] == "stale"
        while advance(clients):
            pass
        the_same_sound_record(code, b, a)
    finally:
        a.stop()
        b.stop()


def test_a_rooms_chat_rate_holds_across_workers(postgres_url: str, tmp_path: Path) -> None:
    """The room's chat limit counts the lines of every worker: each worker folds in every line of
    the room, wherever it was sent, and pays for it (a per-worker count let each worker take the
    room's whole burst)."""
    limits = ["room_chat_burst=4", "room_chat_rate=0.001"]
    extra = ["--cluster", *(arg for limit in limits for arg in ("--limit", limit))]
    a = Server(postgres_url, log=tmp_path / "ca.log", extra=extra).start()
    b = Server(postgres_url, log=tmp_path / "cb.log", extra=extra).start()
    try:
        room = a.create_room(players=2, name="Ann")
        code = room["code"]
        ann = a.client(code, room["token"])
        bob = b.client(code, b.join(code, 1, "Bob"))
        said = []
        for i in range(8):  # the two workers take turns, each line seen by the other before the next
            sender, other = (ann, bob) if i % 2 == 0 else (bob, ann)
            sender.send({"type": "chat", "text": f"line {i}"})
            reply = sender.recv_until(lambda m: m["type"] in ("chat", "error"))
            if reply["type"] == "error":
                assert reply["code"] == "rate_limited", reply
                continue
            other.recv_until(lambda m, i=i: m["type"] == "chat" and m["chat"]["text"] == f"line {i}")
            said.append(i)
        assert said == [0, 1, 2, 3]
    finally:
        a.stop()
        b.stop()


def test_a_lobby_in_use_on_another_worker_does_not_expire(postgres_url: str, tmp_path: Path) -> None:
    """A lobby loaded on one worker with nobody there, and its player (then only a spectator)
    waiting on the other: the first worker's sweep used to delete the room from under them."""
    limits = ["lobby_seconds=2", "sweep_seconds=0.2"]
    extra = ["--cluster", *(arg for limit in limits for arg in ("--limit", limit))]
    a = Server(postgres_url, log=tmp_path / "la.log", extra=extra).start()
    b = Server(postgres_url, log=tmp_path / "lb.log", extra=extra).start()
    try:
        room = a.create_room(players=2, name="Ann")  # loaded, and owned, by worker a
        code = room["code"]
        ann = b.client(code, room["token"])  # Ann waits in the lobby on worker b
        time.sleep(4)  # twice lobby_seconds: both workers swept many times
        assert a.get(f"/api/rooms/{code}").status_code == 200
        assert b.get(f"/api/rooms/{code}").status_code == 200
        watcher = b.client(code)  # a spectator on worker b keeps it too, once Ann has left
        ann.close()
        time.sleep(3)
        assert a.get(f"/api/rooms/{code}").status_code == 200
        watcher.close()
        deadline = time.monotonic() + 20  # once nobody is in it, it expires as before
        while a.get(f"/api/rooms/{code}").status_code != 404:
            assert time.monotonic() < deadline, "the empty lobby was never expired"
            time.sleep(0.2)
    finally:
        a.stop()
        b.stop()


def test_a_killed_worker_hands_its_rooms_over(postgres_url: str, tmp_path: Path) -> None:
    a = Server(postgres_url, log=tmp_path / "ka.log", extra=["--cluster"]).start()
    b = Server(postgres_url, log=tmp_path / "kb.log", extra=["--cluster"]).start()
    try:
        room = a.create_room(players=3, name="Ann")  # loaded first by worker a: a owns it
        code = room["code"]
        # someone watching on worker a keeps the room there (a worker nobody is connected to
        # leaves a room to the worker serving it: test_hand_over.py)
        watcher = a.client(code)
        ann = b.client(code, room["token"])  # the player talks to worker b
        for seat in (1, 2):
            ann.send({"type": "bot", "seat": seat, "level": "random"})
        ann.send({"type": "start"})
        ann.recv_until(_playing)
        assert a.get("/health").json()["rooms_owned"] == 1
        assert b.get("/health").json()["rooms_owned"] == 0
        clients = {0: ann}
        moves = 0
        # stop on our own turn, so no bot move of worker a is in flight at the kill
        while moves < 9 or ann.last["view"]["seats_to_act"][0] != 0:  # type: ignore[index]
            assert advance(clients)
            moves += 1
        before = ann.last
        assert watcher.welcome["room"]["code"] == code
        a.kill()
        again = b.client(code, room["token"])  # nothing committed was lost
        assert before is not None and again.welcome["view"] == before["view"]
        again.close()
        while advance(clients):  # the bots now play on worker b
            pass
        assert b.get("/health").json()["rooms_owned"] == 1
        record = b.get(f"/api/rooms/{code}/record").json()
        assert "result" in record, record
        assert replay(record).ok
        assert len(record["actions"]) >= moves
    finally:
        a.kill()
        b.stop()


def test_workers_share_one_socket(postgres_url: str, tmp_path: Path) -> None:
    server = Server(postgres_url, log=tmp_path / "w.log", extra=["--workers", "2"]).start()
    try:
        pids: set[int] = set()
        deadline = time.monotonic() + 30
        while len(pids) < 2 and time.monotonic() < deadline:
            pids.add(httpx.get(f"{server.http}/health", timeout=5).json()["pid"])  # a new connection each
            time.sleep(0.05)
        assert len(pids) == 2, pids
        room = server.create_room(players=2, name="Ann")
        code = room["code"]
        token = server.join(code, 1, "Bob")
        ann, bob = server.client(code, room["token"]), server.client(code, token)
        ann.send({"type": "start"})
        ann.recv_until(_playing)
        bob.recv_until(_playing)
        clients: dict[int, Client] = {0: ann, 1: bob}
        for _ in range(10):
            assert advance(clients)
        # kill one worker: uvicorn starts another; each player reconnects and the game goes on
        os.kill(pids.pop(), signal.SIGKILL)
        clients = {0: server.client(code, room["token"]), 1: server.client(code, token)}
        assert clients[0].welcome["version"] == clients[1].welcome["version"]
        while advance(clients):
            pass
        assert over(clients[1].last or {})
        assert replay(server.get(f"/api/rooms/{code}/record").json()).ok
    finally:
        server.stop()


def test_a_seat_connected_on_another_worker_shows_connected(postgres_url: str, tmp_path: Path) -> None:
    """Known limit of the first version: ``connected`` counted only the sockets of the worker that
    built the message. Now presence (the shared advisory locks) marks a seat connected anywhere."""
    a = Server(postgres_url, log=tmp_path / "ca.log", extra=["--cluster"]).start()
    b = Server(postgres_url, log=tmp_path / "cb.log", extra=["--cluster"]).start()
    try:
        room = a.create_room(players=2, name="Ann")
        code = room["code"]
        token_b = b.join(code, 1, "Bob")
        ann = a.client(code, room["token"])
        bob = b.client(code, token_b)

        def connected_on(server: Server) -> list[bool]:
            return [s["connected"] for s in server.get(f"/api/rooms/{code}").json()["seats"]]

        deadline = time.monotonic() + 10  # presence is published every tick (0.5 s)
        while time.monotonic() < deadline and not (connected_on(a) == connected_on(b) == [True, True]):
            time.sleep(0.2)
        assert connected_on(a) == connected_on(b) == [True, True]
        ann.send({"type": "start"})  # a broadcast built on worker a shows Bob (on b) connected
        state = ann.recv_until(_playing)
        assert [s["connected"] for s in state["room"]["seats"]] == [True, True]
        bob.close()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and connected_on(a) != [True, False]:
            time.sleep(0.2)
        assert connected_on(a) == [True, False]
        ann.close()
    finally:
        a.stop()
        b.stop()


def _connected_everywhere(server: Server, code: str, seat: int) -> None:
    """Wait until ``server`` reads ``seat`` as connected (its socket may be on the other worker:
    known from the presence locks at the next cluster tick)."""
    deadline = time.monotonic() + 10
    while not server.get(f"/api/rooms/{code}").json()["seats"][seat]["connected"]:
        assert time.monotonic() < deadline, f"seat {seat} never read as connected"
        time.sleep(0.1)


def _at_version(server: Server, code: str, version: int) -> None:
    """Wait until ``server`` has folded the room's events up to ``version`` (another worker's
    commits reach it through PostgreSQL's notifications, a moment later)."""
    deadline = time.monotonic() + 10
    while server.get(f"/api/rooms/{code}").json()["version"] < version:
        assert time.monotonic() < deadline, f"never reached version {version}"
        time.sleep(0.05)


def test_mutes_hold_on_every_worker(postgres_url: str, tmp_path: Path) -> None:
    """A player's mutes belong to the seat, stored with it: a second socket of the same player on
    the other worker hears of a mute at once, and a reconnect landing on the other worker keeps it
    (they lived in one worker's memory)."""
    a = Server(postgres_url, log=tmp_path / "ma.log", extra=["--cluster"]).start()
    b = Server(postgres_url, log=tmp_path / "mb.log", extra=["--cluster"]).start()
    try:
        room = a.create_room(players=2, name="Ann")
        code = room["code"]
        bob = b.client(code, b.join(code, 1, "Bob"))
        ann = a.client(code, room["token"])
        phone = b.client(code, room["token"])  # Ann's second device, on worker b
        assert phone.welcome["muted"] == []
        ann.send({"type": "mute", "seat": 1})
        assert ann.recv_until(lambda m: m["type"] == "muted")["seats"] == [1]
        assert phone.recv_until(lambda m: m["type"] == "muted")["seats"] == [1]
        bob.send({"type": "chat", "text": "muted line"})
        said = bob.recv_until(lambda m: m["type"] == "chat")
        _at_version(a, code, said["version"])  # else Ann's line may be refused as stale there
        ann.send({"type": "chat", "text": "after"})
        for sock in (ann, phone):  # events arrive in order: Bob's line would have come first
            line = sock.recv_until(lambda m: m["type"] == "chat")
            assert line["chat"]["text"] == "after", line
        phone.close()
        again = b.client(code, room["token"])  # Ann reconnects and lands on worker b
        assert again.welcome["muted"] == [1]
        assert [c["text"] for c in again.welcome["chat"]] == ["after"]
        again.send({"type": "mute", "seat": 1, "mute": False})  # heard again, on both workers
        assert again.recv_until(lambda m: m["type"] == "muted")["seats"] == []
        assert ann.recv_until(lambda m: m["type"] == "muted")["seats"] == []
    finally:
        a.stop()
        b.stop()


def test_a_start_gathers_nonces_on_every_worker(postgres_url: str, tmp_path: Path) -> None:
    """The host starts on worker a; Bob is connected to worker b. Bob is asked for a nonce too,
    his nonce is in the deal, and the deal comes as soon as both answered (before, only worker
    a's sockets were asked, and the deal waited ``nonce_seconds`` to go on without Bob's)."""
    extra = ["--cluster", "--limit", "nonce_seconds=30"]
    a = Server(postgres_url, log=tmp_path / "na.log", extra=extra).start()
    b = Server(postgres_url, log=tmp_path / "nb.log", extra=extra).start()
    try:
        room = a.create_room(players=2, name="Ann")
        code = room["code"]
        bob = b.client(code, b.join(code, 1, "Bob"))
        ann = a.client(code, room["token"])
        _connected_everywhere(a, code, 1)
        began = time.monotonic()
        ann.send({"type": "start"})
        nonces = {}
        for seat, sock in ((1, bob), (0, ann)):
            ask = sock.recv_until(lambda m: m["type"] == "nonce_request", timeout=10)
            nonces[seat] = secrets.token_hex(16)
            sock.send({"type": "nonce", "commitment": ask["commitment"], "nonce": nonces[seat]})
        for sock in (ann, bob):
            state = sock.recv_until(_playing, timeout=20)
            game = state["room"]["fairness"]["game"]
            assert {n["seat"]: n["nonce"] for n in game["nonces"]} == nonces
        assert time.monotonic() - began < 15  # dealt when both answered, not after 30 s
        assert bob.error({"type": "nonce", "commitment": "0" * 64, "nonce": "1" * 32})["code"] == "no_deal"
    finally:
        a.stop()
        b.stop()
