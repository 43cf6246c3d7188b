"""Fair deals, rematches and analysis in online rooms, over the real protocol (``docs/server.md``).

The server commits to a seed at room creation, the start gathers nonces from the connected
people, the finished record verifies (``sequence verify``), a restart mid-game keeps the deal
verifiable, and the rematch passes the dealer on (R4.1) or replays the deck with the sides
exchanged.
"""

from __future__ import annotations

import hashlib
import random
import secrets
import time
from pathlib import Path
from typing import Any

from sequence_game.cards import parse_card
from sequence_game.commands.verify import VERIFIED, verify_record
from sequence_game.config import GameConfig
from sequence_game.state import GameState

from .conftest import FAST_ANALYSIS, Client, Server, advance


def playing(m: dict[str, Any]) -> bool:
    return m["type"] == "state" and m["room"]["status"] == "playing"


def answer_nonce(client: Client) -> dict[str, Any]:
    """Wait for the server's nonce request and answer it, as the page does."""
    ask = client.recv_until(lambda m: m["type"] == "nonce_request", timeout=10)
    client.send({"type": "nonce", "commitment": ask["commitment"], "nonce": secrets.token_hex(16)})
    return ask


def play_out(clients: dict[int, Client], seed: int) -> None:
    rng = random.Random(seed)
    while advance(clients, rng.choice):
        pass


def two_people(server: Server) -> tuple[str, Client, Client]:
    room = server.create_room(players=2, name="Ann")
    code = room["code"]
    bea = server.client(code, server.join(code, 1, "Bea"))
    ann = server.client(code, room["token"])
    return code, ann, bea


def test_the_commitment_is_public_from_creation_and_the_seed_is_never_sent(server: Server) -> None:
    room = server.create_room(players=2, name="Ann")
    fair = room["room"]["fairness"]
    assert len(fair["commitment"]) == 64 and "game" not in fair
    client = server.client(room["code"], room["token"])
    text = "".join(client.raw)
    assert fair["commitment"] in text
    seed_event = client.welcome["log"][0]
    assert seed_event["kind"] == "seed" and seed_event["commitment"] == fair["commitment"]
    assert "seed" not in {k for e in client.welcome["log"] for k in e if k != "kind"}
    client.close()


def test_a_start_gathers_every_nonce_and_the_record_verifies(server: Server) -> None:
    code, ann, bea = two_people(server)
    watcher = server.client(code)
    commitment = ann.welcome["room"]["fairness"]["commitment"]
    started = time.monotonic()
    ann.send({"type": "start"})
    asks = [answer_nonce(ann), answer_nonce(bea)]
    assert {a["commitment"] for a in asks} == {commitment}
    start = ann.recv_until(playing)
    bea.recv_until(playing)
    assert time.monotonic() - started < 2.0  # both answered: no waiting for the deadline
    assert start["event"]["kind"] == "start" and start["event"]["nonces"] == 2
    game = start["room"]["fairness"]["game"]
    assert game["commitment"] == commitment and "seed" not in game
    assert len(game["nonces"]) == 2
    watcher.recv_until(playing)
    assert not [m for m in watcher.messages if m["type"] == "nonce_request"]  # spectators give none
    watcher.close()
    play_out({0: ann, 1: bea}, 17)
    final = ann.last
    assert final is not None
    revealed = final["room"]["fairness"]["game"]
    # sequence-fair/2: the commitment binds the dealer (R4.1) as well as the seed
    assert revealed["algorithm"] == "sequence-fair/2" and revealed["dealer"] == start["event"]["dealer"]
    bound = b"sequence-fair/2\n" + bytes.fromhex(revealed["seed"]) + revealed["dealer"].to_bytes(4, "big")
    assert hashlib.sha256(bound).hexdigest() == commitment
    assert revealed["verify"]["ok"] is True
    record = server.get(f"/api/rooms/{code}/record").json()
    assert record["fairness"]["commitment"] == commitment
    assert sorted(n["seat"] for n in record["fairness"]["nonces"]) == [0, 1]
    status, report = verify_record(record)
    assert status == VERIFIED, report
    # a late nonce, or one for no deal, is refused
    refusal = bea.error({"type": "nonce", "commitment": commitment, "nonce": "ab" * 16})
    assert refusal["code"] == "no_deal"
    ann.close()
    bea.close()


