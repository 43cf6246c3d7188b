#!/usr/bin/env python3
"""What permessage-deflate saves and costs on the server's real messages (``--ws-compression``).

Plays ``--games`` two-seat games of random legal moves through the real room manager in this
process (as ``benchmarks/server_memory.py`` does: no sockets), keeps every message seat 0's socket
would have been sent, and deflates them as uvicorn's websocket protocol does: raw deflate with 12
window bits and ``memLevel`` 5, a sync flush per message, the context kept from one message to the
next (browsers accept that) or not (``no_context_takeover``). Prints bytes a message and
microseconds of zlib CPU a message.

    python benchmarks/ws_compression.py --games 5
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any

from sequence_game.server.fanout import encode
from sequence_game.server.limits import Limits
from sequence_game.server.manager import RoomManager
from sequence_game.server.protocol import CreateRoom, parse_message
from sequence_game.server.seats import Connection
from sequence_game.server.store import Store


async def one_game(manager: RoomManager, rng: random.Random) -> list[bytes]:
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
    sent: list[bytes] = []
    while True:
        while not conns[0].queue.empty():
            msg = conns[0].queue.get_nowait()
            if msg is not None:
                sent.append((msg if isinstance(msg, str) else encode(msg)).encode())
        for conn in conns[1:]:
            while not conn.queue.empty():
                conn.queue.get_nowait()
        if room.status != "playing" or room.state is None:
            break
        seat = room.state.seats_to_act()[0]
        legal = room.state.legal_actions(seat)
        act = {"type": "act", "action": legal[rng.randrange(len(legal))], "version": room.version}
        await manager.handle(room, conns[seat], parse_message(json.dumps(act)))
    for conn in conns:
        await manager.disconnect(room, conn)
    return sent


def deflate(messages: list[bytes], takeover: bool) -> tuple[int, float]:
    """Bytes on the wire (payloads) and seconds of zlib for ``messages``, as permessage-deflate."""
    size, spent = 0, 0.0
    encoder = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -12, 5)
    for data in messages:
        if not takeover:
            encoder = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -12, 5)
        started = time.process_time()  # CPU time: the machine is shared
        out = encoder.compress(data) + encoder.flush(zlib.Z_SYNC_FLUSH)
        spent += time.process_time() - started
        size += len(out) - 4  # the sync flush's empty block is not sent (RFC 7692)
    return size, spent


async def run(args: argparse.Namespace) -> dict[str, Any]:
    tmp = Path(tempfile.mkdtemp(prefix="sequence-deflate-"))
    store = Store(f"sqlite:///{tmp / 'deflate.db'}")
    store.migrate()
    limits = Limits(nonce_seconds=0, rooms_burst=10**9, rooms_per_minute=10**9)
    manager = RoomManager(store, bot_delay=0, limits=limits)
    rng = random.Random(args.seed)
    messages: list[bytes] = []
    for _ in range(args.games):
        messages += await one_game(manager, rng)
    await manager.shutdown()
    store.close()
    raw = sum(len(m) for m in messages)
    out: dict[str, Any] = {
        "games": args.games,
        "messages": len(messages),
        "raw_bytes_per_message": raw / len(messages),
    }
    for name, takeover in (("context_takeover", True), ("no_context_takeover", False)):
        size, spent = deflate(messages, takeover)
        out[name] = {
            "bytes_per_message": round(size / len(messages), 1),
            "ratio": round(size / raw, 3),
            "zlib_us_per_message": round(1e6 * spent / len(messages), 1),
        }
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=5)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    json.dump(asyncio.run(run(args)), sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
