"""The accounts' tables and the statements on them (migration ``v0004_accounts``).

Why a module of its own: :mod:`.store` holds the rooms and their event log, on the hot path of
every move; accounts are rare requests (a login, a claim), all blocking calls that the routes run
off the event loop. What is stored, and what is not:

* ``accounts``: the name as shown, its look-alike key (:func:`.names.name_key`, unique), the
  argon2id hash of the password (never the password), a random WebAuthn user handle.
* ``account_sessions``: the SHA-256 of each session token (never the token, which only the
  browser's cookie holds), with its expiry; a leaked table logs nobody in.
* ``account_seats``: the seats an account held (joined logged in, or claimed after a guest game).
* ``passkeys`` and ``passkey_challenges``: the public keys registered, and one-use challenges.

Every foreign key cascades, but deletions here name every table anyway (no cascade is assumed).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from .store import Store, metadata, rooms

accounts = sa.Table(
    "accounts",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(40), nullable=False),
    sa.Column("name_key", sa.String(160), nullable=False, unique=True),
    sa.Column("password_hash", sa.String(255), nullable=False),
    sa.Column("user_handle", sa.String(64), nullable=False, unique=True),
    sa.Column("created_at", sa.Float, nullable=False),
)
account_sessions = sa.Table(
    "account_sessions",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("expires_at", sa.Float, nullable=False),
)
account_seats = sa.Table(
    "account_seats",
    metadata,
    sa.Column("room_id", sa.Integer, sa.ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("claimed", sa.Boolean, nullable=False),
)
passkeys = sa.Table(
    "passkeys",
    metadata,
    sa.Column("credential_id", sa.String(400), primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    sa.Column("public_key", sa.LargeBinary, nullable=False),
    sa.Column("sign_count", sa.BigInteger, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
)
passkey_challenges = sa.Table(
    "passkey_challenges",
    metadata,
    sa.Column("id_hash", sa.String(64), primary_key=True),
    sa.Column("challenge", sa.String(128), nullable=False),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True),
    sa.Column("expires_at", sa.Float, nullable=False),
)


@dataclass(frozen=True)
class Account:
    id: int
    name: str
    name_key: str
    password_hash: str
    user_handle: str
    created_at: float


def _account(row: Any) -> Account:
    return Account(row.id, row.name, row.name_key, row.password_hash, row.user_handle, row.created_at)


class AccountStore:
    """The statements on the accounts' tables; every method blocks (run it off the loop)."""

    def __init__(self, store: Store) -> None:
        self.engine = store.engine

    # ---------------------------------------------------------------- accounts

    def create(self, name: str, key: str, password_hash: str, handle: str) -> Account | None:
        """A new account, or ``None`` when ``key`` is taken (the unique index decides, so two
        registrations of one name at once cannot both succeed)."""
        now = time.time()
        try:
            with self.engine.begin() as conn:
                new_id = conn.execute(
                    accounts.insert()
                    .values(
                        name=name,
                        name_key=key,
                        password_hash=password_hash,
                        user_handle=handle,
                        created_at=now,
                    )
                    .returning(accounts.c.id)
                ).scalar_one()
        except sa.exc.IntegrityError:
            return None
        return Account(int(new_id), name, key, password_hash, handle, now)

    def by_key(self, key: str) -> Account | None:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(accounts).where(accounts.c.name_key == key)).first()
        return None if row is None else _account(row)

    def by_id(self, account_id: int) -> Account | None:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(accounts).where(accounts.c.id == account_id)).first()
        return None if row is None else _account(row)

    def by_handle(self, handle: str) -> Account | None:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(accounts).where(accounts.c.user_handle == handle)).first()
        return None if row is None else _account(row)

    def set_password(self, account_id: int, password_hash: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                accounts.update().where(accounts.c.id == account_id).values(password_hash=password_hash)
            )

    def delete(self, account_id: int) -> None:
        """The account and everything kept for it; the rooms and their records stay (a seat's
        name is part of a game's record), only the link to the account goes."""
        with self.engine.begin() as conn:
            for table in (passkey_challenges, passkeys, account_seats, account_sessions):
                conn.execute(table.delete().where(table.c.account_id == account_id))
            conn.execute(accounts.delete().where(accounts.c.id == account_id))

    # ---------------------------------------------------------------- sessions

    def new_session(
        self, token_hash: str, account_id: int, seconds: float, replaces: str | None = None
    ) -> None:
        """Store a session (its token's hash) lasting ``seconds``; ``replaces``: the hash of the
        session the browser held before, ended in the same transaction (a login never keeps the
        session id it came with: no fixation). Expired sessions of the account are swept."""
        now = time.time()
        with self.engine.begin() as conn:
            if replaces is not None:
                conn.execute(account_sessions.delete().where(account_sessions.c.token_hash == replaces))
            conn.execute(
                account_sessions.delete().where(
                    account_sessions.c.account_id == account_id, account_sessions.c.expires_at < now
                )
            )
            conn.execute(
                account_sessions.insert().values(
                    token_hash=token_hash, account_id=account_id, created_at=now, expires_at=now + seconds
                )
            )

    def session_account(self, token_hash: str) -> Account | None:
        """The account of an unexpired session, or ``None``."""
        query = (
            sa.select(accounts)
            .join(account_sessions, account_sessions.c.account_id == accounts.c.id)
            .where(account_sessions.c.token_hash == token_hash, account_sessions.c.expires_at > time.time())
        )
        with self.engine.connect() as conn:
            row = conn.execute(query).first()
        return None if row is None else _account(row)

    def end_session(self, token_hash: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(account_sessions.delete().where(account_sessions.c.token_hash == token_hash))

    def end_sessions(self, account_id: int, keep: str | None = None) -> None:
        """End every session of the account but ``keep`` (a password changed: other browsers out)."""
        where = account_sessions.c.account_id == account_id
        if keep is not None:
            where = sa.and_(where, account_sessions.c.token_hash != keep)
        with self.engine.begin() as conn:
            conn.execute(account_sessions.delete().where(where))

    def passkey_count(self, account_id: int) -> int:
        with self.engine.connect() as conn:
            query = (
                sa.select(sa.func.count()).select_from(passkeys).where(passkeys.c.account_id == account_id)
            )
            return int(conn.execute(query).scalar() or 0)

    # ---------------------------------------------------------------- seats

    def link_seat(self, code: str, seat: int, account_id: int, claimed: bool) -> bool:
        """Record that the account holds ``seat`` of room ``code``; False when the seat already
        carries an account (or the room is gone)."""
        try:
            with self.engine.begin() as conn:
                room_id = conn.execute(sa.select(rooms.c.id).where(rooms.c.code == code)).scalar()
                if room_id is None:
                    return False
                conn.execute(
                    account_seats.insert().values(
                        room_id=room_id, seat=seat, account_id=account_id, at=time.time(), claimed=claimed
                    )
                )
        except sa.exc.IntegrityError:
            return False
        return True

    def seat_account(self, code: str, seat: int) -> int | None:
        query = (
            sa.select(account_seats.c.account_id)
            .join(rooms, rooms.c.id == account_seats.c.room_id)
            .where(rooms.c.code == code, account_seats.c.seat == seat)
        )
        with self.engine.connect() as conn:
            found = conn.execute(query).scalar()
        return None if found is None else int(found)

    def games(self, account_id: int, limit: int = 50) -> list[dict[str, Any]]:
        """The account's seats, newest first: room code, seat, claimed or joined, the room's status."""
        query = (
            sa.select(
                rooms.c.code,
                rooms.c.status,
                account_seats.c.seat,
                account_seats.c.claimed,
                account_seats.c.at,
            )
            .join(rooms, rooms.c.id == account_seats.c.room_id)
            .where(account_seats.c.account_id == account_id)
            .order_by(account_seats.c.at.desc())
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [
                {"code": r.code, "seat": r.seat, "claimed": bool(r.claimed), "status": r.status}
                for r in conn.execute(query)
            ]
