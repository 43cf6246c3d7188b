"""Several server processes over one PostgreSQL database: who owns a room, who hears of its events.

PostgreSQL is the only truth and the only channel, so no broker is needed:

- **Commits** stay one transaction per event; the events table's key ``(room, n)`` refuses a second
  event ``n``, so two workers can never both extend a room from the same version (the loser catches
  up and its command is refused as ``stale``, changing nothing).
- **Delivery**: each commit sends ``NOTIFY room_events 'CODE:N'`` (delivered at commit). Every worker
  LISTENs on one connection and folds the new events into its own copy of the rooms it has loaded,
  then builds each of its sockets' messages itself, so no hand ever crosses the channel.
- **Ownership**: bots, turn timers and the grace period run only in the worker holding the room's
  session advisory lock ``pg_try_advisory_lock(key)``. A worker that dies loses its session and
  with it its locks; another worker with the room loaded takes it over within ``TICK`` seconds,
  exactly as after a restart (bots resume, the turn timer starts again, absent humans get grace).
- **Presence**: a worker with sockets on a seat holds a *shared* advisory lock ``(key, seat)`` on the
  same session; ``pg_locks`` then says which seats anyone is connected to, and a dead worker's
  presence disappears with its session, with no heartbeat table to keep or expire.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import secrets
import zlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .group_commit import connection_alive
from .store import NOTES_CHANNEL, NOTIFY_CHANNEL, Store, conninfo, split_notice

if TYPE_CHECKING:
    from .room_state import Room

log = logging.getLogger(__name__)

TICK = 0.5
"""Seconds between ownership, presence and grace checks (and the longest a takeover waits)."""


@functools.lru_cache(maxsize=4096)
def room_key(code: str) -> int:
    """A stable 31-bit advisory lock key for a room (Python's ``hash`` differs between processes)."""
    return zlib.crc32(code.encode()) & 0x7FFFFFFF


def runs_here(cluster: Cluster | None, code: str) -> bool:
    """Whether this worker runs room ``code``'s bots, timers and grace: it owns the room, or it
    serves alone (``cluster`` ``None``)."""
    return cluster is None or cluster.owns(code)


class Cluster:
    """One worker's share of the cluster: its session connection (locks) and its listener thread."""

    def __init__(self, store: Store) -> None:
        if not store.url.startswith("postgresql"):
            raise ValueError("more than one worker needs PostgreSQL (SQLite serves one process)")
        store.notify = True
        self.store = store
        self.url = conninfo(store.url)
        self.owned: set[str] = set()
        """Codes of the rooms whose bots, timers and grace this worker runs."""
        self.present: set[tuple[str, int]] = set()
        """(code, seat) this worker holds a presence lock for."""
        self.held_elsewhere: set[int] = set()
        """Room keys another worker owned at the last :meth:`presence_elsewhere` (one query a tick
        for every room, instead of a ``pg_try_advisory_lock`` round trip per room not owned here)."""
        self.seen_elsewhere: set[tuple[int, int]] = set()
        """(room key, seat) another worker had a socket on at the last :meth:`presence_elsewhere`."""
        self.used_elsewhere: set[int] = set()
        """Room keys owned by, or with a seat connected to, another worker at the last tick."""
        self._session: Any = None
        self._listener: asyncio.Task[None] | None = None
        self.listening = False
        """Whether the listener is connected now; while it is not, notices may be missed, so a
        room is read again from the store before a socket is welcomed (:mod:`.workers`)."""
        self.worker = secrets.token_hex(8)
        """This worker's name in its notes, so it can skip its own."""

    # ------------------------------------------------------------ session (locks)

    def _sql(self, query: str, *params: Any) -> list[tuple[Any, ...]]:
        """Run ``query`` on the session connection, opening it if need be; a lost session loses every
        lock, so ownership and presence are then forgotten and taken again."""
        import psycopg

        if self._session is not None and not connection_alive(self._session):
            self._lost_session()
        if self._session is None or self._session.closed:
            self.owned.clear()
            self.present.clear()
            self._session = psycopg.connect(self.url, autocommit=True)
        try:
            cur = self._session.execute(query, params)
            return cur.fetchall() if cur.description else []
        except psycopg.OperationalError:
            self._lost_session()
            raise

    def _lost_session(self) -> None:
        """The session connection is gone, and every lock with it: ownership and presence are
        taken again on a new one."""
        with contextlib.suppress(Exception):
            self._session.close()
        self._session = None
        self.owned.clear()
        self.present.clear()

    def owns(self, code: str) -> bool:
        return code in self.owned

    def try_own(self, code: str) -> bool:
        """Take the room's lock if no live worker holds it; True when this worker owns the room now."""
        if code in self.owned:
            return True
        if room_key(code) in self.held_elsewhere:  # owned by a live worker a tick ago: ask next tick
            return False
        if self._sql("SELECT pg_try_advisory_lock(%s)", room_key(code))[0][0]:
            self.owned.add(code)
            return True
        return False

    def release(self, code: str) -> None:
        """The room left this worker's memory: let another worker own it, drop its presence."""
        with contextlib.suppress(Exception):
            if code in self.owned:
                self.owned.discard(code)
                self._sql("SELECT pg_advisory_unlock(%s)", room_key(code))
            for key in [p for p in self.present if p[0] == code]:
                self.present.discard(key)
                self._sql("SELECT pg_advisory_unlock_shared(%s, %s)", room_key(code), key[1])

    def sync_presence(self, want: set[tuple[str, int]]) -> None:
        """Hold a shared lock on exactly the seats this worker has sockets on."""
        for code, seat in want - self.present:
            self._sql("SELECT pg_advisory_lock_shared(%s, %s)", room_key(code), seat)
            self.present.add((code, seat))
        for code, seat in self.present - want:
            self._sql("SELECT pg_advisory_unlock_shared(%s, %s)", room_key(code), seat)
            self.present.discard((code, seat))

    def present_elsewhere(self, code: str) -> set[int]:
        """Seats of the room that another worker has a socket on."""
        rows = self._sql(
            "SELECT objid FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 2 AND granted"
            " AND mode = 'ShareLock' AND classid = %s AND pid <> pg_backend_pid()",
            room_key(code),
        )
        return {int(r[0]) for r in rows}

    def presence_elsewhere(self) -> set[tuple[int, int]]:
        """(room key, seat) of every seat another worker has a socket on: one query for all rooms,
        which also notes the rooms other workers own (:attr:`held_elsewhere`)."""
        rows = self._sql(
            "SELECT classid, objid, objsubid FROM pg_locks WHERE locktype = 'advisory' AND granted"
            " AND pid <> pg_backend_pid() AND ((objsubid = 2 AND mode = 'ShareLock')"
            " OR (objsubid = 1 AND classid = 0 AND mode = 'ExclusiveLock'))"
        )
        self.held_elsewhere = {int(r[1]) for r in rows if r[2] == 1}
        self.seen_elsewhere = {(int(r[0]), int(r[1])) for r in rows if r[2] == 2}
        self.used_elsewhere = self.held_elsewhere | {key for key, _ in self.seen_elsewhere}
        return set(self.seen_elsewhere)

    def in_use_elsewhere(self, code: str) -> bool:
        """Whether another worker had the room loaded (owned) or a socket on one of its seats at
        the last tick: a lobby this worker sees as empty may not be, so it is not expired here."""
        return room_key(code) in self.used_elsewhere

    def mark_connected(self, code: str, info: dict[str, Any]) -> dict[str, Any]:
        """``info`` (a room's public form) with ``connected`` also true for the seats another
        worker had a socket on at the last tick: a seat reads the same on every worker."""
        key = room_key(code)
        for seat in info.get("seats", ()):
            if not seat["connected"] and (key, seat["seat"]) in self.seen_elsewhere:
                seat["connected"] = True
        return info

    # ------------------------------------------------------------ notes to the other workers

    def note(self, code: str, kind: str, **data: Any) -> None:
        """Tell the workers holding room ``code`` something that is not an event (sent at once, on
        the session connection): see :meth:`.workers.Workers.on_note`."""
        payload = json.dumps({"code": code, "kind": kind, "from": self.worker, **data}, separators=(",", ":"))
        self._sql("SELECT pg_notify(%s, %s)", NOTES_CHANNEL, payload)

    # ------------------------------------------------------------ listener

    def listen(
        self,
        loop: asyncio.AbstractEventLoop,
        on_event: Callable[[str, int, str], None],
        on_note: Callable[[dict[str, Any]], None],
    ) -> None:
        """LISTEN on the event loop itself: ``on_event(code, n, body)`` for each commit announced
        (``body``: the event's JSON, parsed only by a worker that needs it, or ``""``), with
        ``("", 0, "")`` when the listener (re)connected and may have missed some; ``on_note`` for
        each note of another worker (:meth:`note`).

        The connection's socket is watched by the loop (``add_reader``) and drained with libpq's
        own calls, so a notification costs no thread switch: a listener thread woke, took the GIL
        from the loop and woke the loop again for every commit of every worker."""
        self._listener = loop.create_task(self._listen(loop, on_event, on_note))

    async def _listen(
        self,
        loop: asyncio.AbstractEventLoop,
        on_event: Callable[[str, int, str], None],
        on_note: Callable[[dict[str, Any]], None],
    ) -> None:
        import psycopg

        events_channel, notes_channel = NOTIFY_CHANNEL.encode(), NOTES_CHANNEL.encode()

        def deliver(pgconn: Any) -> None:
            while (n := pgconn.notifies()) is not None:
                try:
                    payload = n.extra.decode()
                    if n.relname == events_channel:
                        on_event(*split_notice(payload))
                    elif n.relname == notes_channel:
                        note = json.loads(payload)
                        if note.get("from") != self.worker:
                            on_note(note)
                except Exception:
                    log.exception("could not handle notification %r", n.extra[:200])

        watched: dict[int, bool] = {}  # the socket watched now, until its connection is lost
        while True:
            conn: Any = None
            fd = -1
            try:
                conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
                await conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                await conn.execute(f"LISTEN {NOTES_CHANNEL}")
                pgconn = conn.pgconn
                lost: asyncio.Future[None] = loop.create_future()
                fd = pgconn.socket

                def readable(pgconn: Any = pgconn, lost: asyncio.Future[None] = lost, fd: int = fd) -> None:
                    try:
                        pgconn.consume_input()
                    except psycopg.OperationalError as exc:  # the connection is gone
                        # libpq has closed the socket: stop watching its number now, before the
                        # next socket opened (an HTTP client's) gets it and this reader its reads
                        # (a request then hung until its client gave up, issue 42)
                        if watched.pop(fd, None) is not None:
                            loop.remove_reader(fd)
                        if not lost.done():
                            lost.set_exception(exc)
                        return
                    deliver(pgconn)

                loop.add_reader(fd, readable)
                watched[fd] = True
                self.listening = True
                on_event("", 0, "")
                readable()
                await lost
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - the database is away: try again shortly
                log.warning("room_events listener lost its connection (%s); reconnecting", _first_line(exc))
            finally:
                self.listening = False
                if watched.pop(fd, None) is not None:
                    loop.remove_reader(fd)
                if conn is not None:
                    with contextlib.suppress(Exception):
                        await conn.close()
            await asyncio.sleep(1.0)

    def close(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            self._listener = None
        if self._session is not None:
            with contextlib.suppress(Exception):
                self._session.close()
            self._session = None
            self.owned.clear()
            self.present.clear()


def _first_line(exc: BaseException) -> str:
    """An error's first line, for a one-line log (the database's messages run to several)."""
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]


SPECTATORS = 0xFFFF
"""The presence "seat" of a room's spectators: a worker with any spectator socket in a room holds
it too, so a lobby watched only from another worker is not expired under its watchers."""


def local_presence(rooms: dict[str, Room]) -> set[tuple[str, int]]:
    """(code, seat) for every seat this worker has at least one socket on, and (code,
    :data:`SPECTATORS`) for every room it has a spectator's socket in."""
    seated = {(code, s.index) for code, room in rooms.items() for s in room.seats if s.connections > 0}
    watched = {(code, SPECTATORS) for code, room in rooms.items() if any(c.seat is None for c in room.conns)}
    return seated | watched
