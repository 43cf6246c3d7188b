"""Bad input is refused clearly, to its sender alone, and changes nothing."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from websockets.exceptions import ConnectionClosed

from .conftest import Client, Server


@pytest.fixture
def game(server: Server) -> Iterator[tuple[Server, str, dict[int, Client]]]:
    room = server.create_room(players=2, name="A")
    code = room["code"]
    clients = {0: server.client(code, room["token"]), 1: server.client(code, server.join(code, 1, "B"))}
    clients[0].send({"type": "start"})
    for c in clients.values():
        c.recv_until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing")
    yield server, code, clients
    for c in clients.values():
        c.close()


def snapshot(server: Server, code: str, token_client: Client) -> tuple[int, object]:
    return server.get(f"/api/rooms/{code}").json()["version"], token_client.last["view"]


def refused(client: Client, payload: object, code: str) -> dict[str, object]:
    msg = client.error(payload)
    assert msg["code"] == code, msg
    assert msg["message"]
    return msg


def test_malformed_and_invalid_messages_are_refused_and_change_nothing(game) -> None:  # type: ignore[no-untyped-def]
    server, code, clients = game
    actor = clients[0].last["view"]["current_seat"]
    me, other = clients[actor], clients[1 - actor]
    before = server.get(f"/api/rooms/{code}").json()["version"]
    view = me.last["version"], me.last["view"]
    legal = me.last["view"]["legal_actions"]
    refused(me, "{not json", "bad_json")
    refused(me, "[1, 2]", "bad_message")
    refused(me, b"\xff\xfe binary junk", "bad_json")
    refused(me, {"type": "fly"}, "bad_message")
    refused(me, {"type": "act", "action": 999, "version": view[0]}, "bad_message")
    refused(me, {"type": "act", "action": "7h@e4", "version": view[0]}, "bad_message")
    refused(me, {"type": "act", "action": legal[0], "version": view[0], "extra": 1}, "bad_message")
    refused(me, {"type": "chat", "text": "x" * 6000}, "too_large")
    refused(me, {"type": "hello", "token": None}, "bad_message")
    # wrong seat, wrong turn, stale and future versions, an illegal action (R5.2)
    refused(me, {"type": "act", "action": legal[0], "version": view[0], "seat": 1 - actor}, "wrong_seat")
    msg = refused(other, {"type": "act", "action": legal[0], "version": view[0]}, "not_your_turn")
    assert msg["rule"] == "R4.3"
    refused(me, {"type": "act", "action": legal[0], "version": view[0] + 5}, "bad_version")
    corner = refused(me, {"type": "act", "action": 0, "version": view[0]}, "illegal")
    assert corner["rule"] == "R5.2"
    refused(me, {"type": "rule", "call": 1, "uphold": True}, "not_host" if actor else "no_call")
    refused(me, {"type": "call", "side": 1 - actor}, "illegal")  # no teams of two (R6.1)
    # the refusals went to the sender alone, and nothing changed
    assert server.get(f"/api/rooms/{code}").json()["version"] == before
    me.send({"type": "ping"})
    assert me.recv_until(lambda m: m["type"] == "pong")["version"] == before
    other.send({"type": "ping"})
    pong = other.recv_until(lambda m: m["type"] in ("pong", "error"))
    assert pong["type"] == "pong", "a refusal reached the wrong client"
    # a legal move with the current version is accepted; resending it with the old version is stale
    me.send({"type": "act", "action": legal[0], "version": view[0]})
    m = me.recv_until(lambda m: m["type"] == "state")
    assert m["version"] == before + 1
    refused(other, {"type": "act", "action": legal[0], "version": view[0]}, "stale")


def test_oversized_frame_closes_only_that_socket(game) -> None:  # type: ignore[no-untyped-def]
    server, code, _clients = game
    before = server.get(f"/api/rooms/{code}").json()["version"]
    victim = server.client(code)
    victim.send(json.dumps({"type": "chat", "text": "x" * 200_000}))
    with pytest.raises((ConnectionClosed, TimeoutError)):
        while True:
            victim.recv(timeout=5)
    assert server.get("/health").json()["ok"]
    assert server.get(f"/api/rooms/{code}").json()["version"] == before


def test_unknown_room_forged_token_and_no_hello(server: Server) -> None:
    lost = server.client("ZZZZZZ", hello=False)  # refused at once, before any hello
    assert lost.recv()["code"] == "unknown_room"
    with pytest.raises(ConnectionClosed):
        lost.recv(timeout=5)
    room = server.create_room(players=2)
    code = room["code"]
    before = server.get(f"/api/rooms/{code}").json()
    forged = server.client(code, hello=False)
    forged.send({"type": "hello", "token": room["token"][:-2] + "xx"})
    assert forged.recv()["code"] == "bad_token"
    with pytest.raises(ConnectionClosed):
        forged.recv(timeout=5)
    rude = server.client(code, hello=False)
    rude.send({"type": "start"})
    assert rude.recv()["code"] == "no_hello"
    watcher = server.client(code)
    assert watcher.error({"type": "start"})["code"] == "not_host"
    assert watcher.error({"type": "act", "action": 1, "version": 1})["code"] == "not_seated"
    assert server.get(f"/api/rooms/{code}").json() == before
