"""Durable storage: rooms, seats and the numbered event log, through SQLAlchemy Core.

Every change to a room appends its event and updates the room row (and the seats it touches) in
one transaction, committed before any client hears of it; on PostgreSQL the events of one turn of
the event loop share one transaction (:mod:`.group_commit`). A game is rebuilt after a restart
by replaying its stored actions through the engine. The schema is created by the Alembic
migrations shipped in ``migrations/``, so ``pip install`` is enough to serve.

>>> store = Store("sqlite://")
>>> store.migrate()
>>> store.create_room("ABCD", {"players": 2}, host_seat=0)
>>> store.load_room("ABCD").config
{'players': 2}
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.pool import StaticPool

from .group_commit import GroupCommitter, Pending
from .json_text import decode, encode

metadata = sa.MetaData()
NOTIFY_CHANNEL = "room_events"
"""PostgreSQL channel on which every commit is announced when :attr:`Store.notify` is on."""
NOTES_CHANNEL = "room_notes"
"""PostgreSQL channel for what workers tell each other outside the event log: a seat's mutes
(private, so never an event) and a start's nonce gathering (memory only, as on one worker)."""

rooms = sa.Table(
    "rooms",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("code", sa.String(16), nullable=False, unique=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("config", sa.JSON, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("host_seat", sa.Integer, nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("game", sa.JSON, nullable=True),
    sa.Column("result", sa.JSON, nullable=True),
)

seats = sa.Table(
    "seats",
    metadata,
    sa.Column("room_id", sa.Integer, sa.ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("name", sa.String(40), nullable=False),
    sa.Column("token_hash", sa.String(64), nullable=True),
    sa.Column("bot_level", sa.String(32), nullable=True),
    sa.Column("muted", sa.JSON, nullable=True),
)

events = sa.Table(
    "events",
    metadata,
    sa.Column("room_id", sa.Integer, sa.ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("n", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("data", sa.JSON, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)

rate_limits = sa.Table(
    "rate_limits",
    metadata,
    sa.Column("bucket", sa.String(16), primary_key=True),
    sa.Column("client", sa.String(64), primary_key=True),
    sa.Column("tokens", sa.Float, nullable=False),
    sa.Column("stamp", sa.Float, nullable=False),
    sa.Column("admitted", sa.Boolean, nullable=False),
)
"""Token buckets every worker shares (:mod:`.token_buckets`): one row a limit and client address."""


class _Writer:
    """One driver (DBAPI) connection for :meth:`Store.commit`, with its statements compiled once.

    Only the event loop commits events, one at a time, so one connection is enough; it uses the
    driver's own transactions (PEP 249: the first statement begins one, ``commit`` ends it), as
    SQLAlchemy does underneath. JSON columns are encoded here as SQLAlchemy would (text for
    SQLite, the driver's JSON adapter for PostgreSQL), so what SQLAlchemy reads back is the same."""

    def __init__(self, engine: sa.Engine) -> None:
        self.engine = engine
        self.dialect = engine.dialect
        self._raw: Any = None
        self._sql: dict[Any, tuple[str, list[str] | None, dict[str, Any]]] = {}
        self._prepared: dict[Any, bytes] = {}
        """The statements prepared on the open connection (PostgreSQL), by shape."""
        if self.dialect.name == "postgresql":
            from psycopg.types.json import Json

            self._json: Callable[[Any], Any] = Json
        else:
            self._json = json.dumps

    def _compiled(self, key: Any, build: Callable[[], Any]) -> tuple[str, list[str] | None, dict[str, Any]]:
        """The statement's SQL text, its parameters' order (positional drivers) and the values
        bound in it (a literal argument such as ``pg_notify``'s channel)."""
        found = self._sql.get(key)
        if found is None:
            compiled = build().compile(dialect=self.dialect)
            order = list(compiled.positiontup) if compiled.positional and compiled.positiontup else None
            bound = {k: v for k, v in compiled.params.items() if v is not None}
            found = self._sql[key] = (str(compiled), order, bound)
        return found

    def _run(self, cur: Any, key: Any, build: Callable[[], Any], params: dict[str, Any]) -> None:
        """Execute the statement ``build`` makes (compiled the first time ``key`` is seen)."""
        sql, order, bound = self._compiled(key, build)
        if bound:
            params = {**bound, **params}
        cur.execute(sql, [params[name] for name in order] if order is not None else params)

    def commit(
        self,
        room_id: int,
        event: EventRow,
        fields: dict[str, Any],
        seat_rows: list[SeatRow],
        payload: str | None,
    ) -> None:
        if self._raw is None:
            self._raw = self.engine.raw_connection()
            if self.dialect.name == "postgresql":  # one statement is one transaction (below)
                self._raw.driver_connection.autocommit = True
        raw = self._raw
        dbapi = self.dialect.loaded_dbapi
        if self.dialect.name == "postgresql":
            try:
                self._commit_postgres(raw, room_id, event, fields, seat_rows, payload)
            except dbapi.Error as exc:
                conn = raw.driver_connection
                if conn.closed or conn.pgconn.status != 0 or isinstance(exc, dbapi.OperationalError):
                    self.close()  # the connection is gone (0: libpq's CONNECTION_OK)
                if isinstance(exc, dbapi.IntegrityError):
                    raise sa.exc.IntegrityError("commit", None, exc) from exc
                raise
            return
        try:
            cur = raw.cursor()
            try:
                self._run(
                    cur,
                    "event",
                    lambda: events.insert().values({c: sa.bindparam(c) for c in _EVENT_COLUMNS}),
                    {
                        "room_id": room_id,
                        "n": event.n,
                        "kind": event.kind,
                        "seat": event.seat,
                        "data": self._json(event.data),
                        "at": time.time(),
                    },
                )
                names = tuple(sorted(fields))
                values = {name: self._json(v) if name in _JSON_ROOM else v for name, v in fields.items()}
                self._run(
                    cur,
                    ("room", names),
                    lambda: (
                        rooms.update()
                        .where(rooms.c.id == sa.bindparam("room_key"))
                        .values({name: sa.bindparam(name) for name in ("version", *names)})
                    ),
                    {"room_key": room_id, "version": event.n, **values},
                )
                if payload is not None:
                    self._run(
                        cur,
                        "notify",
                        lambda: sa.select(sa.func.pg_notify(NOTIFY_CHANNEL, sa.bindparam("payload"))),
                        {"payload": payload},
                    )
                for row in seat_rows:
                    self._run(
                        cur,
                        "seat-",
                        lambda: seats.delete().where(
                            seats.c.room_id == sa.bindparam("room_key"),
                            seats.c.seat == sa.bindparam("seat_key"),
                        ),
                        {"room_key": room_id, "seat_key": row.seat},
                    )
                    self._run(
                        cur,
                        "seat+",
                        lambda: seats.insert().values({c: sa.bindparam(c) for c in _SEAT_COLUMNS}),
                        {"room_id": room_id, **row.__dict__},
                    )
            finally:
                cur.close()
            raw.commit()
        except dbapi.Error as exc:
            try:
                raw.rollback()
            except dbapi.Error:  # the connection itself is gone: open another next time
                self.close()
            if isinstance(exc, dbapi.IntegrityError):
                raise sa.exc.IntegrityError("commit", None, exc) from exc
            raise

    def _commit_postgres(
        self,
        raw: Any,
        room_id: int,
        event: EventRow,
        fields: dict[str, Any],
        seat_rows: list[SeatRow],
        payload: str | None,
    ) -> None:
        """The whole commit as ONE statement in autocommit, so one round trip to the server: the
        event, the room row and the seats in data-modifying ``WITH`` parts (run to completion,
        all or nothing, as one transaction), the ``NOTIFY`` in the main query (sent at commit).
        Every round trip is a wait on the event loop, and on a busy machine each one costs a
        switch to the database's process and back.

        The statement is prepared once per shape on this connection and run through libpq itself
        (``PQexecPrepared``, which waits without the GIL) with every value already text: psycopg's
        cursor (query conversion, adaptation, its own preparation bookkeeping) was most of the
        Python time a move spent in the store (``py-spy --gil`` under the load test)."""
        key = _pg_shape(fields, seat_rows, payload)
        found = self._sql.get(key)
        if found is None:
            order: list[str] = []

            def arg(name: str) -> str:
                if name not in order:
                    order.append(name)
                return f"${order.index(name) + 1}"

            parts, notify = _pg_parts(key)(arg)
            main = f"SELECT {notify}" if notify is not None else "SELECT 1"
            found = self._sql[key] = ("WITH " + ", ".join(parts) + " " + main, order, {})
        sql, order_of, _ = found
        assert order_of is not None
        params = _pg_params(room_id, event, fields, seat_rows, payload)
        conn = raw.driver_connection
        pgconn = conn.pgconn
        statement = self._prepared.get(key)
        if statement is None:
            statement = f"sequence_commit_{len(self._prepared)}".encode()
            _check(conn, pgconn.prepare(statement, sql.encode()))
            self._prepared[key] = statement
        _check(conn, pgconn.exec_prepared(statement, [params[p] for p in order_of]))

    def close(self) -> None:
        raw, self._raw = self._raw, None
        self._prepared.clear()
        if raw is not None:
            with contextlib.suppress(Exception):
                raw.invalidate()


def _pg_shape(fields: dict[str, Any], seat_rows: list[SeatRow], payload: str | None) -> tuple[Any, ...]:
    """What a commit's statement depends on: the room fields set, the seat rows, a NOTIFY or not."""
    return ("pg", tuple(sorted(fields)), len(seat_rows), payload is not None)


def _pg_parts(shape: tuple[Any, ...]) -> Callable[[Callable[[str], str]], tuple[list[str], str | None]]:
    """The ``WITH`` parts of one commit of ``shape`` (the event, the room row, the seats) and its
    ``pg_notify`` call, given ``arg``, which names each parameter's placeholder."""
    _, names, n_seats, notify = shape
    own = _pg_own_parts(names, n_seats)

    def parts(arg: Callable[[str], str]) -> tuple[list[str], str | None]:
        event = (
            "ev AS (INSERT INTO events (room_id, n, kind, seat, data, at) VALUES "
            f"({arg('room_id')}, {arg('n')}, {arg('kind')}, {arg('seat')}, {arg('data')}, {arg('at')}))"
        )
        return [event, *own(arg)], (f"pg_notify('{NOTIFY_CHANNEL}', {arg('payload')})" if notify else None)

    return parts


def _pg_own_parts(names: tuple[str, ...], n_seats: int) -> Callable[[Callable[[str], str]], list[str]]:
    """The ``WITH`` parts that update one commit's room row with ``names`` set and upsert its
    ``n_seats`` seat rows, given ``arg``, which names each parameter's placeholder."""

    def parts(arg: Callable[[str], str]) -> list[str]:
        sets = "".join(f", {name} = {arg(name)}" for name in names)
        out = [f"rm AS (UPDATE rooms SET version = {arg('n')}{sets} WHERE id = {arg('room_id')})"]
        out.extend(
            f"s{i} AS (INSERT INTO seats (room_id, seat, kind, name, token_hash, bot_level)"
            f" VALUES ({arg('room_id')}, {arg(f'seat{i}')}, {arg(f'kind{i}')}, {arg(f'name{i}')},"
            f" {arg(f'token{i}')}, {arg(f'bot{i}')})"
            " ON CONFLICT (room_id, seat) DO UPDATE SET kind = EXCLUDED.kind, name = EXCLUDED.name,"
            " token_hash = EXCLUDED.token_hash, bot_level = EXCLUDED.bot_level, muted = NULL)"
            for i in range(n_seats)
        )
        return out

    return parts


GROUP_BATCH = (
    "batch AS (SELECT * FROM json_to_recordset($1::json) AS b(room int, n int, kind text, seat int,"
    " data text, at float8, payload text, own bool)), "
    "ev AS (INSERT INTO events (room_id, n, kind, seat, data, at)"
    " SELECT room, n, kind, seat, data::json, at FROM batch), "
    "rv AS (UPDATE rooms SET version = last.n"
    " FROM (SELECT room, max(n) AS n FROM batch WHERE NOT own GROUP BY room) AS last"
    " WHERE rooms.id = last.room)"
)
"""The ``WITH`` parts every group commit starts with (:mod:`.group_commit`): each event of the
group is one row of the JSON array ``$1``, inserted into ``events`` and, unless it sets more of
its room row (``own``: its own parts follow), the room's version set. The statement's text does
not depend on how many events a group has, so the usual group (moves only) is ONE prepared
statement, planned generically once PostgreSQL has run it a few times; with one ``WITH`` part per
event, groups of every size and mix were as many statements, most of them planned at every run."""
GROUP_NOTIFY = f"SELECT pg_notify('{NOTIFY_CHANNEL}', payload) FROM batch WHERE payload IS NOT NULL"
"""The group commit's main query: the group's ``NOTIFY``s, sent when it commits."""


def _pg_params(
    room_id: int, event: EventRow, fields: dict[str, Any], seat_rows: list[SeatRow], payload: str | None
) -> dict[str, bytes | None]:
    """A commit's parameters by name, each already in PostgreSQL's text format."""
    params: dict[str, Any] = {
        "room_id": room_id,
        "n": event.n,
        "kind": event.kind,
        "seat": event.seat,
        "data": _json_text(event.data),
        "at": time.time(),
        "payload": payload,
    }
    for name, value in fields.items():
        params[name] = _json_text(value) if name in _JSON_ROOM else value
    for i, row in enumerate(seat_rows):
        params.update(
            {
                f"seat{i}": row.seat,
                f"kind{i}": row.kind,
                f"name{i}": row.name,
                f"token{i}": row.token_hash,
                f"bot{i}": row.bot_level,
            }
        )
    return {name: _pg_text(value) for name, value in params.items()}


def _json_text(value: Any) -> str | None:
    """A JSON column's value as its text (``None`` stays SQL ``NULL``)."""
    return None if value is None else encode(value)


def _pg_text(value: Any) -> bytes | None:
    """A parameter in PostgreSQL's text format (what ``PQexecPrepared`` takes)."""
    if value is None:
        return None
    if isinstance(value, str):
        if "\x00" in value:  # libpq would cut the value at the NUL; psycopg refuses it too
            import psycopg

            raise psycopg.DataError("PostgreSQL text fields cannot contain NUL (0x00) bytes")
        return value.encode()
    if isinstance(value, bool):
        return b"true" if value else b"false"
    if isinstance(value, float):
        return repr(value).encode()
    return str(value).encode()


def _check(conn: Any, result: Any) -> None:
    """Raise psycopg's own exception (``IntegrityError`` for a taken event number, and so on) when
    a libpq call failed, as psycopg's cursor would."""
    import psycopg
    from psycopg import errors, pq

    if result is None:
        raise psycopg.OperationalError(conn.pgconn.get_error_message().decode(errors="replace"))
    if result.status not in (pq.ExecStatus.COMMAND_OK, pq.ExecStatus.TUPLES_OK):
        raise errors.error_from_result(result, encoding="utf-8")


_EVENT_COLUMNS = ("room_id", "n", "kind", "seat", "data", "at")
_SEAT_COLUMNS = ("room_id", "seat", "kind", "name", "token_hash", "bot_level")
_JSON_ROOM = frozenset({"config", "game", "result"})


@dataclass
class SeatRow:
    seat: int
    kind: str
    name: str
    token_hash: str | None
    bot_level: str | None


@dataclass
class EventRow:
    n: int
    kind: str
    seat: int | None
    data: dict[str, Any]


@dataclass
class RoomRow:
    """A stored room as it was last committed."""

    code: str
    config: dict[str, Any]
    status: str
    host_seat: int
    version: int
    game: dict[str, Any] | None
    result: dict[str, Any] | None
    created_at: float = 0.0
    seats: list[SeatRow] = field(default_factory=list)
    events: list[EventRow] = field(default_factory=list)
    mutes: dict[int, list[int]] = field(default_factory=dict)
    """The seats each seat's player muted (private: kept beside the seat, never an event)."""


def notice(code: str, event: EventRow, data: str | None = None) -> str:
    """The NOTIFY payload of an event: ``CODE:N`` and, when it fits PostgreSQL's 8,000 bytes, the
    event itself as JSON after a space, so a listener need not read it back from the table.
    ``data``: the event's data as JSON text when the caller has it already (not encoded again)."""
    head = f"{code}:{event.n}"
    if data is None:
        data = encode(event.data)
    body = f'{{"kind":{encode(event.kind)},"seat":{encode(event.seat)},"data":{data}}}'
    return f"{head} {body}" if len(head) + len(body.encode()) < 7900 else head


def split_notice(payload: str) -> tuple[str, int, str]:
    """``(code, n, the event's JSON or "")`` from :func:`notice`'s payload, the JSON left unparsed:
    a worker that does not hold the room (or made the commit itself) never needs it."""
    head, _, body = payload.partition(" ")
    code, _, n = head.partition(":")
    return code, int(n), body


def notice_event(n: int, body: str) -> EventRow | None:
    """The event a notice carried (:func:`split_notice`'s body), or ``None`` when it did not fit."""
    if not body:
        return None
    d = decode(body)
    return EventRow(n, d["kind"], d["seat"], d["data"])


#: libpq settings for every connection the server opens, unless the URL sets them: a database
#: that is down or unreachable is given up on in seconds (a connection attempt must not hold a
#: request, or the event loop, for minutes), and a connection that died silently (a restart, a
#: network gone) is found out by TCP keepalives rather than waited on for ever.
PG_DEFAULTS = {
    "connect_timeout": "5",
    "keepalives": "1",
    "keepalives_idle": "10",
    "keepalives_interval": "5",
    "keepalives_count": "3",
}


def conninfo(url: str) -> str:
    """A libpq URI from a SQLAlchemy URL (``postgresql+psycopg://`` -> ``postgresql://``), with
    :data:`PG_DEFAULTS` where it sets none."""
    parsed = sa.make_url(url).set(drivername="postgresql")
    parsed = parsed.update_query_dict({k: v for k, v in PG_DEFAULTS.items() if k not in parsed.query})
    return parsed.render_as_string(hide_password=False)


def _store_error(exc: BaseException) -> BaseException:
    """A driver's error as :meth:`Store.commit` raises it: a taken event number is SQLAlchemy's
    ``IntegrityError``, whatever the driver; anything else as it came."""
    import psycopg

    if isinstance(exc, psycopg.IntegrityError):
        return sa.exc.IntegrityError("commit", None, exc)
    return exc


def unreachable_errors() -> tuple[type[Exception], ...]:
    """The errors that say the database cannot be reached or answer now (down, restarting, its
    connection lost), as opposed to a statement it refused: a request that meets one is told
    to try again (503), not given a server error."""
    found: list[type[Exception]] = [sa.exc.OperationalError, sa.exc.InterfaceError]
    with contextlib.suppress(ImportError):
        import psycopg

        found += [psycopg.OperationalError, psycopg.InterfaceError]
    return tuple(found)


def database_url(db: str) -> str:
    """A SQLAlchemy URL from ``--db``: a URL as given, anything else is a SQLite file path."""
    if "://" in db:
        return db
    return f"sqlite:///{Path(db).expanduser().resolve()}"


class Store:
    """The database behind the rooms: short transactions, one per event (:meth:`commit`), or on
    PostgreSQL one per group of events committed without blocking the loop (:meth:`submit`)."""

    def __init__(self, url: str) -> None:
        self.url = url
        kwargs: dict[str, Any] = {}
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False}
            if url in ("sqlite://", "sqlite:///:memory:"):
                kwargs["poolclass"] = StaticPool
        elif url.startswith("postgresql"):
            # a pooled connection that died with a database restart is replaced, not used and failed
            kwargs["pool_pre_ping"] = True
            query = sa.make_url(url).query
            kwargs["connect_args"] = {k: v for k, v in PG_DEFAULTS.items() if k not in query}
        self.engine = sa.create_engine(url, **kwargs)
        self._writer: _Writer | None = None
        """The connection every event is committed on (opened on first use)."""
        self._group: GroupCommitter | None = None
        """PostgreSQL: the connection :meth:`commit_async` commits groups of events on."""
        self._ids: dict[str, int] = {}
        """Room ids by code: a room's id never changes, so each commit saves a look-up."""
        self.notify = False
        """PostgreSQL with several workers (:mod:`.cluster`): each commit also sends
        ``NOTIFY room_events 'CODE:N'``, delivered to every listener when the transaction commits."""
        if url.startswith("sqlite"):
            sa.event.listen(self.engine, "connect", _sqlite_pragmas)

    def migrate(self) -> None:
        """Bring the schema to the newest Alembic revision (idempotent)."""
        from alembic import command
        from alembic.config import Config

        cfg = Config()
        cfg.set_main_option("script_location", str(Path(__file__).with_name("migrations")))
        with self.engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")

    def ping(self) -> bool:
        with self.engine.connect() as conn:
            return conn.execute(sa.text("SELECT 1")).scalar() == 1

    @contextlib.contextmanager
    def snapshot(self) -> Iterator[sa.Connection]:
        """A connection whose reads all see one committed state of the database, for a page
        built from several statements. The driver alone would run each read on its own: SQLite's
        driver begins a transaction only before a write, and PostgreSQL's READ COMMITTED takes a
        new snapshot for each statement."""
        with self.engine.connect() as conn:
            if self.engine.dialect.name == "postgresql":
                conn = conn.execution_options(isolation_level="REPEATABLE READ")
            else:
                conn.exec_driver_sql("BEGIN")  # deferred: the first read fixes what the rest see
            try:
                yield conn
            finally:
                conn.rollback()

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        if self._group is not None:
            self._group.close()
            self._group = None
        self.engine.dispose()

    # ------------------------------------------------------------------ writing

    def create_room(self, code: str, config: dict[str, Any], host_seat: int) -> None:
        """A new room row; ``IntegrityError`` when a room with ``code`` exists (codes are unique).
        Its id is kept for the commits that follow (no look-up at the first one)."""
        with self.engine.begin() as conn:
            room_id = conn.execute(
                rooms.insert()
                .values(
                    code=code,
                    created_at=time.time(),
                    config=config,
                    status="lobby",
                    host_seat=host_seat,
                    version=0,
                )
                .returning(rooms.c.id)
            ).scalar_one()
        self._ids[code] = room_id

    def _room_id(self, conn: sa.Connection, code: str) -> int:
        room_id = self._ids.get(code)
        if room_id is None:
            room_id = conn.execute(sa.select(rooms.c.id).where(rooms.c.code == code)).scalar_one()
            self._ids[code] = room_id
        return room_id

    def commit(
        self,
        code: str,
        event: EventRow,
        *,
        room: dict[str, Any] | None = None,
        seat_rows: list[SeatRow] | None = None,
    ) -> None:
        """Append one event and apply its consequences, atomically; raises if ``event.n`` is taken
        (as SQLAlchemy's ``IntegrityError``, whatever the driver).

        The hot path of every move: it runs on one driver connection kept open for it, with each
        statement compiled once (:class:`_Writer`), so a commit costs the database's own work and
        little of SQLAlchemy's per-statement machinery (a quarter of the time, measured)."""
        if self._writer is None:
            self._writer = _Writer(self.engine)
        room_id = self._ids.get(code)
        if room_id is None:
            with self.engine.connect() as conn:
                room_id = self._room_id(conn, code)
        self._writer.commit(
            room_id, event, room or {}, seat_rows or [], notice(code, event) if self.notify else None
        )

    def save_mutes(self, code: str, seat: int, muted: list[int], note: str | None = None) -> None:
        """Store the seats ``seat``'s player muted, so they hold on any worker and after the room
        left memory; ``note`` is announced on :data:`NOTES_CHANNEL` when the change commits (the
        other workers' sockets on the seat hear of it)."""
        with self.engine.begin() as conn:
            room_id = self._room_id(conn, code)
            conn.execute(
                seats.update()
                .where(seats.c.room_id == room_id, seats.c.seat == seat)
                .values(muted=sorted(muted) or None)
            )
            if note is not None:
                conn.execute(sa.select(sa.func.pg_notify(NOTES_CHANNEL, note)))

    def room_mutes(self, code: str) -> dict[int, set[int]]:
        """Each seat's mutes in the room, as stored (every seat, muting nobody or not)."""
        with self.engine.connect() as conn:
            room_id = self._room_id(conn, code)
            rows = conn.execute(sa.select(seats.c.seat, seats.c.muted).where(seats.c.room_id == room_id))
            return {int(r.seat): {int(m) for m in r.muted or ()} for r in rows}

    def submit(
        self,
        code: str,
        event: EventRow,
        *,
        room: dict[str, Any] | None = None,
        seat_rows: list[SeatRow] | None = None,
    ) -> asyncio.Future[None] | None:
        """:meth:`commit` without waiting on the event loop: on PostgreSQL the event joins the group
        of commits of this turn of the loop (:mod:`.group_commit`) and the future completes once
        it is committed (or fails with what :meth:`commit` would raise), the loop serving others
        meanwhile; on SQLite (a local file, no round trip) it is committed at once and ``None``
        is returned."""
        if not self.url.startswith("postgresql"):
            self.commit(code, event, room=room, seat_rows=seat_rows)
            return None
        if self._group is None:
            self._group = GroupCommitter(conninfo(self.url), _store_error, GROUP_BATCH, GROUP_NOTIFY)
        room_id = self._ids.get(code)
        if room_id is None:
            with self.engine.connect() as conn:
                room_id = self._room_id(conn, code)
        fields, rows = room or {}, seat_rows or []
        data = _json_text(event.data)
        payload = notice(code, event, data) if self.notify else None
        own = bool(fields or rows)
        batch = {
            "room": room_id,
            "n": event.n,
            "kind": event.kind,
            "seat": event.seat,
            "data": data,
            "at": time.time(),
            "payload": payload,
            "own": own,
        }
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if not own:  # the usual commit (a move, a chat line): its row of the batch says it all
            return self._group.submit(Pending(batch, None, None, {}, done))
        shape = (tuple(sorted(fields)), len(rows))
        params = _pg_params(room_id, event, fields, rows, None)
        return self._group.submit(Pending(batch, shape, _pg_own_parts(*shape), params, done))

    @property
    def groups(self) -> tuple[int, int]:
        """(events, statements) committed by :meth:`submit` so far: how well commits group."""
        return (self._group.events, self._group.groups) if self._group is not None else (0, 0)

    def forget(self, code: str) -> None:
        """Drop what is cached about a room that left memory (it is looked up again if it returns)."""
        self._ids.pop(code, None)

    def delete_room(self, code: str) -> None:
        """Forget a room and everything in it (a room whose creation failed half-way)."""
        self._ids.pop(code, None)
        with self.engine.begin() as conn:
            _delete(conn, sa.select(rooms.c.id).where(rooms.c.code == code))

    def expire_lobbies(
        self,
        created_before: float,
        keep: set[str] | frozenset[str] = frozenset(),
        spare: Callable[[str], bool] | None = None,
    ) -> list[str]:
        """Delete rooms never started that were created before ``created_before``; their codes.

        ``keep``: rooms someone is connected to right now; ``spare``: true for a room in use
        elsewhere (another worker)."""
        with self.engine.begin() as conn:
            found = conn.execute(
                sa.select(rooms.c.id, rooms.c.code).where(
                    rooms.c.status == "lobby", rooms.c.created_at < created_before
                )
            ).all()
            gone = [(r.id, r.code) for r in found if r.code not in keep and not (spare and spare(r.code))]
            for _, code in gone:
                self._ids.pop(code, None)
            if gone:
                _delete(conn, [i for i, _ in gone])
        return [code for _, code in gone]

    # ------------------------------------------------------------------ reading

    def load_room(self, code: str) -> RoomRow | None:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(rooms).where(rooms.c.code == code)).mappings().first()
            if row is None:
                return None
            self._ids[code] = row["id"]  # the commits to come need not look it up
            out = RoomRow(
                code=row["code"],
                config=row["config"],
                status=row["status"],
                host_seat=row["host_seat"],
                version=row["version"],
                game=row["game"],
                result=row["result"],
                created_at=row["created_at"],
            )
            for s in conn.execute(
                sa.select(seats).where(seats.c.room_id == row["id"]).order_by(seats.c.seat)
            ):
                out.seats.append(SeatRow(s.seat, s.kind, s.name, s.token_hash, s.bot_level))
                if s.muted:
                    out.mutes[s.seat] = [int(m) for m in s.muted]
            # up to the row's version: each statement sees the commits made since the row was read
            # (PostgreSQL's read committed), and a later event comes to the loaded room as a notice
            query = sa.select(events).where(events.c.room_id == row["id"], events.c.n <= row["version"])
            for e in conn.execute(query.order_by(events.c.n)):
                out.events.append(EventRow(e.n, e.kind, e.seat, e.data))
            return out

    def events_after(self, code: str, n: int) -> list[EventRow]:
        """The room's events numbered above ``n``, in order: what another worker committed since."""
        with self.engine.connect() as conn:
            room_id = self._room_id(conn, code)
            query = sa.select(events).where(events.c.room_id == room_id, events.c.n > n).order_by(events.c.n)
            return [EventRow(e.n, e.kind, e.seat, e.data) for e in conn.execute(query)]


def _delete(conn: sa.Connection, ids: Any) -> None:
    """Rooms by id (a list or a subquery), their seats and events first: no cascade is assumed."""
    where = rooms.c.id.in_(ids)
    conn.execute(events.delete().where(events.c.room_id.in_(ids)))
    conn.execute(seats.delete().where(seats.c.room_id.in_(ids)))
    conn.execute(rooms.delete().where(where))


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    """WAL survives a killed process with every committed event; foreign keys on."""
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.close()
