"""A new room's code is drawn again when the store already has a room with it (the unique index
refuses it: no look-up before each creation), whether or not that room is in memory."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.exc import IntegrityError

from sequence_game.server.limits import Limits
from sequence_game.server.manager import RoomManager
from sequence_game.server.protocol import CreateRoom
from sequence_game.server.store import Store


def test_the_store_refuses_a_second_room_with_the_same_code(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'codes.db'}")
    store.migrate()
    try:
        store.create_room("SAMEAA", {"players": 2}, host_seat=0)
        with pytest.raises(IntegrityError):
            store.create_room("SAMEAA", {"players": 3}, host_seat=1)
        row = store.load_room("SAMEAA")
        assert row is not None and row.config == {"players": 2}
    finally:
        store.close()


def test_a_code_in_use_is_drawn_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store(f"sqlite:///{tmp_path / 'codes.db'}")
    store.migrate()
    store.create_room("TAKENA", {"players": 2}, host_seat=0)  # in the store, not in memory
    letters: Iterator[str] = iter("TAKENA" + "FRESHB")
    monkeypatch.setattr("sequence_game.server.manager.secrets.choice", lambda _alphabet: next(letters))

    async def scenario() -> str:
        manager = RoomManager(store, limits=Limits())
        try:
            room, _token = await manager.create(CreateRoom(players=2, name="Ann", public=True))
            return room.code
        finally:
            await manager.shutdown()

    try:
        assert asyncio.run(scenario()) == "FRESHB"
        taken = store.load_room("TAKENA")
        assert taken is not None and taken.events == []  # the room in the store is untouched
    finally:
        store.close()
