#!/usr/bin/env python3
"""What stays in a server's memory after its finished games have been evicted (docs/server.md).

Drives the real room manager in this process (no sockets: the same create, seat, connect, act,
disconnect and sweep calls the websocket handler makes) over a SQLite file, plays ``--games``
two-seat games of random legal moves, evicts every finished room, and compares the process's
memory after ``--warmup`` games with the memory after all of them:

* VmRSS (what the operating system sees, after a full collection and glibc's ``malloc_trim``,
  as the server's sweep does: ``server/memory.py``);
* ``tracemalloc`` (with ``--trace``): the Python allocations still alive, grouped by the line
  that made them, largest growth first; this is where a leak or a growing cache shows.

    python benchmarks/server_memory.py --games 1000            # VmRSS only (fast)
    python benchmarks/server_memory.py --games 300 --trace     # where the growth comes from
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

from sequence_game.server.limits import Limits
from sequence_game.server.manager import RoomManager
from sequence_game.server.protocol import CreateRoom, parse_message
from sequence_game.server.rooms import Room
from sequence_game.server.seats import Connection
from sequence_game.server.store import Store


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def started_game(manager: RoomManager) -> tuple[Room, list[Connection]]:
    """A two-seat room with both seats connected and its game dealt (also used by
    ``ws_compression.py``)."""
    room, token0 = await manager.create(CreateRoom(players=2, name="load"), "127.0.0.1")
    token1 = await manager.take_seat(room, 1, "load")
    conns = [Connection(), Connection()]
    for conn, token in zip(conns, (token0, token1), strict=True):
        room = await manager.connect(room, conn, parse_message(json.dumps({"type": "hello", "token": token})))
    await manager.handle(room, conns[0], parse_message('{"type": "start"}'))
    for _ in range(200):  # the deal waits for nonces (none are sent) up to nonce_seconds
        if room.status == "playing":
            break
        await asyncio.sleep(0.01)
    return room, conns


async def random_move(manager: RoomManager, room: Room, conns: list[Connection], rng: random.Random) -> None:
    """One random legal action by the seat to act, sent as its socket would."""
    assert room.state is not None
    seat = room.state.seats_to_act()[0]
    legal = room.state.legal_actions(seat)
    act = {"type": "act", "action": legal[rng.randrange(len(legal))], "version": room.version}
    await manager.handle(room, conns[seat], parse_message(json.dumps(act)))


async def one_game(manager: RoomManager, rng: random.Random) -> int:
    room, conns = await started_game(manager)
    moves = 0
    while room.status == "playing" and room.state is not None:
        await random_move(manager, room, conns, rng)
        moves += 1
        for conn in conns:  # what the socket writers would send
            while not conn.queue.empty():
                conn.queue.get_nowait()
    for conn in conns:
        await manager.disconnect(room, conn)
    return moves


async def evict_all(manager: RoomManager) -> None:
    for _ in range(100):
        await manager.sweep()
        if not manager.rooms:
            break
        await asyncio.sleep(0.01)
    manager.memory.release()  # as the server's sweep does once rooms left: collect, then trim


def bench_manager(name: str, **limits: float) -> tuple[Store, RoomManager]:
    """A room manager on a fresh SQLite file, with no bot delay, no nonce wait and no limit on
    room creation (the benchmarks create rooms as fast as they can); ``limits`` overrides more."""
    tmp = Path(tempfile.mkdtemp(prefix=f"sequence-{name}-"))
    store = Store(f"sqlite:///{tmp / (name + '.db')}")
    store.migrate()
    settings: dict[str, Any] = {"nonce_seconds": 0, "rooms_burst": 10**9, "rooms_per_minute": 10**9}
    return store, RoomManager(store, bot_delay=0, limits=Limits(**(settings | limits)))


async def run(args: argparse.Namespace) -> dict[str, Any]:
    store, manager = bench_manager("mem", finished_seconds=0, collect_seconds=0, sweep_seconds=3600)
    rng = random.Random(args.seed)
    out: dict[str, Any] = {"rss_start_mb": rss_mb()}
    for _ in range(args.warmup):
        await one_game(manager, rng)
    await evict_all(manager)
    out["rss_warm_mb"] = rss_mb()
    if args.trace:
        tracemalloc.start(args.frames)
        before = tracemalloc.take_snapshot()
    started = time.perf_counter()
    moves = 0
    for i in range(args.games):
        moves += await one_game(manager, rng)
        if (i + 1) % args.sweep_every == 0:  # as the server's sweeper does, every few seconds
            await manager.sweep()
    out.update(games=args.games, moves=moves, seconds=round(time.perf_counter() - started, 1))
    out["rss_after_games_mb"] = rss_mb()
    await evict_all(manager)
    out["rss_after_eviction_mb"] = rss_mb()
    out["rooms_alive"] = len(manager.alive)
    out["growth_mb"] = out["rss_after_eviction_mb"] - out["rss_warm_mb"]
    if args.trace:
        after = tracemalloc.take_snapshot()
        stats = after.compare_to(before, "traceback" if args.frames > 1 else "lineno")
        out["python_growth_kb"] = round(sum(s.size_diff for s in stats) / 1024, 1)
        out["top"] = [
            {"kb": round(s.size_diff / 1024, 1), "count": s.count_diff, "where": s.traceback.format()[-6:]}
            for s in stats[: args.top]
        ]
    await manager.shutdown()
    store.close()
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--warmup", type=int, default=20, help="games played and evicted before the baseline")
    p.add_argument("--trace", action="store_true", help="tracemalloc: where the growth was allocated")
    p.add_argument("--frames", type=int, default=1, help="traceback depth with --trace (default 1)")
    p.add_argument("--top", type=int, default=15)
    p.add_argument("--sweep-every", type=int, default=20, help="evict finished rooms every N games")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    json.dump(asyncio.run(run(args)), sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
