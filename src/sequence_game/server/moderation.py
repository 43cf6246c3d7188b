"""Moderation (issue 43, part 5): reports, bans, renames, and the log of every operator's act.

Why a module of its own: the players' side (a report from a room, the checks a ban makes) and the
operator's side (``sequence admin``) share these tables and nothing else. What is stored
(migration ``v0006_moderation``):

* ``reports``: who reported whom, from which room and game, why (one of :data:`REASONS`) and in
  their words (at most :data:`MAX_TEXT` characters, kept verbatim); ``open`` until an operator
  dismisses it or acts on it (a ban closes every open report on the account as ``actioned``).
* ``bans``: one row per banned account: why, when, by whom. A banned account plays no rated game
  (the queue, a rated room's seat, and a game that ends with it seated is not rated) and writes
  no chat line; it may still log in, watch and play casual games. Unbanning deletes the row. A
  game that ends with a banned account seated is entered in ``rated_games`` with no rating
  change for anyone (:meth:`Moderation.void_if_banned`).
* ``moderation_log``: every ban, unban, rename and closed report, with the operator's name; it
  keeps the account's id and name as they were, with no foreign key, so it outlives the account.

A report is limited per reporter (:data:`REPORTS_PER_HOUR`, counted from the table, so it holds
over every worker and restart) and to one open report per reporter, reported player and room.
Every method blocks: the routes run them off the event loop.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Any

import sqlalchemy as sa

from ..i18n import N_
from .account_store import Account, AccountStore, account_seats, account_sessions, accounts
from .matchmaking import queue_entries
from .names import BadName, check_name, name_key
from .protocol import ProtocolError
from .ratings import game_format, rated_games
from .store import Store, metadata, rooms

#: Why a player may be reported (the page words each: ``static/js/report.js``).
REASONS = ("chat", "cheating", "stalling", "name", "other")
#: The most characters of a report's own words.
MAX_TEXT = 500
#: Reports one account may file in an hour.
REPORTS_PER_HOUR = 5
#: The most characters of a ban's reason or an operator's note (the columns' length).
MAX_NOTE = 500

reports = sa.Table(
    "reports",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("reporter_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    sa.Column("reported_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    sa.Column("room_code", sa.String(16), nullable=False),
    sa.Column("game", sa.Integer, nullable=False),
    sa.Column("reason", sa.String(16), nullable=False),
    sa.Column("text", sa.String(500), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("state", sa.String(12), nullable=False),
    sa.Column("resolved_by", sa.String(64), nullable=True),
    sa.Column("resolved_at", sa.Float, nullable=True),
    sa.Column("note", sa.String(500), nullable=True),
)
bans = sa.Table(
    "bans",
    metadata,
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("reason", sa.String(500), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("by", sa.String(64), nullable=False),
)
moderation_log = sa.Table(
    "moderation_log",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("actor", sa.String(64), nullable=False),
    sa.Column("action", sa.String(16), nullable=False),
    sa.Column("account_id", sa.Integer, nullable=True),
    sa.Column("account_name", sa.String(40), nullable=False),
    sa.Column("report_id", sa.Integer, nullable=True),
    sa.Column("detail", sa.String(500), nullable=False),
)


class ModerationError(ValueError):
    """An operator's request that cannot be done: ``code`` (``no_account``, ``already_banned``,
    ``not_banned``, ``bad_name``, ``name_taken``, ``no_report``, ``report_closed``) and its
    ``params``; ``sequence admin`` words it in the operator's language."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(f"{code}: {params}")
        self.code = code
        self.params = params


@dataclass(frozen=True)
class Ban:
    account_id: int
    reason: str
    at: float
    by: str


def _report(row: Any) -> dict[str, Any]:
    return {
        "id": row.id,
        "reporter": row.reporter,
        "reported": row.reported,
        "room": row.room_code,
        "game": row.game,
        "reason": row.reason,
        "text": row.text,
        "created_at": row.created_at,
        "state": row.state,
        "resolved_by": row.resolved_by,
        "resolved_at": row.resolved_at,
        "note": row.note,
    }


