"""HTTP and websocket behaviour of a real server: rooms, seats, bots, a whole game, records, table rules."""

from __future__ import annotations

import time

from sequence_game.bots import level_bot
from sequence_game.records import replay

from .conftest import Server, my_turn, over


def test_health_board_and_bots(server: Server) -> None:
    health = server.get("/health").json()
    assert health["ok"] is True and health["db"] == "ok"
    cells = server.get("/api/board").json()["cells"]
    assert len(cells) == 100 and cells[0] == "jk" and cells.count("jk") == 4
    assert "random" in server.get("/api/bots").json()["bots"]
    page = server.get("/")
    assert page.status_code == 200 and '<svg id="board"' in page.text
    assert server.get("/static/js/main.js").status_code == 200


def test_r2_1_bad_room_config_is_refused_with_the_rule(server: Server) -> None:
    r = server.post("/api/rooms", {"players": 5})
    assert r.status_code == 400 and r.json()["rule"] == "R2.1"
    r = server.post("/api/rooms", {"players": 4, "teams": 3})
    assert r.status_code == 400 and r.json()["rule"] == "R2.2"
    assert server.post("/api/rooms", {"players": 2, "seat": 2}).status_code == 400


def test_seats_are_taken_once_and_rooms_must_exist(server: Server) -> None:
    room = server.create_room(players=3, name="Ann")
    code = room["code"]
    assert room["room"]["seats"][0]["name"] == "Ann"
    assert room["room"]["levels"] == {
        "random": "easy",
        "greedy": "medium",
        "heuristic": "hard",
        level_bot("expert"): "expert",  # pimc, or mcts without the fast extra
    }
    server.join(code, 1, "Bob")
    assert server.post(f"/api/rooms/{code}/seats/1", {"name": "Eve"}).status_code == 409
    assert server.post(f"/api/rooms/{code}/seats/7", {"name": "Eve"}).status_code == 400
    assert server.post("/api/rooms/NOPE99/seats/1", {"name": "Eve"}).status_code == 404
    assert server.get("/api/rooms/NOPE99").status_code == 404
    info = server.get(f"/api/rooms/{code}").json()
    assert [s["kind"] for s in info["seats"]] == ["human", "human", "empty"]
    assert "token_hash" not in str(info)


def test_whole_game_against_a_bot_then_record_and_replay(server: Server) -> None:
    room = server.create_room(players=2, name="Ann")
    code, token = room["code"], room["token"]
    host = server.client(code, token)
    assert host.welcome["type"] == "welcome" and host.welcome["you"] == {"seat": 0, "host": True}
    host.send({"type": "bot", "seat": 1, "level": "random"})
    host.recv_until(lambda m: m["type"] == "state" and m["room"]["seats"][1]["kind"] == "bot")
    watcher = server.client(code)  # a spectator from the lobby on
    assert watcher.welcome["you"]["seat"] is None
    host.send({"type": "start"})
    in_progress = False
    while True:
        m = host.recv_until(my_turn(0))
        if over(m):
            break
        if not in_progress:
            in_progress = True
            refused = server.get(f"/api/rooms/{code}/record")
            assert refused.status_code == 409 and refused.json()["code"] == "in_progress"
            assert server.get(f"/api/rooms/{code}/replay").status_code == 409
        host.send({"type": "act", "action": m["view"]["legal_actions"][0], "version": m["version"]})
    final = host.last
    assert final is not None and final["room"]["status"] == "over"
    record = server.get(f"/api/rooms/{code}/record")
    assert record.status_code == 200 and "attachment" in record.headers["content-disposition"]
    result = replay(record.json())
    assert result.ok and result.state.outcome() is not None
    assert result.state.outcome().winner == final["view"]["winner"]
    frames = server.get(f"/api/rooms/{code}/replay").json()["frames"]
    assert frames[-1]["board"] == final["view"]["board"]
    # the spectator saw the same game, never a hand or a legal action
    watcher.recv_until(over)
    for msg in watcher.messages:
        if msg.get("view"):
            assert "hand" not in msg["view"] and "legal_actions" not in msg["view"]
    host.close()
    watcher.close()


def test_lobby_host_controls_and_configure(server: Server) -> None:
    room = server.create_room(players=6, name="Host")
    code = room["code"]
    host = server.client(code, room["token"])
    guest = server.client(code, server.join(code, 1, "Guest"))
    assert guest.error({"type": "start"})["code"] == "not_host"
    assert guest.error({"type": "bot", "seat": 2, "level": "random"})["code"] == "not_host"
    assert host.error({"type": "bot", "seat": 1, "level": "random"})["code"] == "seat_taken"
    assert host.error({"type": "bot", "seat": 2, "level": "grandmaster"})["code"] == "bad_bot"
    assert host.error({"type": "start"})["code"] == "seats_empty"
    host.send({"type": "configure", "teams": 3, "draw": "manual"})
    m = host.recv_until(lambda m: m["type"] == "state" and m["event"]["kind"] == "config")
    assert m["room"]["config"]["teams"] == 3 and m["room"]["config"]["draw"] == "manual"
    assert [s["side"] for s in m["room"]["seats"]] == [0, 1, 2, 0, 1, 2]
    guest.send({"type": "leave"})
    guest.recv_until(lambda m: m["type"] == "state" and m["room"]["seats"][1]["kind"] == "empty")
    host.close()
    guest.close()


