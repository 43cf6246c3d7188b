"""Group commit on PostgreSQL: the events that arrive within one turn of the event loop, whatever
their rooms, committed in one statement, without blocking the loop.

Why: a synchronous commit stopped the event loop for a whole round trip to the database, once per
move, and each round trip cost a switch to PostgreSQL's process and back. Here a commit is a
future: the first one of a loop turn schedules a flush, every commit queued before it runs joins
it, and the flush sends them as ONE statement through libpq in non-blocking mode, the loop serving
other rooms while PostgreSQL works: every event is a row of one JSON array (inserted, its room's
version set, its ``NOTIFY`` sent), and an event that also changes more of its room row or seats
adds its own data-modifying ``WITH`` parts. Commits queued meanwhile form the next group.

The statement's text depends only on those few events with parts of their own, so a group of
moves, whatever its size, runs one prepared statement that PostgreSQL soon plans once for all
(with a part per event, each size and mix of a group was a statement of its own: hundreds,
prepared and planned again and again).

Durability is unchanged: a commit's future completes only once PostgreSQL committed it, and the
caller (:meth:`RoomManager.commit`) folds and sends the event only then. One statement is one
transaction, so a group is all or nothing; when a group fails (another worker took an event
number first: ``stale``), each of its events is committed again alone, so only the stale one fails.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .json_text import encode_bytes as encode_rows

log = logging.getLogger(__name__)

MAX_GROUP = 64
"""The most events one statement commits (a bound on its size; more wait for the next group)."""
MAX_PREPARED = 256
"""Statement shapes kept prepared on the connection (a group's shape: its events' shapes)."""


@dataclass
class Pending:
    """One event to commit: its row of the group's JSON array, the shape and builder of its own
    ``WITH`` parts (``None``: it has none), their parameters by name, and who waits for it."""

    row: dict[str, Any]
    shape: tuple[Any, ...] | None
    parts: Callable[[Callable[[str], str]], list[str]] | None
    """Builds the event's own ``WITH`` parts, given a namer of parameters."""
    params: dict[str, bytes | None]
    done: asyncio.Future[None]