class Moderation:
    """The statements on the moderation tables; every method blocks (run it off the loop)."""

    def __init__(self, store: Store) -> None:
        self.engine = store.engine
        self.accounts = AccountStore(store)

    # ---------------------------------------------------------------- what a ban forbids

    def ban_of(self, account_id: int) -> Ban | None:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(bans).where(bans.c.account_id == account_id)).first()
        return None if row is None else Ban(row.account_id, row.reason, row.at, row.by)

    def seat_banned(self, code: str, seat: int) -> bool:
        """Whether seat ``seat`` of room ``code`` is held by a banned account (a chat line's check)."""
        query = (
            sa.select(bans.c.account_id)
            .join(account_seats, account_seats.c.account_id == bans.c.account_id)
            .join(rooms, rooms.c.id == account_seats.c.room_id)
            .where(rooms.c.code == code, account_seats.c.seat == seat)
        )
        with self.engine.connect() as conn:
            return conn.execute(query).first() is not None

    def void_if_banned(self, code: str, game: int, players: int, sides: int) -> bool:
        """If a banned account holds a seat of room ``code`` (banned while playing), mark its game
        ``game`` decided without a rating: a ``rated_games`` row and no history, so that neither
        this worker nor a later sweep (:meth:`.ratings.Ratings.sweep`) rates it. Whether it did."""
        query = (
            sa.select(rooms.c.id)
            .join(account_seats, account_seats.c.room_id == rooms.c.id)
            .join(bans, bans.c.account_id == account_seats.c.account_id)
            .where(rooms.c.code == code)
        )
        with self.engine.begin() as conn:
            room_id = conn.execute(query).scalar()
            if room_id is None:
                return False
            try:
                with conn.begin_nested():
                    conn.execute(
                        rated_games.insert().values(
                            room_id=room_id,
                            game=game,
                            format=game_format(players, sides) or "-",
                            at=time.time(),
                        )
                    )
            except sa.exc.IntegrityError:
                return False  # rated already
        return True

    # ---------------------------------------------------------------- a player's report

    def room_seats(self, code: str) -> dict[int, tuple[int, str]]:
        """The seats of room ``code`` held by accounts: seat -> (account id, current name)."""
        query = (
            sa.select(account_seats.c.seat, accounts.c.id, accounts.c.name)
            .join(accounts, accounts.c.id == account_seats.c.account_id)
            .join(rooms, rooms.c.id == account_seats.c.room_id)
            .where(rooms.c.code == code)
        )
        with self.engine.connect() as conn:
            return {int(r.seat): (int(r.id), r.name) for r in conn.execute(query)}

    def file_report(self, reporter: int, reported: int, code: str, game: int, reason: str, text: str) -> int:
        """Store a report (its id); refused past :data:`REPORTS_PER_HOUR` or when the same
        reporter already has an open report on the same player in the same room."""
        now = time.time()
        with self.engine.begin() as conn:
            recent = conn.execute(
                sa.select(sa.func.count())
                .select_from(reports)
                .where(reports.c.reporter_id == reporter, reports.c.created_at > now - 3600)
            ).scalar()
            if int(recent or 0) >= REPORTS_PER_HOUR:
                raise ProtocolError(
                    "rate_limited",
                    N_("at most {n} reports an hour; try again later"),
                    params={"n": REPORTS_PER_HOUR},
                )
            same = conn.execute(
                sa.select(reports.c.id).where(
                    reports.c.reporter_id == reporter,
                    reports.c.reported_id == reported,
                    reports.c.room_code == code,
                    reports.c.state == "open",
                )
            ).first()
            if same is not None:
                raise ProtocolError("already_reported", N_("you have already reported this player here"))
            new_id = conn.execute(
                reports.insert()
                .values(
                    reporter_id=reporter,
                    reported_id=reported,
                    room_code=code,
                    game=game,
                    reason=reason,
                    text=text,
                    created_at=now,
                    state="open",
                )
                .returning(reports.c.id)
            ).scalar_one()
        return int(new_id)

    # ---------------------------------------------------------------- the operator's side

    def account(self, name: str) -> Account:
        """The account named ``name`` (or a look-alike of it), else :class:`ModerationError`."""
        found = self.accounts.by_key(name_key(name))
        if found is None:
            raise ModerationError("no_account", name=name)
        return found

    def _reports_query(self) -> Any:
        reporter, reported = accounts.alias("reporter"), accounts.alias("reported")
        return (
            sa.select(reports, reporter.c.name.label("reporter"), reported.c.name.label("reported"))
            .join(reporter, reporter.c.id == reports.c.reporter_id)
            .join(reported, reported.c.id == reports.c.reported_id)
        )

    def reports(self, everything: bool = False, limit: int = 200) -> list[dict[str, Any]]:
        """Open reports, oldest first (``everything``: closed ones too, newest first)."""
        query = self._reports_query()
        if everything:
            query = query.order_by(reports.c.created_at.desc(), reports.c.id.desc())
        else:
            query = query.where(reports.c.state == "open").order_by(reports.c.created_at, reports.c.id)
        with self.engine.connect() as conn:
            return [_report(r) for r in conn.execute(query.limit(limit))]

    def _log(
        self,
        conn: Any,
        actor: str,
        action: str,
        account: tuple[int, str],
        detail: str,
        report: int | None = None,
    ) -> None:
        """One line of the audit log: ``account`` is (id, name as it is now)."""
        conn.execute(
            moderation_log.insert().values(
                at=time.time(),
                actor=actor[:64],
                action=action,
                account_id=account[0],
                account_name=account[1],
                report_id=report,
                detail=detail[:MAX_NOTE],
            )
        )

    def ban(self, name: str, reason: str, actor: str, logout: bool = False) -> tuple[Account, int]:
        """Ban the account: its waiting queue entry goes, its open reports close as actioned
        (their count is returned), and with ``logout`` every session of it ends."""
        account = self.account(name)
        now = time.time()
        with self.engine.begin() as conn:
            if conn.execute(sa.select(bans.c.account_id).where(bans.c.account_id == account.id)).first():
                raise ModerationError("already_banned", name=account.name)
            conn.execute(
                bans.insert().values(account_id=account.id, reason=reason[:MAX_NOTE], at=now, by=actor[:64])
            )
            conn.execute(
                queue_entries.delete().where(
                    queue_entries.c.account_id == account.id, queue_entries.c.state == "waiting"
                )
            )
            closed = conn.execute(
                reports.update()
                .where(reports.c.reported_id == account.id, reports.c.state == "open")
                .values(state="actioned", resolved_by=actor[:64], resolved_at=now, note="banned")
            ).rowcount
            if logout:
                conn.execute(account_sessions.delete().where(account_sessions.c.account_id == account.id))
            detail = reason + (" (logged out)" if logout else "")
            self._log(conn, actor, "ban", (account.id, account.name), detail)
        return account, int(closed or 0)

    def unban(self, name: str, actor: str, note: str = "") -> Account:
        account = self.account(name)
        with self.engine.begin() as conn:
            if not conn.execute(bans.delete().where(bans.c.account_id == account.id)).rowcount:
                raise ModerationError("not_banned", name=account.name)
            self._log(conn, actor, "unban", (account.id, account.name), note)
        return account

    def rename(self, old: str, new: str, actor: str) -> tuple[str, Account]:
        """Give the account a new name (the rules of :mod:`.names`, look-alikes included); its
        ratings, history and sessions stay, being the account's. Returns the old name and the
        account as renamed. The old name is free again: its player page answers 404."""
        account = self.account(old)
        try:
            name = check_name(new)
        except BadName as exc:
            raise ModerationError("bad_name", name=new, why=str(exc)) from None
        key = name_key(name)
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    accounts.update().where(accounts.c.id == account.id).values(name=name, name_key=key)
                )
                conn.execute(
                    queue_entries.update().where(queue_entries.c.account_id == account.id).values(name=name)
                )
                self._log(conn, actor, "rename", (account.id, account.name), f"{account.name} -> {name}")
        except sa.exc.IntegrityError:
            raise ModerationError("name_taken", name=name) from None
        return account.name, replace(account, name=name, name_key=key)

    def dismiss(self, report_id: int, actor: str, note: str = "") -> dict[str, Any]:
        """Close an open report as dismissed (nothing done to the reported player)."""
        now = time.time()
        with self.engine.begin() as conn:
            row = conn.execute(self._reports_query().where(reports.c.id == report_id)).first()
            if row is None:
                raise ModerationError("no_report", id=report_id)
            if row.state != "open":
                raise ModerationError("report_closed", id=report_id, state=row.state)
            conn.execute(
                reports.update()
                .where(reports.c.id == report_id)
                .values(state="dismissed", resolved_by=actor[:64], resolved_at=now, note=note[:MAX_NOTE])
            )
            self._log(conn, actor, "dismiss", (row.reported_id, row.reported), note, report=report_id)
        return _report(row) | {"state": "dismissed"}

    def show(self, name: str) -> dict[str, Any]:
        """An account as an operator sees it: its ban, the reports on it and by it, its log."""
        account = self.account(name)
        ban = self.ban_of(account.id)
        query = self._reports_query().order_by(reports.c.created_at.desc())
        with self.engine.connect() as conn:
            on = [_report(r) for r in conn.execute(query.where(reports.c.reported_id == account.id))]
            by = [_report(r) for r in conn.execute(query.where(reports.c.reporter_id == account.id))]
            log = [
                {"at": r.at, "actor": r.actor, "action": r.action, "report": r.report_id, "detail": r.detail}
                for r in conn.execute(
                    sa.select(moderation_log)
                    .where(moderation_log.c.account_id == account.id)
                    .order_by(moderation_log.c.at, moderation_log.c.id)
                )
            ]
        return {
            "name": account.name,
            "id": account.id,
            "created_at": account.created_at,
            "ban": None if ban is None else {"reason": ban.reason, "at": ban.at, "by": ban.by},
            "reports_on": on,
            "reports_by": by,
            "log": log,
        }

    def log(self, limit: int = 100) -> list[dict[str, Any]]:
        """The newest acts of every operator, newest first."""
        query = sa.select(moderation_log).order_by(moderation_log.c.at.desc(), moderation_log.c.id.desc())
        with self.engine.connect() as conn:
            return [
                {
                    "at": r.at,
                    "actor": r.actor,
                    "action": r.action,
                    "account": r.account_name,
                    "report": r.report_id,
                    "detail": r.detail,
                }
                for r in conn.execute(query.limit(limit))
            ]
