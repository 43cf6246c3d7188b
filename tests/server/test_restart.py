"""Every action is stored before it is acknowledged: kill the server mid-game, start it again on the
same database, and the game resumes exactly where it was (a bot seat included)."""

from __future__ import annotations

from pathlib import Path

from sequence_game.records import replay

from .conftest import Server, advance


def test_killed_server_resumes_every_game_exactly(tmp_path: Path) -> None:
    db = str(tmp_path / "games.db")
    first = Server(db, log=tmp_path / "first.log").start()
    try:
        room = first.create_room(players=3, name="Ann")
        code = room["code"]
        tokens = [room["token"], first.join(code, 1, "Bob")]
        clients = {seat: first.client(code, tokens[seat]) for seat in (0, 1)}
        clients[0].send({"type": "bot", "seat": 2, "level": "random"})
        clients[0].send({"type": "start"})
        for c in clients.values():
            c.recv_until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing")
        events = 0
        while events < 12 or clients[0].last["view"]["seats_to_act"][0] == 2:
            assert advance(clients, pick=lambda legal: legal[-1])
            events += 1
        before = {seat: c.last for seat, c in clients.items()}
        first.kill()  # SIGKILL: no shutdown hook runs
    finally:
        first.kill()

    second = Server(db, log=tmp_path / "second.log").start()
    try:
        assert second.get(f"/api/rooms/{code}").json()["status"] == "playing"
        assert second.get(f"/api/rooms/{code}/record").status_code == 409
        again = {seat: second.client(code, tokens[seat]) for seat in (0, 1)}
        for seat, c in again.items():
            assert c.welcome["version"] == before[seat]["version"]
            assert c.welcome["view"] == before[seat]["view"], f"seat {seat} does not resume where it was"
        while advance(again):  # the game goes on to its end, the bot playing its seat again
            pass
        record = second.get(f"/api/rooms/{code}/record").json()
        assert replay(record).ok
        assert any(a.get("seat") == 2 for a in record["actions"][events:])  # the bot played after the restart
    finally:
        second.stop()


def test_a_players_mutes_survive_a_restart(tmp_path: Path) -> None:
    """Mutes are stored with the seat (they lived in the server's memory only): after a SIGKILL and
    a restart on the same database the player's reconnect still lists them and hides the lines."""
    db = str(tmp_path / "mutes.db")
    first = Server(db, log=tmp_path / "first.log").start()
    try:
        room = first.create_room(players=3, name="Ann")
        code = room["code"]
        bob = first.client(code, first.join(code, 1, "Bob"))
        ann = first.client(code, room["token"])
        ann.send({"type": "mute", "seat": 1})
        assert ann.recv_until(lambda m: m["type"] == "muted")["seats"] == [1]
        bob.send({"type": "chat", "text": "muted line"})
        bob.recv_until(lambda m: m["type"] == "chat")
        first.kill()  # SIGKILL: no shutdown hook runs
    finally:
        first.kill()
    second = Server(db, log=tmp_path / "second.log").start()
    try:
        again = second.client(code, room["token"])
        assert again.welcome["muted"] == [1]
        assert again.welcome["chat"] == []
    finally:
        second.stop()
