"""Finding a game (issue 43, part 3): the "Play now" queue, kept in the database.

An entry is one account waiting for a format (``2p``, ``3p``, ``2t``: 2 teams of 2, ``3t``: 3
teams of 2) and a time control (:data:`TIME_CONTROLS`), with its rating then, when it joined,
and after how many seconds it would take bots instead (``bots_after``, or never). Its ``state``:

``waiting`` -> ``matched`` (claimed by one worker, which is making the room) -> ``paired`` (the
room's code, the seat and its token are in the row for the player's page to fetch).

Every worker runs :meth:`Queue.claim` about once a second. It reads the waiting entries, forms
groups (:func:`groups`) and claims each group in one transaction with a conditional update
(``state = 'waiting'``) whose row count must be the group's size, else nothing is claimed; on
PostgreSQL the rows are read ``FOR UPDATE SKIP LOCKED`` first, so two workers never wait on each
other and never claim one entry twice. A worker killed after claiming leaves its entries
``matched``: after :data:`CLAIM_SECONDS` any worker puts them back to ``waiting`` (keeping their
place), and the late worker's own ``paired`` update, conditional on its claim, then changes
nothing. So an entry ends in exactly one room, and a dead worker loses nobody.

Pairing: the oldest waiting entry first; its rating window is :func:`window` (it widens with the
time waited); the others in the window nearest in rating join it. Teams are dealt like a snake
draft by rating (best to side 0, next to side 1, ..., then back), so the sides are even. An entry
whose ``bots_after`` has passed takes the others that also accept bots (any rating) and bots for
the empty seats: a casual game.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from .store import Store, metadata

#: Seats and sides of each queued format.
TABLES = {"2p": (2, 2), "3p": (3, 3), "2t": (4, 2), "3t": (6, 3)}
#: Time controls: chess clocks (minutes, increment seconds); ``none``: no clock.
TIME_CONTROLS = {"none": (0.0, 0), "3+2": (3.0, 2), "10+5": (10.0, 5)}
#: The rating window: this wide at first (OpenSkill scale), wider by ``WIDEN`` per second waited.
BASE_WINDOW, WIDEN = 3.0, 0.5
#: A claimed group whose room did not follow within this time goes back to waiting.
CLAIM_SECONDS = 30.0
#: A paired entry (with the seat's token: the one secret the queue keeps in plain text) is kept
#: this long for its page to fetch, then removed; the page polls every second and deletes it at
#: once (``POST /api/queue/done``), so this only bounds a page closed meanwhile.
PAIRED_SECONDS = 300.0

queue_entries = sa.Table(
    "queue_entries",
    metadata,
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("name", sa.String(40), nullable=False),
    sa.Column("format", sa.String(8), nullable=False),
    sa.Column("time_control", sa.String(8), nullable=False),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("joined_at", sa.Float, nullable=False),
    sa.Column("bots_after", sa.Float, nullable=True),
    sa.Column("state", sa.String(8), nullable=False),
    sa.Column("match_id", sa.String(32), nullable=True),
    sa.Column("claimed_at", sa.Float, nullable=True),
    sa.Column("room_code", sa.String(16), nullable=True),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("token", sa.String(64), nullable=True),
    sa.Column("paired_at", sa.Float, nullable=True),
)


@dataclass(frozen=True)
class Entry:
    account_id: int
    name: str
    format: str
    time_control: str
    mu: float
    joined_at: float
    bots_after: float | None


@dataclass
class Group:
    """Entries claimed together (seat order), and whether bots fill the rest."""

    match_id: str
    format: str
    time_control: str
    seats: list[Entry]
    bots: bool


def window(waited: float) -> float:
    """How far from its rating an entry that waited ``waited`` seconds accepts others."""
    return BASE_WINDOW + WIDEN * max(0.0, waited)


def seat_order(group: list[Entry], sides: int) -> list[Entry]:
    """Seats for a group: a snake draft by rating over the sides; seat ``i`` is side ``i % sides``."""
    ranked = sorted(group, key=lambda e: -e.mu)
    per_side: list[list[Entry]] = [[] for _ in range(sides)]
    for n, entry in enumerate(ranked):
        lap, k = divmod(n, sides)
        per_side[k if lap % 2 == 0 else sides - 1 - k].append(entry)
    seats = []
    for i in range(len(group)):
        side = per_side[i % sides]
        seats.append(side[i // sides])
    return seats


def groups(entries: list[Entry], now: float) -> list[tuple[list[Entry], bool]]:
    """Groups to claim out of one format's and time control's waiting entries, oldest first.

    Returns ``(entries, bots)``: a full table of people, or (``bots``) those whose wait for bots
    has passed with the others that accept bots, the rest of the seats for bots."""
    if not entries:
        return []
    need = TABLES[entries[0].format][0]
    left = sorted(entries, key=lambda e: (e.joined_at, e.account_id))
    found: list[tuple[list[Entry], bool]] = []
    while left:
        anchor = left[0]
        others = left[1:]
        near = [
            e
            for e in others
            if abs(e.mu - anchor.mu) <= max(window(now - anchor.joined_at), window(now - e.joined_at))
        ]
        near.sort(key=lambda e: (abs(e.mu - anchor.mu), e.joined_at))
        if len(near) >= need - 1:
            group = [anchor, *near[: need - 1]]
            found.append((group, False))
        elif anchor.bots_after is not None and now - anchor.joined_at >= anchor.bots_after:
            willing = [e for e in others if e.bots_after is not None][: need - 1]
            group = [anchor, *willing]
            found.append((group, True))
        else:
            left = others
            continue
        taken = {e.account_id for e in group}
        left = [e for e in left if e.account_id not in taken]
    return found


class _Lost(Exception):
    """A claim lost to a cancel or another worker: its transaction is rolled back."""


def _entry(row: Any) -> Entry:
    return Entry(
        row.account_id, row.name, row.format, row.time_control, row.mu, row.joined_at, row.bots_after
    )


class Queue:
    """The queue's statements; every method blocks (run it off the loop)."""

    def __init__(self, store: Store) -> None:
        self.engine = store.engine
        self.postgres = store.engine.dialect.name == "postgresql"

    def join(
        self, account_id: int, name: str, fmt: str, time_control: str, mu: float, bots_after: float | None
    ) -> None:
        """Wait for a game (an earlier entry of the account, waiting or paired, is replaced)."""
        with self.engine.begin() as conn:
            conn.execute(queue_entries.delete().where(queue_entries.c.account_id == account_id))
            conn.execute(
                queue_entries.insert().values(
                    account_id=account_id,
                    name=name,
                    format=fmt,
                    time_control=time_control,
                    mu=mu,
                    joined_at=time.time(),
                    bots_after=bots_after,
                    state="waiting",
                )
            )

    def cancel(self, account_id: int) -> bool:
        """Leave the queue; False once paired or claimed (the room is being made: it comes)."""
        with self.engine.begin() as conn:
            gone = conn.execute(
                queue_entries.delete().where(
                    queue_entries.c.account_id == account_id, queue_entries.c.state == "waiting"
                )
            ).rowcount
        return bool(gone)

    def done(self, account_id: int) -> None:
        """The page has its room: the paired entry (and its token) is removed."""
        with self.engine.begin() as conn:
            conn.execute(
                queue_entries.delete().where(
                    queue_entries.c.account_id == account_id, queue_entries.c.state == "paired"
                )
            )

    def status(self, account_id: int) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(queue_entries).where(queue_entries.c.account_id == account_id)
            ).first()
        if row is None:
            return None
        found: dict[str, Any] = {
            "state": row.state,
            "format": row.format,
            "time_control": row.time_control,
            "waited": round(time.time() - row.joined_at, 1),
            "bots_after": row.bots_after,
        }
        if row.state == "paired":
            found.update(code=row.room_code, seat=row.seat, token=row.token)
        return found

    def counts(self) -> dict[str, int]:
        """People waiting (or being seated) per format."""
        query = (
            sa.select(queue_entries.c.format, sa.func.count())
            .where(queue_entries.c.state.in_(("waiting", "matched")))
            .group_by(queue_entries.c.format)
        )
        with self.engine.connect() as conn:
            found = {f: int(n) for f, n in conn.execute(query)}
        return {f: found.get(f, 0) for f in TABLES}

    # ---------------------------------------------------------------- pairing

    def recover(self) -> int:
        """Entries claimed by a worker that never made their room go back to waiting; paired
        entries nobody fetched are removed after :data:`PAIRED_SECONDS`."""
        now = time.time()
        with self.engine.begin() as conn:
            back = conn.execute(
                queue_entries.update()
                .where(queue_entries.c.state == "matched", queue_entries.c.claimed_at < now - CLAIM_SECONDS)
                .values(state="waiting", match_id=None, claimed_at=None)
            ).rowcount
            conn.execute(
                queue_entries.delete().where(
                    queue_entries.c.state == "paired", queue_entries.c.paired_at < now - PAIRED_SECONDS
                )
            )
        return int(back or 0)

    def claim(self) -> list[Group]:
        """Form groups of waiting entries and claim each in its own transaction."""
        now = time.time()
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(queue_entries).where(queue_entries.c.state == "waiting")).all()
        by_kind: dict[tuple[str, str], list[Entry]] = {}
        for row in rows:
            by_kind.setdefault((row.format, row.time_control), []).append(_entry(row))
        claimed = []
        for (fmt, tc), entries in by_kind.items():
            for group, bots in groups(entries, now):
                match_id = uuid.uuid4().hex
                if self._claim(group, match_id, now):
                    sides = TABLES[fmt][1]
                    seats = group if bots else seat_order(group, sides)
                    claimed.append(Group(match_id, fmt, tc, seats, bots))
        return claimed

    def _claim(self, group: list[Entry], match_id: str, now: float) -> bool:
        try:
            return self._claim_or_raise(group, match_id, now)
        except _Lost:
            return False

    def _claim_or_raise(self, group: list[Entry], match_id: str, now: float) -> bool:
        ids = [e.account_id for e in group]
        with self.engine.begin() as conn:
            if self.postgres:
                locked = conn.execute(
                    sa.select(queue_entries.c.account_id)
                    .where(queue_entries.c.account_id.in_(ids), queue_entries.c.state == "waiting")
                    .with_for_update(skip_locked=True)
                ).all()
                if len(locked) != len(ids):
                    return False  # another worker holds some of them: leave the whole group
            n = conn.execute(
                queue_entries.update()
                .where(queue_entries.c.account_id.in_(ids), queue_entries.c.state == "waiting")
                .values(state="matched", match_id=match_id, claimed_at=now)
            ).rowcount
            if n != len(ids):
                raise _Lost  # one cancelled or was claimed meanwhile: nothing claimed
        return True

    def paired(self, group: Group, code: str, tokens: dict[int, tuple[int, str]]) -> bool:
        """The room is made: each claimed entry gets its room, seat and token; False when the
        claim was given back meanwhile (the room is then nobody's)."""
        try:
            self._paired(group, code, tokens)
        except _Lost:
            return False
        return True

    def _paired(self, group: Group, code: str, tokens: dict[int, tuple[int, str]]) -> None:
        with self.engine.begin() as conn:
            for account_id, (seat, token) in tokens.items():
                n = conn.execute(
                    queue_entries.update()
                    .where(
                        queue_entries.c.account_id == account_id,
                        queue_entries.c.match_id == group.match_id,
                        queue_entries.c.state == "matched",
                    )
                    .values(state="paired", room_code=code, seat=seat, token=token, paired_at=time.time())
                ).rowcount
                if n != 1:
                    raise _Lost

    def release(self, group: Group) -> None:
        """A room could not be made: the group waits again, in its places."""
        with self.engine.begin() as conn:
            conn.execute(
                queue_entries.update()
                .where(queue_entries.c.match_id == group.match_id, queue_entries.c.state == "matched")
                .values(state="waiting", match_id=None, claimed_at=None)
            )
