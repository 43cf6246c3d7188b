"""Chess clocks (issue 18, item 5): the pure clock arithmetic, then real servers over real sockets.

The clocks are the server's (``server/clocks.py``): a stamp of every seat's time left is stored
with each game event, the running clock is the seat to act, a seat's finished turn adds the
increment, and a clock that runs out hands the seat to a bot or loses the game, as the host chose.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from sequence_game.records import replay
from sequence_game.server import room_clocks
from sequence_game.server.clocks import Clock, ClockRules, Clocks, flag_result
from sequence_game.server.protocol import Configure, CreateRoom, ProtocolError

from .conftest import Client, Server, my_turn


def replay_ok(record: dict[str, Any]) -> bool:
    return replay(record).ok


# ------------------------------------------------------------------------------------------ pure


def test_a_running_clock_counts_down_and_a_stopped_one_does_not() -> None:
    c = Clock(60_000)
    assert c.remaining(now=100.0) == 60_000
    c.start(100.0)
    assert c.remaining(101.5) == 58_500
    c.stop(102.0)
    assert c.left_ms == 58_000 and c.started_at is None
    assert c.remaining(500.0) == 58_000  # stopped: time passes without it
    c.start(500.0)
    assert c.remaining(10_000.0) == 0  # never below zero


def test_the_seat_whose_turn_is_done_gets_the_increment_and_the_next_seat_runs() -> None:
    rules = ClockRules(base_ms=60_000, increment_ms=5_000)
    cl = Clocks.fresh(rules, 3)
    cl.hand_to(0, 10.0)
    assert cl.running == 0
    cl.hand_to(1, 12.0)  # seat 0 thought 2 s
    cl.seats[0].add(rules.increment_ms)
    assert [c.remaining(13.0) for c in cl.seats] == [63_000, 59_000, 60_000]
    assert cl.running == 1
    assert cl.seconds_to_flag(13.0) == pytest.approx(59.0)


def test_a_flag_falls_only_on_the_running_clock_and_never_runs_again() -> None:
    cl = Clocks.fresh(ClockRules(base_ms=3_000), 2)
    cl.hand_to(1, 0.0)
    assert cl.due(2.9) is None
    assert cl.due(3.0) == 1
    cl.seats[1].flagged = True
    cl.hand_to(0, 3.0)
    cl.hand_to(1, 4.0)  # the flagged seat's turn: no clock runs (a bot plays it)
    assert cl.running is None and cl.due(100.0) is None
    cl.seats[1].add(5_000)
    assert cl.seats[1].left_ms == 0


@given(
    left=st.lists(st.integers(0, 3_600_000), min_size=2, max_size=12),
    at=st.floats(1e9, 2e9),
    data=st.data(),
)
def test_a_stamp_rebuilds_the_same_clocks(left: list[int], at: float, data: st.DataObject) -> None:
    flagged = data.draw(st.sets(st.integers(0, len(left) - 1)))
    rules = ClockRules(base_ms=600_000, increment_ms=2_000, on_flag="loss")
    stamp = {"left": left, "at": at, "flagged": sorted(flagged)}
    rebuilt = Clocks.from_stamp(rules, stamp)
    assert rebuilt.stamp(at) == stamp
    seat = data.draw(st.integers(0, len(left) - 1))
    rebuilt.hand_to(seat, at)
    later = rebuilt.stamp(at + 1.25)
    for i, ms in enumerate(left):  # only the running clock moved, by 1.25 s at most down to 0
        assert later["left"][i] == (max(0, ms - 1250) if i == seat and i not in flagged else ms)


@given(sides=st.sampled_from([2, 3]), seat=st.integers(0, 11))
def test_the_flagged_side_loses(sides: int, seat: int) -> None:
    result = flag_result(sides, seat, [0] * sides)
    assert result["loser"] == seat % sides and result["end"] == "clock"
    assert result["winner"] == (1 - seat % sides if sides == 2 else None)


def test_the_view_of_clocks_names_every_seat_and_the_server_time() -> None:
    cl = Clocks.fresh(ClockRules(base_ms=90_000, increment_ms=3_000, on_flag="bot"), 2)
    cl.hand_to(1, 1000.0)
    d = cl.to_dict(1001.0)
    assert d["now_ms"] == 1_001_000 and d["running"] == 1
    assert d["seats"] == [
        {"left_ms": 90_000, "running": False, "flagged": False},
        {"left_ms": 89_000, "running": True, "flagged": False},
    ]
    assert (d["base_ms"], d["increment_ms"], d["on_flag"]) == (90_000, 3_000, "bot")


@pytest.mark.parametrize("minutes", [-1, 0.01, 61, float("nan"), float("inf"), 1e300])
def test_nonsense_base_times_are_refused(minutes: float) -> None:
    with pytest.raises(ValidationError):
        CreateRoom(clock_minutes=minutes)
    with pytest.raises(ValidationError):
        Configure(type="configure", clock_minutes=minutes)


def test_sensible_clock_choices_are_accepted() -> None:
    body = CreateRoom(clock_minutes=0.05, clock_increment=60, clock_flag="loss")
    assert (body.clock_minutes, body.clock_increment, body.clock_flag) == (0.05, 60, "loss")
    assert CreateRoom().clock_minutes == 0  # off by default
    with pytest.raises(ValidationError):
        CreateRoom(clock_increment=61)
    with pytest.raises(ValidationError):
        CreateRoom(clock_flag="resign")
    rules = ClockRules.from_config({"clock_minutes": 1.5, "clock_increment": 2, "clock_flag": "loss"})
    assert rules == ClockRules(90_000, 2_000, "loss")
    assert ClockRules.from_config({"clock_minutes": 0}) is None


# ------------------------------------------------------------------------------------ the server


def playing(m: dict[str, Any]) -> bool:
    return m["type"] in ("welcome", "state") and m["room"]["status"] == "playing"


def two_people(server: Server, **clock: Any) -> tuple[str, dict[int, Client], dict[int, str]]:
    """A started two-seat room of two people with ``clock`` settings."""
    room = server.create_room(players=2, name="Ann", **clock)
    code = room["code"]
    tokens = [room["token"], server.join(code, 1, "Bob")]
    clients = {seat: server.client(code, tokens[seat]) for seat in (0, 1)}
    clients[0].send({"type": "start"})
    for c in clients.values():
        c.recv_until(lambda m: playing(m) and m["view"] is not None)
    return code, clients, dict(enumerate(tokens))


def test_the_room_view_carries_every_seats_clock(server: Server) -> None:
    room = server.create_room(players=2, clock_minutes=5, clock_increment=3, clock_flag="loss")
    assert room["room"]["config"]["clock_minutes"] == 5
    shown = room["room"]["clocks"]
    assert shown["base_ms"] == 300_000 and shown["increment_ms"] == 3_000 and shown["on_flag"] == "loss"
    assert [s["left_ms"] for s in shown["seats"]] == [300_000, 300_000] and shown["running"] is None
    plain = server.create_room(players=2)
    assert plain["room"]["clocks"] is None
    bad = server.post("/api/rooms", {"players": 2, "clock_minutes": -3})
    assert bad.status_code == 422


def test_the_increment_is_added_when_a_turn_is_done(server: Server) -> None:
    _code, clients, _tokens = two_people(server, clock_minutes=1, clock_increment=5)
    first = clients[0].last["view"]["current_seat"]
    mover = clients[first]
    before = mover.last["room"]["clocks"]
    assert before["running"] == first
    legal = [a for a in mover.last["view"]["legal_actions"] if a < 300]
    mover.send({"type": "act", "action": legal[0], "version": mover.last["version"]})
    after = mover.recv_until(lambda m: m["type"] == "state" and m["event"]["kind"] == "action")
    shown = after["room"]["clocks"]
    # a minute, less the moment it took, plus 5 s: more than the base
    assert 60_000 < shown["seats"][first]["left_ms"] <= 65_000
    assert shown["running"] == 1 - first and shown["seats"][1 - first]["running"]
    assert shown["seats"][1 - first]["left_ms"] <= 60_000


def test_a_clock_that_runs_out_hands_the_seat_to_a_bot_for_good(server: Server) -> None:
    code, clients, tokens = two_people(server, clock_minutes=0.05, clock_flag="bot")
    first = clients[0].last["view"]["current_seat"]
    late, other = clients[first], clients[1 - first]
    # nobody sends anything: the server's own timer sees the flag fall after 3 s
    flag = late.recv_until(lambda m: m["type"] == "state" and m["event"]["kind"] == "flag", timeout=20)
    assert flag["event"]["seat"] == first and flag["event"]["on_flag"] == "bot"
    shown = flag["room"]
    assert shown["status"] == "playing" and shown["seats"][first]["stand_in"]
    assert shown["clocks"]["seats"][first] == {"left_ms": 0, "running": False, "flagged": True}
    # the stand-in plays at once; then the other person's clock runs, for 3 s: a move sent for the
    # flagged seat meanwhile is refused with a clear reason
    late.recv_until(lambda m: m["type"] == "state" and m["view"]["current_seat"] == 1 - first)
    assert late.last["room"]["clocks"]["running"] == 1 - first
    err = late.error({"type": "act", "action": 0, "version": late.last["version"]})
    assert err["code"] == "flag_fell" and "time ran out" in err["message"], err
    # coming back does not take the seat back
    late.close()
    again = server.client(code, tokens[first])
    assert again.welcome["room"]["seats"][first]["stand_in"]
    # the other clock runs out too: two bots play the game to its end
    end = other.recv_until(
        lambda m: m["type"] == "state" and m["view"]["termination"] is not None, timeout=60
    )
    assert end["view"]["termination"] in ("sequences", "stuck")
    events = [m["event"] for m in other.messages if m.get("type") == "state" and m.get("event")]
    assert sorted(e["seat"] for e in events if e["kind"] == "flag") == [0, 1]
    assert not any(e["kind"] == "back" for e in events)
    assert any(e["kind"] == "action" and e["seat"] == first and e["n"] > flag["event"]["n"] for e in events)
    record = server.get(f"/api/rooms/{code}/record").json()
    assert replay_ok(record) and "clock_flag" not in record  # a game ended by the rules
    # a rematch is a new game: each seat is its player's again, with a fresh clock
    clients[0].send({"type": "rematch"}) if first != 0 else again.send({"type": "rematch"})
    backs = set()
    while backs != {0, 1}:
        m = other.recv_until(lambda m: m["type"] == "state" and m["event"]["kind"] == "back", timeout=20)
        backs.add(m["event"]["seat"])
    assert not any(s["stand_in"] for s in other.last["room"]["seats"])
    assert not any(s["flagged"] for s in other.last["room"]["clocks"]["seats"])


def test_a_clock_that_runs_out_loses_the_game_when_the_host_chose_so(server: Server) -> None:
    code, clients, _tokens = two_people(server, clock_minutes=0.05, clock_flag="loss")
    first = clients[0].last["view"]["current_seat"]
    end = clients[1 - first].recv_until(
        lambda m: m["type"] == "state" and m["room"]["status"] == "over", timeout=20
    )
    assert end["event"]["kind"] == "flag" and end["event"]["seat"] == first
    result = end["room"]["result"]
    assert result == {"winner": 1 - first, "loser": first, "seat": first, "sequences": [0, 0], "end": "clock"}
    assert end["view"]["termination"] == "clock" and end["view"]["winner"] == 1 - first
    assert end["room"]["match"]["score"][1 - first] == 1
    late = clients[first]
    late.recv_until(lambda m: m["type"] == "state" and m["room"]["status"] == "over")
    assert late.last["view"]["legal_actions"] == []
    err = late.error({"type": "act", "action": 0, "version": late.last["version"]})
    assert err["code"] == "not_playing"
    record = server.get(f"/api/rooms/{code}/record").json()
    assert record["clock_flag"]["loser"] == first and "result" not in record
    # a rematch starts both clocks afresh
    clients[0].send({"type": "rematch"})
    again = clients[0].recv_until(
        lambda m: playing(m) and m.get("event", {}) and m["event"]["kind"] == "start"
    )
    assert all(2_000 < s["left_ms"] <= 3_000 for s in again["room"]["clocks"]["seats"])
    assert not any(s["flagged"] for s in again["room"]["clocks"]["seats"])


def test_three_sides_the_flagged_side_loses_and_the_others_draw(server: Server) -> None:
    room = server.create_room(players=3, name="Ann", clock_minutes=0.05, clock_flag="loss", against="random")
    ann = server.client(room["code"], room["token"])
    end = ann.recv_until(
        lambda m: m["type"] in ("welcome", "state") and m["room"]["status"] == "over", timeout=30
    )
    result = end["room"]["result"]
    assert result["end"] == "clock" and result["loser"] == 0 and result["winner"] is None
    assert end["room"]["match"]["draws"] == 1


def test_a_move_after_the_flag_fell_is_refused_even_before_the_timer_wakes(tmp_path: Path) -> None:
    """The race the timer cannot close: a move arriving after the time ran out, before the server's
    own timer woke. Driven in process, the seat's clock moved back instead of waiting."""
    from sequence_game.server.manager import RoomManager
    from sequence_game.server.protocol import Act, Hello
    from sequence_game.server.seats import Connection
    from sequence_game.server.store import Store

    async def scenario() -> None:
        store = Store(f"sqlite:///{tmp_path / 'race.db'}")
        store.migrate()
        manager = RoomManager(store, bot_delay=0, bot_seconds=0.01)
        try:
            body = CreateRoom(players=2, name="Ann", clock_minutes=1, clock_flag="loss", against="random")
            room, token = await manager.create(body)
            conn = Connection()
            room = await manager.connect(room, conn, Hello(type="hello", token=token))
            for _ in range(200):  # the bot may have the first move
                if room.state is not None and room.state.current_seat == 0:
                    break
                await asyncio.sleep(0.01)
            async with room.lock:
                assert room.clocks is not None and room.clocks.running == 0
                assert room.clock_task is not None
                room.clock_task.cancel()  # the timer has not woken yet...
                room.clock_task = None
                room.clocks.seats[0].started_at = time.time() - 61  # ...and the minute is gone
                action = room.state.legal_actions(0)[0]
                version = room.version
            with pytest.raises(ProtocolError) as refused:
                await manager.handle(room, conn, Act(type="act", action=action, version=version))
            assert refused.value.code == "flag_fell"
            assert room.status == "over" and room_clocks.result(room)["loser"] == 0
            assert room.log[-1]["kind"] == "flag"
        finally:
            await manager.shutdown()
            store.close()

    asyncio.run(scenario())


