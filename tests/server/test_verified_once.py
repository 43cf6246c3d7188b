"""A finished game is verified once (issue 16): the worker that commits the last move runs the
server's ``sequence verify`` of the record and stores the verdict with that move, so a room folded
from the store (another worker, a restart, a room loaded again after eviction) shows it without
verifying the record again."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest


def test_the_verdict_is_stored_with_the_last_move_and_folded_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sequence_game.server import fair_rooms
    from sequence_game.server.limits import Limits
    from sequence_game.server.manager import RoomManager
    from sequence_game.server.protocol import Act, CreateRoom, Hello, Start
    from sequence_game.server.rooms import rebuild
    from sequence_game.server.seats import Connection
    from sequence_game.server.store import Store

    async def scenario() -> None:
        store = Store(f"sqlite:///{tmp_path / 'verify.db'}")
        store.migrate()
        manager = RoomManager(store, bot_delay=0, bot_seconds=0.01, limits=Limits(nonce_seconds=0.05))
        rng = random.Random(5)
        try:
            room, token0 = await manager.create(CreateRoom(players=2, name="Ann"))
            tokens = [token0, await manager.take_seat(room, 1, "Bea")]
            conns = [Connection(), Connection()]
            for conn, token in zip(conns, tokens, strict=True):
                room = await manager.connect(room, conn, Hello(type="hello", token=token))
            await manager.handle(room, conns[0], Start(type="start"))
            for _ in range(200):
                if room.status == "playing":
                    break
                await asyncio.sleep(0.02)
            while room.status == "playing" and room.state is not None:
                seat = room.state.seats_to_act()[0]
                legal = room.state.legal_actions(seat)
                act = Act(type="act", action=legal[rng.randrange(len(legal))], version=room.version)
                await manager.handle(room, conns[seat], act)
            assert room.status == "over"
            assert room.verified == fair_rooms.verification(room.records[-1])
            assert room.verified["ok"] and room.verified["status"] == 0
            row = store.load_room(room.code)
            assert row is not None
            last = row.events[-1]
            assert last.kind == "action"
            reshuffled = any(n["kind"] == "reshuffle" for n in room.log[-1]["notes"])
            if reshuffled:  # tried on a copy, which does not reshuffle as the fair deal does: not stored
                assert "verify" not in last.data
                return

            def verified_again(record: Any) -> Any:
                raise AssertionError("the record was verified a second time")

            assert last.data["verify"] == room.verified
            monkeypatch.setattr(fair_rooms, "verification", verified_again)
            again = rebuild(row)
            shown = fair_rooms.fairness_public(again)
            assert shown is not None and shown["game"]["verify"] == room.verified
        finally:
            await manager.shutdown()
            store.close()

    asyncio.run(scenario())
