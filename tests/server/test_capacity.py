"""Memory given back once rooms leave it, and the websocket compression switch (issue 16).

The figures (memory after 1,000 evicted games, CPU per move with and without compression) come
from ``scripts/loadtest.py`` and are in docs/server.md; these tests pin the behaviour behind them.
"""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from sequence_game.server.memory import MemoryKeeper

from .conftest import Server, advance
from .test_hardening import wait_for


class _Holder:
    """Something that refers to itself, as a closed websocket's protocol object does."""

    def __init__(self) -> None:
        self.me = self
        self.payload = bytearray(1 << 20)


def test_a_release_frees_what_reference_counting_cannot() -> None:
    keeper = MemoryKeeper(collect_seconds=0)
    gc.disable()  # only the release may collect here
    try:
        held = _Holder()
        dead = weakref.ref(held)
        del held
        assert dead() is not None  # a cycle: no reference count reaches zero
        keeper.release()
        assert dead() is None
    finally:
        gc.enable()
    stats = keeper.stats()
    assert stats["collections"] == 1 and not stats["pending"]
    assert 0 <= stats["last_ms"] <= stats["max_ms"]


def test_collections_are_spaced_and_a_skipped_one_runs_later() -> None:
    keeper = MemoryKeeper(collect_seconds=60)
    keeper.release(now=0.0)  # the first one runs at once
    keeper.release(now=10.0)  # too soon: trimmed only, the collection is owed
    assert keeper.stats()["collections"] == 1 and keeper.pending
    assert keeper.stats()["trims"] == 1 and keeper.stats()["trim_max_ms"] >= 0
    assert not keeper.tick(now=30.0)
    assert keeper.tick(now=61.0)  # a later sweep, even one that evicted nothing, pays it
    assert keeper.stats()["collections"] == 2 and not keeper.pending
    assert not keeper.tick(now=200.0)  # nothing owed


class _Transport:
    """The little of an asyncio transport that uvicorn's websocket protocol asks for."""

    def get_extra_info(self, name: str, default: object = None) -> object:
        return default

    def close(self) -> None:
        pass

    def is_closing(self) -> bool:
        return True


async def _no_app(scope: object, receive: object, send: object) -> None:
    pass


def test_a_lost_websocket_connection_is_freed_without_the_collector() -> None:
    """uvicorn's websocket protocol holds a ``websockets`` protocol in a cycle with its parser:
    after its connection is lost it stays until a full collection; ours is freed at once."""
    import asyncio

    from uvicorn.config import Config
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
    from uvicorn.server import ServerState

    from sequence_game.server.ws_protocol import PROTOCOL, FreedOnClose

    loop = asyncio.new_event_loop()
    config = Config(app=_no_app, ws=PROTOCOL)
    config.load()
    assert config.ws_protocol_class is FreedOnClose
    alive = {}
    gc.disable()
    try:
        for kind in (WebSocketsSansIOProtocol, FreedOnClose):
            protocol = kind(config, ServerState(), app_state={}, _loop=loop)
            protocol.connection_made(_Transport())  # type: ignore[arg-type]
            inner = weakref.ref(protocol.conn)
            protocol.connection_lost(None)
            del protocol
            alive[kind.__name__] = inner() is not None
    finally:
        gc.enable()
        loop.close()
    assert alive == {"WebSocketsSansIOProtocol": True, "FreedOnClose": False}


def test_settle_freezes_the_objects_of_the_start() -> None:
    keeper = MemoryKeeper()
    try:
        keeper.settle()
        assert keeper.stats()["frozen"] == gc.get_freeze_count() > 1000
    finally:
        gc.unfreeze()


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server without websocket compression, evicting finished rooms at once."""
    tmp = tmp_path_factory.mktemp("plain")
    limits = ["finished_seconds=0.3", "sweep_seconds=0.2", "collect_seconds=0"]
    extra = ["--ws-compression", "off", *(arg for limit in limits for arg in ("--limit", limit))]
    srv = Server(str(tmp / "plain.db"), log=tmp / "server.log", extra=extra).start()
    yield srv
    srv.stop()


def _extensions(srv: Server) -> str:
    code = srv.create_room(players=2)["code"]
    client = srv.client(code)
    try:
        return str(client.ws.response.headers.get("Sec-WebSocket-Extensions", ""))
    finally:
        client.close()


def test_compression_is_on_by_default_and_off_on_request(server: Server, plain: Server) -> None:
    assert "permessage-deflate" in _extensions(server)  # the client offers it, as browsers do
    assert _extensions(plain) == ""


def test_the_server_deflates_with_an_8_kb_window(server: Server) -> None:
    """server/ws_protocol.py: 13 window bits (uvicorn's own is 12), told to the client (RFC 7692)."""
    assert "server_max_window_bits=13" in _extensions(server)


def test_a_sweep_that_evicts_releases_memory(plain: Server) -> None:
    health = plain.get("/health").json()["memory"]
    assert health["frozen"] > 1000  # settled once the server started
    room = plain.create_room(players=2, name="Ann")
    host = plain.client(room["code"], room["token"])
    host.send({"type": "bot", "seat": 1, "level": "random"})
    host.send({"type": "start"})
    host.recv_until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing")
    while advance({0: host}):
        pass
    before = plain.get("/health").json()
    host.close()
    wait_for(lambda: plain.get("/health").json()["rooms_evicted"] > before["rooms_evicted"])
    after = plain.get("/health").json()["memory"]
    assert after["collections"] > before["memory"]["collections"]