class GroupCommitter:
    """One PostgreSQL connection, driven by the event loop, that commits the queued events in groups.

    ``batch``: the ``WITH`` parts that take the group's rows from the JSON array ``$1``; ``main``:
    the statement's main query (the ``NOTIFY``s)."""

    def __init__(
        self, conninfo: str, error: Callable[[BaseException], BaseException], batch: str, main: str
    ) -> None:
        self.conninfo = conninfo
        self._error = error
        """Turns a driver error into what the store raises (``IntegrityError`` for a taken number)."""
        self._batch = batch
        self._main = main
        self._conn: Any = None
        self._pending: list[Pending] = []
        self._task: asyncio.Task[None] | None = None
        self._prepared: dict[tuple[Any, ...], bytes] = {}
        self._sql: dict[tuple[Any, ...], tuple[str, list[str]]] = {}
        self.groups = 0
        """Statements sent (for ``/health`` and the load test: events committed / groups)."""
        self.events = 0

    def submit(self, pending: Pending) -> asyncio.Future[None]:
        self._pending.append(pending)
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._drain())
        return pending.done

    async def _drain(self) -> None:
        try:
            while self._pending:
                group, self._pending = self._pending[:MAX_GROUP], self._pending[MAX_GROUP:]
                await self._commit_group(group)
        finally:
            self._task = None

    async def _commit_group(self, group: list[Pending]) -> None:
        try:
            try:
                await self._execute(group)
            except Exception as exc:
                if not _not_run(exc):
                    raise
                await self._execute(group)  # on a new connection (_execute dropped the old one)
        except Exception as exc:  # noqa: BLE001 - every waiter gets its own answer below
            if len(group) == 1 or self._conn is None:
                for p in group:
                    _fail(p.done, self._error(exc))
                return
            for p in group:  # one of them is stale (or bad): the others commit alone
                try:
                    await self._execute([p])
                except Exception as alone:  # noqa: BLE001 - handed to its waiter
                    _fail(p.done, self._error(alone))
                else:
                    _succeed(p.done)
            return
        for p in group:
            _succeed(p.done)

    async def _connect(self) -> Any:
        if self._conn is not None and not connection_alive(self._conn):
            self.close()
        if self._conn is None or self._conn.closed:
            import psycopg

            self._prepared.clear()
            self._conn = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
            self._conn.pgconn.nonblocking = 1
        return self._conn

    async def _execute(self, group: list[Pending]) -> None:
        conn = await self._connect()
        try:
            own = [p for p in group if p.shape is not None]
            key = tuple(p.shape for p in own)
            sql, order = self._statement(key, own)
            values: list[bytes | None] = [encode_rows([p.row for p in group])]
            values += [own[int(i)].params[name] for i, _, name in (n.partition(":") for n in order)]
            name = self._prepared.get(key)
            if name is None and len(self._prepared) < MAX_PREPARED:
                name = f"sequence_group_{len(self._prepared)}".encode()
                await self._run(conn.pgconn, lambda: conn.pgconn.send_prepare(name, sql.encode()))
                self._prepared[key] = name
            if name is not None:
                await self._run(conn.pgconn, lambda: conn.pgconn.send_query_prepared(name, values))
            else:
                await self._run(conn.pgconn, lambda: conn.pgconn.send_query_params(sql.encode(), values))
            self.groups += 1
            self.events += len(group)
        except BaseException as exc:
            # the connection is gone (0: CONNECTION_OK), or ending: a new one next time
            if conn.pgconn.status != 0 or _not_run(exc):
                self.close()
            raise

    def _statement(self, key: tuple[Any, ...], own: list[Pending]) -> tuple[str, list[str]]:
        """The SQL text of a group whose events with parts of their own are ``own`` (of shapes
        ``key``), and those parts' parameters' names (``"i:name"``, i the event's place in
        ``own``) in ``$n`` order from ``$2`` (``$1`` is the group's rows)."""
        found = self._sql.get(key)
        if found is None:
            order: list[str] = []
            placed: dict[str, int] = {}  # each name's place in ``order``
            parts: list[str] = [self._batch]
            for i, p in enumerate(own):

                def arg(name: str, i: int = i) -> str:
                    full = f"{i}:{name}"
                    at = placed.get(full)
                    if at is None:
                        at = placed[full] = len(order)
                        order.append(full)
                    return f"${at + 2}"

                assert p.parts is not None
                parts.extend(part.replace(" AS (", f"_{i} AS (", 1) for part in p.parts(arg))
            found = ("WITH " + ", ".join(parts) + " " + self._main, order)
            if len(self._sql) < 4 * MAX_PREPARED:
                self._sql[key] = found
        return found

    async def _run(self, pgconn: Any, send: Callable[[], None]) -> None:
        """Send one query without blocking and wait (on the loop) for its results; raise psycopg's
        own exception for an error, as its cursor would."""
        from psycopg import errors, pq

        loop = asyncio.get_running_loop()
        fd = pgconn.socket
        send()
        while pgconn.flush():  # 1: more of the query to send
            await _ready(loop, fd, write=True)
        failed = None
        while True:
            while pgconn.is_busy():
                await _ready(loop, fd)
                pgconn.consume_input()
            result = pgconn.get_result()
            if result is None:
                break
            if result.status not in (pq.ExecStatus.COMMAND_OK, pq.ExecStatus.TUPLES_OK) and failed is None:
                failed = errors.error_from_result(result, encoding="utf-8")
        if failed is not None:
            raise failed

    def close(self) -> None:
        conn, self._conn = self._conn, None
        self._prepared.clear()
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.pgconn.finish()


async def _ready(loop: asyncio.AbstractEventLoop, fd: int, *, write: bool = False) -> None:
    """Wait until the socket can be read (or written)."""
    ready: asyncio.Future[None] = loop.create_future()

    def wake() -> None:
        if not ready.done():
            ready.set_result(None)

    (loop.add_writer if write else loop.add_reader)(fd, wake)
    try:
        await ready
    finally:
        (loop.remove_writer if write else loop.remove_reader)(fd)


def connection_alive(conn: Any) -> bool:
    """Whether an idle connection still stands, found without a round trip: what is already in
    its socket is read (never waited for). A database that restarted closed it, so the first
    commit after a restart goes on a new connection instead of failing (issue 42); only a
    connection lost while its statement is under way (it may have committed) fails its group."""
    if conn.closed:
        return False
    try:
        # twice: a restart's farewell (an error message) is read first, its end of stream next
        conn.pgconn.consume_input()
        conn.pgconn.consume_input()
    except Exception:  # noqa: BLE001 - the connection is gone
        return False
    return bool(conn.pgconn.status == 0)  # libpq's CONNECTION_OK


def _not_run(exc: BaseException) -> bool:
    """Whether a failed statement surely committed nothing, so it may be sent again: its
    connection had been ended by the database shutting down or restarting (SQLSTATE class 57P:
    the server ends such a session, and any transaction in it, before it reads more)."""
    state = getattr(exc, "sqlstate", None)
    return isinstance(state, str) and state.startswith("57P")


def _succeed(done: asyncio.Future[None]) -> None:
    if not done.done():
        done.set_result(None)


def _fail(done: asyncio.Future[None], exc: BaseException) -> None:
    if not done.done():
        done.set_exception(exc)
