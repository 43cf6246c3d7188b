"""Issue 18, items 6 and 10: finding a game (open public rooms, "play a bot now", private rooms by
code only) and hints against bots (the strongest bot's play for the seat's own view)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from .conftest import Server, my_turn


def open_codes(server: Server) -> list[str]:
    r = server.get("/api/rooms?open=1")
    assert r.status_code == 200, r.text
    return [room["code"] for room in r.json()["rooms"]]


def test_open_rooms_lists_public_lobbies_only(server: Server) -> None:
    public = server.create_room(players=4, name="Ann", public=True)
    private = server.create_room(players=2, name="Bob")
    listed = server.get("/api/rooms?open=1").json()["rooms"]
    codes = [room["code"] for room in listed]
    assert public["code"] in codes
    assert private["code"] not in codes  # private: reachable by its code only
    mine = next(room for room in listed if room["code"] == public["code"])
    assert mine["host"] == "Ann"
    assert (mine["players"], mine["sides"], mine["taken"], mine["free"]) == (4, 2, 1, 3)
    assert [s["side"] for s in mine["seats"]] == [0, 1, 0, 1]  # R2.3: seat mod sides
    assert server.get("/api/rooms").json() == {"rooms": []}  # only ?open=1 lists


def test_started_room_leaves_the_list(server: Server) -> None:
    room = server.create_room(players=2, name="Cy", public=True)
    code = room["code"]
    assert code in open_codes(server)
    host = server.client(code, room["token"])
    host.send({"type": "bot", "seat": 1, "level": "random"})
    host.recv_until(lambda m: m["type"] == "state")
    assert code not in open_codes(server)  # no free seat left
    host.send({"type": "start"})
    host.recv_until(lambda m: m["type"] == "nonce_request")
    host.recv_until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing", timeout=10)
    assert code not in open_codes(server)
    host.close()


def test_play_a_bot_now_starts_a_game_against_a_bot(server: Server) -> None:
    room = server.create_room(players=2, name="Dee", against="greedy")
    assert room["room"]["status"] == "playing"
    assert [s["kind"] for s in room["room"]["seats"]] == ["human", "bot"]
    assert room["room"]["seats"][1]["bot_level"] == "greedy"
    me = server.client(room["code"], room["token"])
    assert me.welcome["view"]["hand"]  # dealt (R4.2)
    assert room["code"] not in open_codes(server)
    me.close()
    bad = server.post("/api/rooms", {"players": 2, "against": "nobody"})
    assert bad.status_code == 400 and bad.json()["code"] == "bad_bot"


def test_hint_refused_when_off(server: Server) -> None:
    room = server.create_room(players=2, name="Eve", against="random")
    me = server.client(room["code"], room["token"])
    assert me.error({"type": "hint"})["code"] == "hints_off"
    r = server.post(f"/api/rooms/{room['code']}/hint", {"token": room["token"]})
    assert r.status_code == 403 and r.json()["code"] == "hints_off"
    me.close()
    # allowed by the host, but no bot at the table: refused as well
    people = server.create_room(players=2, name="Fay", hints=True)
    r = server.post(f"/api/rooms/{people['code']}/hint", {"token": people["token"]})
    assert r.status_code == 403 and r.json()["code"] == "hints_off"


def test_hint_is_a_legal_action_of_the_view_and_the_room_goes_on(server: Server) -> None:
    room = server.create_room(players=2, name="Gus", against="random", hints=True)
    code = room["code"]
    me = server.client(code, room["token"])
    state = me.welcome if 0 in me.welcome["view"]["seats_to_act"] else me.recv_until(my_turn(0), timeout=30)
    legal = set(state["view"]["legal_actions"])
    watcher = server.client(code)
    me.send({"type": "hint"})
    # while the hint is thought out in the bot pool, the room answers others
    watcher.send({"type": "ping"})
    assert watcher.recv_until(lambda m: m["type"] == "pong", timeout=5)["type"] == "pong"
    assert server.get(f"/api/rooms/{code}").status_code == 200
    hint = me.recv_until(lambda m: m["type"] == "hint", timeout=60)
    assert hint["action"] in legal
    assert hint["card"] in state["view"]["hand"] or hint["action"] == 404
    assert hint["level"] in ("expert", "ranking", "forced")  # who chose: never a random move
    # the HTTP form answers the same way, and the game accepts the suggested play
    # the server waits up to twice the hint's budget plus 10 s for the bot pool (a process that is
    # still loading the compiled kernels on a busy machine), so the client waits longer than that
    r = server.post(f"/api/rooms/{code}/hint", {"token": room["token"]}, timeout=60)
    assert r.status_code == 200 and r.json()["action"] in legal
    me.send({"type": "act", "action": hint["action"], "version": state["version"]})
    moved = me.recv_until(lambda m: m["type"] == "state" and m["event"]["kind"] == "action")
    assert moved["event"]["seat"] == 0
    # not your turn (R4.3) and spectators are refused
    assert watcher.error({"type": "hint"})["code"] == "not_seated"
    me.close()
    watcher.close()


@pytest.mark.browser
def test_page_play_a_bot_now_then_hint(server: Server, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    try:
        page.goto(server.http + "/")
        page.fill("#create-form input[name=name]", "Hana")
        page.check("#hints-box")
        page.click("#bot-now-btn")
        page.wait_for_selector("#board .cell", timeout=20000)
        deadline = time.monotonic() + 60
        while (page.locator("#status strong").text_content() or "") != "Your turn":
            assert time.monotonic() < deadline, "the bot never passed the turn"
            page.wait_for_timeout(200)
        page.click("#hint-btn")
        page.wait_for_selector("#hand .card.hinted", timeout=60000)
        assert page.locator("#board .cell.hinted").count() <= 1
        assert page.locator("#hint-note").text_content()
    finally:
        page.close()