def test_chat_reaches_the_table_and_survives_reconnect(server: Server) -> None:
    room = server.create_room(players=2)
    code = room["code"]
    a = server.client(code, room["token"])
    b_token = server.join(code, 1, "Bea")
    b = server.client(code, b_token)
    a.send({"type": "chat", "text": "good   luck"})
    line = b.recv_until(lambda m: m["type"] == "chat")["chat"]
    assert line["text"] == "good luck" and line["seat"] == 0
    assert server.client(code).error({"type": "chat", "text": "hi"})["code"] == "not_seated"
    again = server.client(code, b_token)
    assert [c["text"] for c in again.welcome["chat"]] == ["good luck"]


def _four_player_room(server: Server, *, grace: float = 60, timer: int = 0) -> tuple[str, list[str]]:
    room = server.create_room(players=4, name="S0", grace_seconds=grace, turn_seconds=timer)
    code = room["code"]
    return code, [room["token"]] + [server.join(code, s, f"S{s}") for s in (1, 2, 3)]


def test_r6_1_table_talk_call_and_host_ruling(server: Server) -> None:
    code, tokens = _four_player_room(server)
    clients = [server.client(code, t) for t in tokens]
    clients[0].send({"type": "start"})
    m = clients[1].recv_until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing")
    hands_before = m["view"]["hand_sizes"]
    # seat 1 (side 1) may not call on its own side; it calls on side 0
    assert clients[1].error({"type": "call", "side": 1})["rule"] == "R6.1"
    clients[1].send({"type": "call", "side": 0})
    m = clients[0].recv_until(lambda m: m["type"] == "state" and m["room"]["calls"])
    call = m["room"]["calls"][0]
    assert call["side"] == 0 and call["by"] == 1
    assert clients[1].error({"type": "rule", "call": call["id"], "uphold": True})["code"] == "not_host"
    clients[0].send({"type": "rule", "call": call["id"], "uphold": True})
    m = clients[2].recv_until(lambda m: m["type"] == "state" and m["event"]["kind"] == "rule")
    assert m["view"]["penalty_due"] == [0, 2]
    # seat 0 pays first: it must discard, and may do nothing else (R6.1)
    m0 = clients[0].recv_until(lambda m: m["type"] == "state" and m["event"]["kind"] == "rule")
    legal = list(m0["view"]["legal_actions"])
    assert legal and all(352 <= a < 404 for a in legal)
    clients[0].send({"type": "act", "action": legal[0], "version": m0["version"]})
    m = clients[0].recv_until(lambda m: m["type"] == "state" and m["event"]["kind"] == "action")
    assert m["view"]["hand_sizes"][0] == hands_before[0] - 1  # no replacement card
    assert m["view"]["penalty_due"] == [2]
    for c in clients:
        c.close()


def test_a_player_away_past_the_grace_period_is_replaced_by_a_bot_and_comes_back(server: Server) -> None:
    room = server.create_room(players=2, name="A", grace_seconds=0.3)
    code = room["code"]
    b_token = server.join(code, 1, "B")
    a = server.client(code, room["token"])
    b = server.client(code, b_token)
    a.send({"type": "start"})
    b.recv_until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing")
    b.close()
    # a bot stands in for seat 1, so the game goes on whenever seat 1 is to play
    m = a.recv_until(lambda m: m["type"] == "state" and m["room"]["seats"][1]["stand_in"], timeout=20)
    assert m["event"]["kind"] == "away"
    for _ in range(3):
        if not my_turn(0)(m):
            m = a.recv_until(my_turn(0))
        if over(m):
            break
        a.send({"type": "act", "action": m["view"]["legal_actions"][0], "version": m["version"]})
        m = a.recv_until(
            lambda m: m["type"] == "state" and m["event"]["kind"] == "action" and m["event"]["seat"] == 0
        )
    back = server.client(code, b_token)
    assert back.welcome["you"]["seat"] == 1
    assert back.welcome["room"]["seats"][1]["stand_in"] is False
    assert back.welcome["log"][-1]["kind"] == "back"
    a.recv_until(lambda m: m["type"] == "state" and m["event"]["kind"] == "back")
    a.close()
    back.close()


def test_turn_timer_plays_for_a_slow_player(server: Server) -> None:
    room = server.create_room(players=2, name="A", turn_seconds=1)
    code = room["code"]
    a = server.client(code, room["token"])
    a.send({"type": "bot", "seat": 1, "level": "random"})
    a.send({"type": "start"})
    m = a.recv_until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing")
    started = time.monotonic()
    # the player's turn comes with its deadline, in the message of the event that started it
    m = a.recv_until(lambda m: m["type"] == "state" and m["room"]["deadline"] is not None)
    assert m["event"] is not None
    assert m["view"]["current_seat"] == 0 and m["room"]["deadline"] - time.time() <= 1.0
    m = a.recv_until(
        lambda m: (
            m["type"] == "state" and m["event"]["kind"] == "action" and m["event"].get("auto") == "turn_timer"
        ),
        timeout=30,
    )
    assert m["event"]["seat"] == 0 and time.monotonic() - started >= 0.9
    a.close()
