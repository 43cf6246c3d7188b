#!/usr/bin/env python3
"""What permessage-deflate saves and costs on the server's real messages (``--ws-compression``).

Plays ``--games`` two-seat games of random legal moves through the real room manager in this
process (as ``benchmarks/server_memory.py`` does: no sockets), keeps every message seat 0's socket
would have been sent, and deflates them as the server's websocket protocol does: raw deflate with
``--window-bits`` (13, ``server/ws_protocol.py``; uvicorn's own is 12) and ``memLevel`` 5, a sync flush per message, the context kept from one message to the
next (browsers accept that) or not (``no_context_takeover``). Prints bytes a message and
microseconds of zlib CPU a message.

    python benchmarks/ws_compression.py --games 5
    python benchmarks/ws_compression.py --games 5 --window-bits 12   # uvicorn's own window
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
import zlib
from typing import Any

from server_memory import (  # this folder: run as benchmarks/ws_compression.py
    bench_manager,
    random_move,
    started_game,
)

from sequence_game.server.json_text import encode
from sequence_game.server.manager import RoomManager


async def one_game(manager: RoomManager, rng: random.Random) -> list[bytes]:
    room, conns = await started_game(manager)
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
        await random_move(manager, room, conns, rng)
    for conn in conns:
        await manager.disconnect(room, conn)
    return sent


def deflate(messages: list[bytes], takeover: bool, bits: int) -> tuple[int, float]:
    """Bytes on the wire (payloads) and seconds of zlib for ``messages``, as permessage-deflate
    with a window of ``bits``."""
    size, spent = 0, 0.0
    encoder = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -bits, 5)
    for data in messages:
        if not takeover:
            encoder = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -bits, 5)
        started = time.process_time()  # CPU time: the machine is shared
        out = encoder.compress(data) + encoder.flush(zlib.Z_SYNC_FLUSH)
        spent += time.process_time() - started
        size += len(out) - 4  # the sync flush's empty block is not sent (RFC 7692)
    return size, spent


async def run(args: argparse.Namespace) -> dict[str, Any]:
    store, manager = bench_manager("deflate")
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
        "window_bits": args.window_bits,
    }
    for name, takeover in (("context_takeover", True), ("no_context_takeover", False)):
        size, spent = deflate(messages, takeover, args.window_bits)
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
    p.add_argument(
        "--window-bits", type=int, default=13, choices=range(9, 16), help="deflate window (default 13)"
    )
    args = p.parse_args()
    json.dump(asyncio.run(run(args)), sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
