#!/usr/bin/env python3
"""Fault injection for online rooms (issue 42): PostgreSQL restarts and workers killed with
``kill -9`` at random moments while 20 two-player games are played across two workers.

    python scripts/fault_injection.py --games 20 --seed 3

Every seat is a scripted websocket player that answers its turn with a random legal action and,
when its socket dies (its worker was killed) or goes quiet, reconnects to a live worker with its
seat token. Players take a random 0-1.2 s a move (``--think``). A fault thread waits a random 1-5 s, then either restarts PostgreSQL (a fast stop
and a start) or kills one worker (SIGKILL) and starts a fresh one in its place, until every game has ended. It reports, and exits 1 if any fails:

* **stalls**: every game must end before ``--deadline`` seconds;
* **lost updates**: every event number a player was shown must mean the same event to every
  player of the room (a lost commit would make a later event reuse its number), and no player's
  version may go backwards across reconnects;
* **records**: each finished game's record, fetched from a worker afterwards (so from the store),
  replays legally to the end every player saw, with at least as many actions as they saw.

Needs PostgreSQL's binaries (``apt-get install postgresql``) and the test helpers of
``tests/server`` (run from the repository root).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import signal
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.server.conftest import Client, Server
from tests.server.test_faults import Postgres
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from sequence_game.records import replay


class Cluster:
    """Two ``--cluster`` workers on one PostgreSQL; a killed one is replaced by a fresh one."""

    def __init__(self, url: str, logs: Path) -> None:
        self.url, self.logs = url, logs
        self.lock = threading.Lock()
        self.workers = [self._start(i) for i in range(2)]
        self.started = 2

    def _start(self, i: int) -> Server:
        return Server(self.url, log=self.logs / f"worker-{i}.log", extra=["--cluster"]).start()

    def pick(self, rng: random.Random) -> Server:
        with self.lock:
            return rng.choice(self.workers)

    def replace_one(self, rng: random.Random) -> None:
        with self.lock:
            victim = rng.choice(self.workers)
        victim.kill()
        fresh = self._start(self.started)
        with self.lock:
            self.workers[self.workers.index(victim)] = fresh
            self.started += 1

    def stop(self) -> None:
        for worker in self.workers:
            worker.stop()


@dataclass
class Seat:
    code: str
    seat: int
    token: str
    seen: dict[int, str] = field(default_factory=dict)
    """Event number -> the public event as shown (JSON), for every event this player was shown."""
    actions_seen: int = 0
    last_version: int = -1
    regressions: list[tuple[int, int]] = field(default_factory=list)
    reconnects: int = 0
    refusals: list[str] = field(default_factory=list)
    finished: bool = False


def play(cluster: Cluster, seat: Seat, seed: int, deadline: float, think: float) -> None:
    """One player: act on its turn, reconnect to a live worker whenever the socket fails."""
    rng = random.Random(seed)
    client: Client | None = None
    sent_for = -1
    while time.monotonic() < deadline and not seat.finished:
        try:
            if client is None:
                client = cluster.pick(rng).client(seat.code, seat.token)
                msg = client.welcome
                sent_for = -1
            else:
                msg = client.recv(timeout=10)
        except (OSError, TimeoutError, ConnectionClosed, InvalidHandshake, AssertionError, ValueError):
            # a dead worker, a refused or silent socket, a 503 while PostgreSQL is down: reconnect
            if client is not None:
                with contextlib.suppress(OSError, ConnectionClosed):
                    client.close()
            client = None
            seat.reconnects += 1
            time.sleep(0.2)
            continue
        if msg.get("type") == "error":
            seat.refusals.append(str(msg.get("code")))
            continue
        if msg.get("type") not in ("welcome", "state"):
            continue
        version = int(msg["version"])
        if version < seat.last_version:
            seat.regressions.append((seat.last_version, version))
        seat.last_version = max(seat.last_version, version)
        event = msg.get("event") or {}
        if msg["type"] == "state" and "n" in event:
            seat.seen[int(event["n"])] = json.dumps(event, sort_keys=True)
        view = msg.get("view")
        if view is None:
            continue
        seat.actions_seen = max(seat.actions_seen, _actions_in(view))
        if view["termination"] is not None:
            seat.finished = True
            break
        if seat.seat in view["seats_to_act"] and view["legal_actions"] and version != sent_for:
            time.sleep(rng.uniform(0, 2 * think))  # a person's pace, so that faults land mid-game
            try:
                client.send({"type": "act", "action": rng.choice(view["legal_actions"]), "version": version})
            except (OSError, ConnectionClosed):  # the worker died under us: reconnect and look again
                client = None
                seat.reconnects += 1
                continue
            sent_for = version
    if client is not None:
        client.close()


def _actions_in(view: dict[str, Any]) -> int:
    """How far the game had gone in a view: its turn number (each turn is one played card)."""
    return int(view["turn"])


def faults(cluster: Cluster, pg: Postgres, rng: random.Random, done: threading.Event, log: list[str]) -> None:
    """Faults at random moments until every game has ended."""
    while not done.wait(rng.uniform(1, 5)):
        start = time.monotonic()
        if rng.random() < 0.5:
            pg.stop("fast")
            time.sleep(rng.uniform(0.1, 1.0))
            pg.start()
            log.append(f"PostgreSQL restarted ({time.monotonic() - start:.1f} s)")
        else:
            cluster.replace_one(rng)
            log.append(f"a worker killed and replaced ({time.monotonic() - start:.1f} s)")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--think", type=float, default=0.6, help="mean seconds a player takes a move")
    parser.add_argument("--deadline", type=float, default=900, help="seconds every game must end within")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # a stopped run still removes its servers
    crashed: list[str] = []
    threading.excepthook = lambda hook: crashed.append(
        f"{hook.thread.name if hook.thread else '?'}: {hook.exc_value!r}"
    )
    rng = random.Random(args.seed)
    logs = Path(tempfile.mkdtemp(prefix="sequence-faults-"))
    pg = Postgres()
    pg.start()
    cluster = Cluster(pg.url, logs)
    fault_log: list[str] = []
    try:
        seats: list[Seat] = []
        for g in range(args.games):
            host, guest = cluster.workers[g % 2], cluster.workers[(g + 1) % 2]
            room = host.create_room(players=2, name=f"A{g}", grace_seconds=600)
            code = room["code"]
            seats.append(Seat(code, 0, room["token"]))
            seats.append(Seat(code, 1, guest.join(code, 1, f"B{g}")))
            starter = host.client(code, room["token"])
            starter.send({"type": "start"})
            starter.recv_until(
                lambda m: m.get("type") == "state" and (m.get("room") or {}).get("status") == "playing"
            )
            starter.close()
        start = time.monotonic()
        deadline = start + args.deadline
        done = threading.Event()
        chaos = threading.Thread(target=faults, args=(cluster, pg, rng, done, fault_log), daemon=True)
        players = [
            threading.Thread(
                target=play, args=(cluster, s, args.seed * 1000 + i, deadline, args.think), daemon=True
            )
            for i, s in enumerate(seats)
        ]
        chaos.start()
        for t in players:
            t.start()
        for t in players:
            t.join()
        done.set()
        chaos.join()
        elapsed = time.monotonic() - start
        report = check(cluster, seats, rng)
        report.update(
            crashed_threads=crashed,
            games=args.games,
            faults=fault_log,
            seconds=round(elapsed, 1),
            logs=str(logs),
        )
    finally:
        cluster.stop()
        pg.remove()
    if args.json:
        print(json.dumps(report))
    else:
        for line in fault_log:
            print("fault:", line)
        print("faults:", len(fault_log))
        for key in (
            "games",
            "seconds",
            "stalled",
            "conflicting_event_numbers",
            "version_regressions",
            "records_bad",
            "reconnects",
            "refusals",
            "crashed_threads",
        ):
            print(f"{key}: {report[key]}")
    print("logs:", logs)
    bad = (
        report["stalled"]
        or report["conflicting_event_numbers"]
        or report["version_regressions"]
        or report["records_bad"]
    )
    return 1 if bad else 0


def check(cluster: Cluster, seats: list[Seat], rng: random.Random) -> dict[str, Any]:
    by_room: dict[str, list[Seat]] = {}
    for s in seats:
        by_room.setdefault(s.code, []).append(s)
    stalled: list[dict[str, Any]] = []
    conflicts = 0
    records_bad: list[str] = []
    for code, pair in by_room.items():
        if not all(s.finished for s in pair):
            public = cluster.pick(rng).get(f"/api/rooms/{code}").json()
            stalled.append(
                {
                    "code": code,
                    "seats": [(s.seat, s.last_version, s.reconnects, s.refusals[-3:]) for s in pair],
                    "room": {k: public.get(k) for k in ("status", "version", "seats_to_act", "turn")},
                }
            )
        numbers = set().union(*(s.seen for s in pair))
        conflicts += sum(1 for n in numbers if len({s.seen[n] for s in pair if n in s.seen}) > 1)
        got = cluster.pick(rng).get(f"/api/rooms/{code}/record")
        if got.status_code != 200:
            records_bad.append(f"{code}: {got.status_code} {got.text[:120]}")
            continue
        record = got.json()
        result = replay(record)
        turns = result.state.turn
        if (
            not result.ok
            or ("result" not in record and all(s.finished for s in pair))
            or turns < max(s.actions_seen for s in pair)
        ):
            records_bad.append(code)
    return {
        "stalled": stalled,
        "conflicting_event_numbers": conflicts,
        "version_regressions": sum(len(s.regressions) for s in seats),
        "records_bad": records_bad,
        "reconnects": sum(s.reconnects for s in seats),
        "refusals": sorted({r for s in seats for r in s.refusals}),
    }


if __name__ == "__main__":
    sys.exit(main())
