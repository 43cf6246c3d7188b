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

import json
import time
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
        """Append one event and apply its consequences, atomically; raises if ``event.n`` is taken."""
        with self.engine.begin() as conn:
            room_id = self._room_id(conn, code)
            conn.execute(
                events.insert().values(
                    room_id=room_id,
                    n=event.n,
                    kind=event.kind,
                    seat=event.seat,
                    data=event.data,
                    at=time.time(),
                )
            )
            conn.execute(rooms.update().where(rooms.c.id == room_id).values(version=event.n, **(room or {})))
            if self.notify:
                conn.execute(sa.select(sa.func.pg_notify(NOTIFY_CHANNEL, notice(code, event))))
            for row in seat_rows or ():
                conn.execute(seats.delete().where(seats.c.room_id == room_id, seats.c.seat == row.seat))
                conn.execute(
                    seats.insert().values(
                        room_id=room_id,
                        seat=row.seat,
                        kind=row.kind,
                        name=row.name,
                        token_hash=row.token_hash,
                        bot_level=row.bot_level,
                    )
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
        self, created_before: float, keep: set[str] | frozenset[str] = frozenset()
    ) -> list[str]:
        """Delete rooms never started that were created before ``created_before``; their codes.

        ``keep``: rooms someone is connected to right now."""
        with self.engine.begin() as conn:
            found = conn.execute(
                sa.select(rooms.c.id, rooms.c.code).where(
                    rooms.c.status == "lobby", rooms.c.created_at < created_before
                )
            ).all()
            gone = [(r.id, r.code) for r in found if r.code not in keep]
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
