"""Finding a game (issue 43, part 3): the "Play now" queue in the database.

The pairing rules on their own (window widening, teams, bots after a wait), the queue's
statements on SQLite (cancel, a claim given back after a worker died), claims racing from two
stores on one PostgreSQL database, and 40 players queueing across two ``--cluster`` workers, one
of them killed with SIGKILL while people wait: each is paired exactly once, and the p99 time to a
game is printed (``pytest -s``) and written to ``queue_timing.json`` in the test's directory.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from sequence_game.server.account_store import AccountStore
from sequence_game.server.matchmaking import Entry, Queue, groups, seat_order, window
from sequence_game.server.store import Store

from .conftest import Server
from .test_accounts import Visitor
from .test_postgres import postgres_url  # noqa: F401 - the fixture

_NAMES = itertools.count(1)


def name(stem: str) -> str:
    return stem + "".join("abcdefghjk"[int(d)] for d in str(next(_NAMES)))


def entry(n: int, mu: float, joined: float = 0.0, fmt: str = "2p", bots: float | None = None) -> Entry:
    return Entry(n, f"P{n}", fmt, "none", mu, joined, bots)


# ------------------------------------------------------------------------------------ the rules


def test_the_window_widens_with_the_wait() -> None:
    far = [entry(1, 25.0), entry(2, 40.0)]
    assert groups(far, now=0.0) == []  # 15 apart: more than the first window
    assert window(30.0) >= 15.0
    [(pair, bots)] = groups(far, now=30.0)
    assert {e.account_id for e in pair} == {1, 2} and not bots
    # the nearest in rating pair first, the oldest choosing
    near = [entry(1, 25.0, 0.0), entry(2, 40.0, 0.1), entry(3, 26.0, 0.2), entry(4, 39.0, 0.3)]
    found = [sorted(e.account_id for e in g) for g, _b in groups(near, now=1.0)]
    assert found == [[1, 3], [2, 4]]


def test_teams_are_even_and_bots_fill_after_the_wait() -> None:
    four = [entry(i, mu, fmt="2t") for i, mu in enumerate((40.0, 30.0, 20.0, 10.0), 1)]
    seats = seat_order(four, 2)
    assert [e.mu for e in seats] == [40.0, 30.0, 10.0, 20.0]  # sides 40+10 and 30+20
    alone = [entry(1, 25.0, bots=10.0)]
    assert groups(alone, now=5.0) == []
    [(group, bots)] = groups(alone, now=11.0)
    assert bots and [e.account_id for e in group] == [1]
    # one who does not accept bots is not taken into a bots' table
    two = [entry(1, 25.0, bots=10.0), entry(2, 60.0, joined=5.0)]
    [(group, bots)] = groups(two, now=11.0)
    assert bots and [e.account_id for e in group] == [1]


# ------------------------------------------------------------------------------- the statements


def people(store: Store, n: int) -> list[int]:
    db = AccountStore(store)
    made = [db.create(s := name("Q"), s.lower(), "x", name("h")) for _ in range(n)]
    return [a.id for a in made if a is not None]


@pytest.fixture
def sqlite_store(tmp_path: Path) -> Iterator[Store]:
    s = Store(f"sqlite:///{tmp_path / 'q.db'}")
    s.migrate()
    yield s
    s.close()


def test_join_cancel_claim_and_a_dead_workers_claim_given_back(sqlite_store: Store) -> None:
    queue = Queue(sqlite_store)
    a, b, c = people(sqlite_store, 3)
    for account in (a, b, c):
        queue.join(account, f"n{account}", "2p", "none", 25.0, None)
    assert queue.counts()["2p"] == 3
    assert queue.cancel(c) and queue.status(c) is None and queue.counts()["2p"] == 2
    [group] = queue.claim()
    assert {e.account_id for e in group.seats} == {a, b}
    assert not queue.cancel(a)  # claimed: the room is coming
    assert queue.claim() == []  # nobody is claimed twice
    # the worker that claimed them dies: after CLAIM_SECONDS any worker gives them back
    with sqlite_store.engine.begin() as conn:
        conn.exec_driver_sql("UPDATE queue_entries SET claimed_at = claimed_at - 3600")
    assert queue.recover() == 2
    [again] = queue.claim()
    assert queue.paired(group, "LATE", {a: (0, "t"), b: (1, "u")}) is False  # the dead claim is void
    assert queue.paired(again, "ROOM", {a: (0, "t"), b: (1, "u")}) is True
    status = queue.status(a)
    assert status is not None
    assert (status["state"], status["code"], status["seat"], status["token"]) == ("paired", "ROOM", 0, "t")
    queue.done(a)
    assert queue.status(a) is None


def test_claims_race_from_two_stores_on_postgres(postgres_url: str) -> None:  # noqa: F811
    """40 entries, two stores (two workers) claiming at once, over and over: each entry is
    claimed exactly once."""
    first, second = Store(postgres_url), Store(postgres_url)
    first.migrate()
    try:
        accounts = people(first, 40)
        with first.engine.begin() as conn:
            conn.exec_driver_sql("DELETE FROM queue_entries")
        queues = [Queue(first), Queue(second)]
        for account in accounts:
            queues[account % 2].join(account, f"n{account}", "2p", "none", 25.0 + account % 7, None)
        claimed: list[list[int]] = [[], []]

        def claim(k: int) -> None:  # until nobody waits (the windows widen as they wait)
            deadline = time.monotonic() + 300
            while time.monotonic() < deadline:
                for group in queues[k].claim():
                    claimed[k].extend(e.account_id for e in group.seats)
                if len(claimed[0]) + len(claimed[1]) >= 40:
                    return
                time.sleep(0.05)

        threads = [threading.Thread(target=claim, args=(k,)) for k in (0, 1)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        every = claimed[0] + claimed[1]
        assert len(every) == len(set(every))  # nobody twice
        assert sorted(every) == sorted(accounts), (len(claimed[0]), len(claimed[1]))
    finally:
        first.close()
        second.close()


# ---------------------------------------------------------------------- 40 players, two workers

LIMITS = ["--trusted-proxy", "127.0.0.1", "--limit", "registrations_burst=100", "--cluster"]


def _wait_paired(visitors: list[Visitor], servers: list[Server], joined: dict[str, float]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    deadline = time.monotonic() + 600
    while len(found) < len(visitors) and time.monotonic() < deadline:
        for v in visitors:
            if v.address in found:
                continue
            live = [s for s in servers if s.proc is not None and s.proc.poll() is None]
            if v.http.base_url != live[0].http and len(live) == 1:
                v.http.base_url = live[0].http  # a dead worker's players move to the live one
            try:
                entry = v.request("GET", "/api/queue").json()["entry"]
            except httpx.HTTPError:  # a worker dying mid-request: ask again
                entry = None
            if entry and entry["state"] == "paired":
                found[v.address] = {**entry, "after": time.monotonic() - joined[v.address]}
        time.sleep(0.2)
    return found


def test_forty_players_two_workers_one_killed(postgres_url: str, tmp_path: Path) -> None:  # noqa: F811
    a = Server(postgres_url, log=tmp_path / "a.log", extra=LIMITS).start()
    b = Server(postgres_url, log=tmp_path / "b.log", extra=LIMITS).start()
    try:
        visitors = [Visitor(a if n % 2 else b) for n in range(40)]
        names = {}
        for v in visitors:
            names[v.address] = name("Z")
            assert v.register(names[v.address]).status_code == 201
        joined: dict[str, float] = {}
        for n, v in enumerate(visitors):
            if a.proc is not None and a.proc.poll() is not None:
                v.http.base_url = b.http  # the killed worker's players go to the other one
            r = v.post("/api/queue", {"format": "2p", "time_control": "none"})
            assert r.status_code == 201, r.text
            joined[v.address] = time.monotonic()
            if n == 25:
                a.kill()  # SIGKILL mid-queue: its players ask the other worker from now on
        found = _wait_paired(visitors, [a, b], joined)
        assert len(found) == 40, f"{40 - len(found)} never paired"
        seats = [(e["code"], e["seat"]) for e in found.values()]
        assert len(set(seats)) == 40  # nobody paired twice, no seat given twice
        rooms: dict[str, list[int]] = {}
        for code, seat in seats:
            rooms.setdefault(code, []).append(seat)
        assert all(sorted(s) == [0, 1] for s in rooms.values()) and len(rooms) == 20
        for v in visitors[:4]:  # the room is theirs: their account holds the seat
            e = found[v.address]
            room = b.get(f"/api/rooms/{e['code']}").json()
            assert room["seats"][e["seat"]]["name"] == names[v.address]
        waits = sorted(e["after"] for e in found.values())
        timing = {"players": 40, "p50": waits[19], "p99": waits[int(0.99 * 39)], "max": waits[-1]}
        (tmp_path / "queue_timing.json").write_text(json.dumps(timing))
        print(f"\ntime to a game over 40 players, two workers, one killed: {timing}")
    finally:
        a.kill()
        b.kill()


# ---------------------------------------------------------------------- one SQLite server


@pytest.fixture(scope="module")
def queue_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("queue")
    extra = ["--trusted-proxy", "127.0.0.1", "--limit", "registrations_burst=50"]
    srv = Server(str(tmp / "sequence.db"), log=tmp / "server.log", extra=extra).start()
    yield srv
    srv.stop()


def wait_entry(v: Visitor, state: str) -> dict[str, Any]:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        entry = v.request("GET", "/api/queue").json()["entry"]
        if entry is not None and entry["state"] == state:
            return dict(entry)
        time.sleep(0.2)
    raise AssertionError(f"no {state} entry in time")


def test_bots_fill_the_table_after_the_chosen_wait_and_a_guest_cannot_queue(queue_server: Server) -> None:
    guest = Visitor(queue_server)
    refused = guest.post("/api/queue", {"format": "2t"})
    assert refused.status_code == 401 and refused.json()["code"] == "not_logged_in"
    eve = Visitor(queue_server)
    assert eve.register(name("Eve")).status_code == 201
    assert eve.post("/api/queue", {"format": "2t", "time_control": "3+2", "bots_after": 0}).status_code == 201
    entry = wait_entry(eve, "paired")
    room = queue_server.get(f"/api/rooms/{entry['code']}").json()
    assert room["status"] == "playing" and "rated" not in room["config"]  # bots: casual
    assert [s["kind"] for s in room["seats"]].count("bot") == 3
    assert room["config"]["clock_minutes"] == 3 and room["config"]["clock_increment"] == 2
    assert eve.post("/api/queue/done").status_code == 200
    assert eve.request("GET", "/api/queue").json()["entry"] is None


def test_cancel_and_the_counts_on_a_server(queue_server: Server) -> None:
    ivy = Visitor(queue_server)
    assert ivy.register(name("Ivy")).status_code == 201
    ivy.post("/api/queue", {"format": "3p", "time_control": "10+5"})
    assert ivy.request("GET", "/api/queue").json()["waiting"]["3p"] == 1
    assert wait_entry(ivy, "waiting")["format"] == "3p"
    # a forged request without the CSRF token changes nothing
    assert ivy.request("DELETE", "/api/queue", csrf=False).status_code == 403
    assert ivy.request("DELETE", "/api/queue").json() == {"cancelled": True}
    status = ivy.request("GET", "/api/queue").json()
    assert status["entry"] is None and status["waiting"]["3p"] == 0