def test_a_silent_player_cannot_stall_the_start(server: Server) -> None:
    _code, ann, bea = two_people(server)
    ann.send({"type": "start"})
    answer_nonce(ann)
    bea.recv_until(lambda m: m["type"] == "nonce_request")  # Bea never answers
    start = ann.recv_until(playing, timeout=10)
    assert start["event"]["nonces"] == 1
    assert [n["seat"] for n in start["room"]["fairness"]["game"]["nonces"]] == [0]
    ann.close()
    bea.close()


def test_bots_contribute_no_nonce_and_a_nonce_must_be_hex(server: Server) -> None:
    room = server.create_room(players=2, name="Ann")
    ann = server.client(room["code"], room["token"])
    ann.send({"type": "bot", "seat": 1, "level": "random"})
    ann.recv_until(lambda m: m["type"] == "state")
    ann.send({"type": "start"})
    ask = ann.recv_until(lambda m: m["type"] == "nonce_request")
    bad = ann.error({"type": "nonce", "commitment": ask["commitment"], "nonce": "not hex at all!"})
    assert bad["code"] == "bad_message"
    ann.send({"type": "nonce", "commitment": ask["commitment"], "nonce": "0123456789abcdef"})
    start = ann.recv_until(playing)
    assert start["room"]["fairness"]["game"]["nonces"] == [{"seat": 0, "nonce": "0123456789abcdef"}]
    ann.close()


def test_a_restart_mid_game_keeps_the_fair_deal_verifiable(tmp_path: Path) -> None:
    srv = Server(str(tmp_path / "fair.db"), log=tmp_path / "server.log").start()
    try:
        room = srv.create_room(players=2, name="Ann")
        code = room["code"]
        ann = srv.client(code, room["token"])
        ann.send({"type": "bot", "seat": 1, "level": "random"})
        ann.recv_until(lambda m: m["type"] == "state")
        ann.send({"type": "start"})
        answer_nonce(ann)
        ann.recv_until(playing)
        for _ in range(12):
            advance({0: ann})
        ann.close()
        srv.kill()  # a crash: only what was committed survives
        srv.start()
        ann = srv.client(code, room["token"])
        assert ann.welcome["room"]["status"] == "playing"
        assert len(ann.welcome["room"]["fairness"]["game"]["nonces"]) == 1
        play_out({0: ann}, 3)
        status, report = verify_record(srv.get(f"/api/rooms/{code}/record").json())
        assert status == VERIFIED, report
        ann.close()
    finally:
        srv.stop()


def hands(record: dict[str, Any]) -> list[list[int]]:
    """The hands a record's deck and dealer deal (R4.2)."""
    state = GameState(
        GameConfig(players=record["players"]), [parse_card(c) for c in record["deck"]], record["dealer"]
    )
    return [sorted(state.hand(s)) for s in range(record["players"])]


