#!/usr/bin/env python3
"""The server's own CPU a move, without sockets, database server or load generator (docs/server.md).

Drives the real room manager in this process over a SQLite file (as ``server_memory.py`` does:
the same create, seat, connect and act calls the websocket handler makes), plays ``--games``
two-seat games of random legal moves with both seats' sockets (and ``--watchers`` spectator
sockets a room) attached, and prints the process's CPU time a move and the bytes a socket is sent
a move. What it leaves out (uvicorn's and the websockets library's layers, PostgreSQL, other
workers' events) is what ``scripts/loadtest.py`` measures; this isolates the part the server's own
code decides, with less noise from a shared machine. Compare two trees by running it alternately
with ``PYTHONPATH=TREE/src``.

    python benchmarks/server_cpu.py --games 40
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from typing import Any

from server_memory import (  # this folder: run as benchmarks/server_cpu.py
    bench_manager,
    random_move,
    started_game,
)

from sequence_game.server.json_text import encode
from sequence_game.server.manager import RoomManager
from sequence_game.server.protocol import Hello
from sequence_game.server.seats import Connection


def drain(conns: list[Connection]) -> int:
    """Empty the sockets' queues as their writers would; the bytes they would have sent."""
    sent = 0
    for conn in conns:
        while not conn.queue.empty():
            msg = conn.queue.get_nowait()
            if msg is not None:
                sent += len(msg if isinstance(msg, str) else encode(msg))
    return sent


async def one_game(
    manager: RoomManager, rng: random.Random, args: argparse.Namespace
) -> tuple[int, int, float]:
    """(moves, bytes sent, CPU seconds of the moves) of one game."""
    room, conns = await started_game(manager)
    for _ in range(args.watchers):
        watcher = Connection()
        room = await manager.connect(room, watcher, Hello(type="hello", token=None))
        conns.append(watcher)
    drain(conns)
    moves = sent = 0
    spent = 0.0
    while room.status == "playing" and room.state is not None:
        started = time.process_time()
        await random_move(manager, room, conns, rng)
        spent += time.process_time() - started
        sent += drain(conns)
        moves += 1
    for conn in conns:
        await manager.disconnect(room, conn)
    return moves, sent, spent


async def run(args: argparse.Namespace) -> dict[str, Any]:
    store, manager = bench_manager("cpu")
    rng = random.Random(args.seed)
    await one_game(manager, rng, args)  # warm-up: imports, caches
    moves = sent = 0
    spent = 0.0
    for _ in range(args.games):
        m, s, c = await one_game(manager, rng, args)
        moves, sent, spent = moves + m, sent + s, spent + c
    await manager.shutdown()
    store.close()
    sockets = 2 + args.watchers
    return {
        "games": args.games,
        "moves": moves,
        "cpu_ms_per_move": round(1000 * spent / moves, 3),
        "bytes_per_socket_per_move": round(sent / moves / sockets, 1),
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--watchers", type=int, default=0, help="spectator sockets in each room")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    json.dump(asyncio.run(run(args)), sys.stdout)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