def test_a_restart_keeps_every_clock(tmp_path: Path) -> None:
    db = str(tmp_path / "clocks.db")
    first = Server(db, log=tmp_path / "first.log").start()
    try:
        code, clients, tokens = two_people(first, clock_minutes=10, clock_increment=2)
        for _ in range(3):  # three turns, so both clocks have moved
            actor = clients[0].last["view"]["current_seat"]
            c = clients[actor]
            assert my_turn(actor)(c.last)
            legal = list(c.last["view"]["legal_actions"])
            c.send({"type": "act", "action": legal[0], "version": c.last["version"]})
            for cl in clients.values():
                cl.recv_until(lambda m: m["type"] == "state" and m["event"]["kind"] == "action")
        before = first.get(f"/api/rooms/{code}").json()["clocks"]
        first.kill()
    finally:
        first.kill()

    second = Server(db, log=tmp_path / "second.log").start()
    try:
        after = second.get(f"/api/rooms/{code}").json()["clocks"]
        running = before["running"]
        assert after["running"] == running
        for seat, (b, a) in enumerate(zip(before["seats"], after["seats"], strict=True)):
            if seat == running:  # charged for the time since its turn began, downtime included
                waited = after["now_ms"] - before["now_ms"]
                assert b["left_ms"] - waited - 50 <= a["left_ms"] < b["left_ms"]
            else:
                assert a["left_ms"] == b["left_ms"]
                assert a["left_ms"] > 600_000  # its increments were stored too
        # the flag timer runs again after the restart: the game goes on with the same clocks
        again = {seat: second.client(code, token) for seat, token in tokens.items()}
        assert again[running].welcome["room"]["clocks"]["running"] == running
    finally:
        second.stop()


def test_a_game_lost_on_time_can_be_replayed_and_analysed(server: Server) -> None:
    room = server.create_room(players=2, name="Ann", clock_minutes=0.05, clock_flag="loss", against="random")
    code = room["code"]
    ann = server.client(code, room["token"])
    ann.recv_until(lambda m: m["type"] == "state" and m["room"]["status"] == "over", timeout=30)
    replay_r = server.get(f"/api/rooms/{code}/replay")
    assert replay_r.status_code == 200, replay_r.text
    assert len(replay_r.json()["frames"]) >= 1  # the deal, and each move made before the flag
    started = server.post(f"/api/rooms/{code}/analysis")
    assert started.status_code == 202, started.text
    deadline = time.monotonic() + 60
    job = started.json()
    while job["status"] in ("queued", "running") and time.monotonic() < deadline:
        time.sleep(0.3)
        job = server.get(f"/api/rooms/{code}/analysis").json()
    assert job["status"] == "done", job