def test_rematch_passes_the_dealer_on_and_swap_exchanges_the_hands(server: Server) -> None:
    code, ann, bea = two_people(server)
    clients = {0: ann, 1: bea}
    ann.send({"type": "start"})
    answer_nonce(ann)
    answer_nonce(bea)
    for c in clients.values():
        c.recv_until(playing)
    play_out(clients, 5)
    first = server.get(f"/api/rooms/{code}/record").json()
    assert bea.error({"type": "rematch"})["code"] == "not_host"

    ann.send({"type": "rematch"})
    asks = [answer_nonce(ann), answer_nonce(bea)]
    assert asks[0]["commitment"] != first["fairness"]["commitment"]  # a fresh seed, committed first
    for c in clients.values():
        c.recv_until(playing)
    play_out(clients, 6)
    second = server.get(f"/api/rooms/{code}/record").json()
    assert second["dealer"] == (first["dealer"] + 1) % 2  # R4.1: the deal passes on
    assert second["deck"] != first["deck"]

    ann.send({"type": "rematch", "swap": True})
    for c in clients.values():
        c.recv_until(playing)
    play_out(clients, 7)
    third = server.get(f"/api/rooms/{code}/record").json()
    assert third["deck"] == second["deck"]
    # the same seed and nonces; the commitment binds the new dealer (the deck is known by now)
    same = ("algorithm", "seed", "nonces")
    assert {k: third["fairness"][k] for k in same} == {k: second["fairness"][k] for k in same}
    assert third["fairness"]["commitment"] != second["fairness"]["commitment"]
    assert hands(third) == hands(second)[::-1]  # each side holds the cards the other side had
    for record in (first, second, third):
        assert verify_record(record)[0] == VERIFIED
    match = ann.last["room"]["match"] if ann.last else {}
    assert [g["game"] for g in match["games"]] == [0, 1, 2]
    assert match["games"][2]["swap_of"] == 1
    assert sum(match["score"]) + match["draws"] == 3
    # every game of the match stays available
    assert server.get(f"/api/rooms/{code}/record?game=0").json() == first
    assert server.get(f"/api/rooms/{code}/record?game=9").status_code == 404
    ann.close()
    bea.close()


def test_swap_needs_two_sides(server: Server) -> None:
    room = server.create_room(players=3, name="Ann")
    ann = server.client(room["code"], room["token"])
    for seat in (1, 2):
        ann.send({"type": "bot", "seat": seat, "level": "random"})
        ann.recv_until(lambda m: m["type"] == "state")
    ann.send({"type": "start"})
    answer_nonce(ann)
    ann.recv_until(playing)
    play_out({0: ann}, 8)
    refusal = ann.error({"type": "rematch", "swap": True})
    assert refusal["code"] == "not_two_sides"
    ann.close()


def test_analysis_runs_in_a_worker_with_progress(tmp_path: Path) -> None:
    srv = Server(str(tmp_path / "a.db"), log=tmp_path / "server.log", extra=FAST_ANALYSIS).start()
    try:
        room = srv.create_room(players=2, name="Ann")
        code = room["code"]
        ann = srv.client(code, room["token"])
        ann.send({"type": "bot", "seat": 1, "level": "random"})
        ann.recv_until(lambda m: m["type"] == "state")
        assert srv.post(f"/api/rooms/{code}/analysis").status_code == 409  # no game over yet
        ann.send({"type": "start"})
        answer_nonce(ann)
        ann.recv_until(playing)
        play_out({0: ann}, 9)
        record = srv.get(f"/api/rooms/{code}/record").json()
        job = srv.post(f"/api/rooms/{code}/analysis").json()
        assert job["status"] in ("queued", "running", "done")
        seen = set()
        deadline = time.monotonic() + 120
        while job["status"] != "done" and time.monotonic() < deadline:
            assert job["status"] != "failed", job["error"]
            seen.add(job["done"])
            # the room answers at once while the analysis runs
            assert srv.get("/health").status_code == 200
            time.sleep(0.2)
            job = srv.get(f"/api/rooms/{code}/analysis").json()
        assert job["status"] == "done", job
        assert job["done"] == job["total"] > 0 and len(seen) >= 1
        result = job["result"]
        assert result["moves"] and all(0 <= m["index"] < len(record["actions"]) for m in result["moves"])
        assert len(job["frames"]) == len(record["actions"])
        assert all(0.0 <= m["before"] <= 1.0 for m in result["moves"])
        ann.close()
    finally:
        srv.stop()
