"""Durable storage: rooms, seats and the numbered event log, through SQLAlchemy Core.

Every change to a room is one transaction that appends its event and updates the room row (and
the seats it touches), committed before any client hears of it. A game is rebuilt after a restart
by replaying its stored actions through the engine. The schema is created by the Alembic
migrations shipped in ``migrations/``, so ``pip install`` is enough to serve.

>>> store = Store("sqlite://")
>>> store.migrate()
>>> store.create_room("ABCD", {"players": 2}, host_seat=0)
>>> store.load_room("ABCD").config
{'players': 2}
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.pool import StaticPool

metadata = sa.MetaData()
NOTIFY_CHANNEL = "room_events"
"""PostgreSQL channel on which every commit is announced when :attr:`Store.notify` is on."""

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
                if raw.driver_connection.closed or isinstance(exc, dbapi.OperationalError):
                    self.close()
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
        switch to the database's process and back."""
        names = tuple(sorted(fields))
        key = ("pg", names, len(seat_rows), payload is not None)
        sql = self._sql.get(key)
        if sql is None:
            sets = "".join(f", {name} = %({name})s" for name in names)
            parts = [
                (
                    "ev AS (INSERT INTO events (room_id, n, kind, seat, data, at)"
                    " VALUES (%(room_id)s, %(n)s, %(kind)s, %(seat)s, %(data)s, %(at)s))"
                ),
                f"rm AS (UPDATE rooms SET version = %(n)s{sets} WHERE id = %(room_id)s)",
            ]
            parts.extend(
                f"s{i} AS (INSERT INTO seats (room_id, seat, kind, name, token_hash, bot_level)"
                f" VALUES (%(room_id)s, %(seat{i})s, %(kind{i})s, %(name{i})s, %(token{i})s, %(bot{i})s)"
                " ON CONFLICT (room_id, seat) DO UPDATE SET kind = EXCLUDED.kind, name = EXCLUDED.name,"
                " token_hash = EXCLUDED.token_hash, bot_level = EXCLUDED.bot_level)"
                for i in range(len(seat_rows))
            )
            main = f"SELECT pg_notify('{NOTIFY_CHANNEL}', %(payload)s)" if payload is not None else "SELECT 1"
            sql = self._sql[key] = ("WITH " + ", ".join(parts) + " " + main, None, {})
        params: dict[str, Any] = {
            "room_id": room_id,
            "n": event.n,
            "kind": event.kind,
            "seat": event.seat,
            "data": self._json(event.data),
            "at": time.time(),
            "payload": payload,
        }
        for name, value in fields.items():
            params[name] = self._json(value) if name in _JSON_ROOM else value
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
        raw.driver_connection.execute(sql[0], params)

    def close(self) -> None:
        raw, self._raw = self._raw, None
        if raw is not None:
            with contextlib.suppress(Exception):
                raw.invalidate()


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


def notice(code: str, event: EventRow) -> str:
    """The NOTIFY payload of an event: ``CODE:N`` and, when it fits PostgreSQL's 8,000 bytes, the
    event itself as JSON after a space, so a listener need not read it back from the table."""
    head = f"{code}:{event.n}"
    body = json.dumps({"kind": event.kind, "seat": event.seat, "data": event.data}, separators=(",", ":"))
    return f"{head} {body}" if len(head) + len(body.encode()) < 7900 else head


def parse_notice(payload: str) -> tuple[str, int, EventRow | None]:
    """``(code, n, the event if the payload carries it)`` from :func:`notice`'s payload."""
    head, _, body = payload.partition(" ")
    code, _, n = head.partition(":")
    if not body:
        return code, int(n), None
    d = json.loads(body)
    return code, int(n), EventRow(int(n), d["kind"], d["seat"], d["data"])


def database_url(db: str) -> str:
    """A SQLAlchemy URL from ``--db``: a URL as given, anything else is a SQLite file path."""
    if "://" in db:
        return db
    return f"sqlite:///{Path(db).expanduser().resolve()}"


class Store:
    """The database behind the rooms. Synchronous and short transactions: one per event."""

    def __init__(self, url: str) -> None:
        self.url = url
        kwargs: dict[str, Any] = {}
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False}
            if url in ("sqlite://", "sqlite:///:memory:"):
                kwargs["poolclass"] = StaticPool
        self.engine = sa.create_engine(url, **kwargs)
        self._writer: _Writer | None = None
        """The connection every event is committed on (opened on first use)."""
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

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        self.engine.dispose()

    # ------------------------------------------------------------------ writing

    def create_room(self, code: str, config: dict[str, Any], host_seat: int) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                rooms.insert().values(
                    code=code,
                    created_at=time.time(),
                    config=config,
                    status="lobby",
                    host_seat=host_seat,
                    version=0,
                )
            )

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
            query = sa.select(events).where(events.c.room_id == row["id"]).order_by(events.c.n)
            for e in conn.execute(query):
                out.events.append(EventRow(e.n, e.kind, e.seat, e.data))
            return out

    def events_after(self, code: str, n: int) -> list[EventRow]:
        """The room's events numbered above ``n``, in order: what another worker committed since."""
        with self.engine.connect() as conn:
            room_id = self._room_id(conn, code)
            query = sa.select(events).where(events.c.room_id == room_id, events.c.n > n).order_by(events.c.n)
            return [EventRow(e.n, e.kind, e.seat, e.data) for e in conn.execute(query)]

    def room_exists(self, code: str) -> bool:
        with self.engine.connect() as conn:
            return conn.execute(sa.select(rooms.c.id).where(rooms.c.code == code)).first() is not None


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
