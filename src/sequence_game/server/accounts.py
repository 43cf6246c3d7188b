"""Accounts, optional: register a name with a password, log in, change the password, delete.

A guest plays as before; an account only names the seats its player takes (and the finished
guest games it claims). Passwords are hashed with argon2id (``argon2-cffi``'s defaults, RFC 9106's
second recommended setting) off the event loop, and never stored or logged.

The login form tells nothing about whether a name exists: an unknown name and a wrong password
get the same refusal (``bad_login``), after the same work, since an unknown name is checked
against a dummy hash made with the same parameters. Logins are limited per client address and per
name (:class:`.limits.Limits`), in the store that every worker shares, for registered and unknown
names alike. Registering a taken name must say so; registrations are limited per address.

Every blocking call runs in a thread: the store (SQLite or PostgreSQL) and argon2 (tens of ms).
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import unicodedata
from collections.abc import Callable
from typing import Any, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from ..i18n import N_
from .account_store import Account, AccountStore
from .limits import Limits
from .names import BadName, check_name, name_key
from .protocol import ProtocolError
from .sessions import new_token, token_hash
from .shared_limits import client_key
from .store import Store
from .token_buckets import TokenBuckets

T = TypeVar("T")

MIN_PASSWORD = 8
MAX_PASSWORD = 256
#: Buckets of :mod:`.token_buckets` (at most 16 characters each).
LOGINS, NAME_LOGINS, REGISTRATIONS = "logins", "name_logins", "registrations"

NAME_ERRORS = {
    "too_short": N_("a name needs at least 2 characters"),
    "too_long": N_("a name has at most 24 characters"),
    "bad_character": N_(
        "a name may hold letters, digits, single spaces and _ - . ' only (no symbols, emoji or invisible characters)"
    ),
    "no_letter": N_("a name needs at least one letter"),
    "mixed_scripts": N_(
        "a name's letters must all come from one alphabet (no Latin and Cyrillic mixed, for example)"
    ),
}
BAD_LOGIN = ProtocolError("bad_login", N_("wrong name or password"))


def password_problem(password: str, name: str) -> ProtocolError | None:
    """Why a new password is refused, or ``None``."""
    if len(password) < MIN_PASSWORD:
        return ProtocolError("bad_password", N_("a password needs at least 8 characters"))
    if len(password) > MAX_PASSWORD:
        return ProtocolError("bad_password", N_("a password has at most 256 characters"))
    if name_key(password) == name_key(name):
        return ProtocolError("bad_password", N_("a password must not be the name"))
    return None


def _normal(password: str) -> str:
    """One form for one password, whatever keyboard typed it (NFC)."""
    return unicodedata.normalize("NFC", password)


class Accounts:
    """The accounts of one store; every method is a coroutine that blocks nothing."""

    def __init__(self, store: Store, limits: Limits, buckets: TokenBuckets | None = None) -> None:
        self.db = AccountStore(store)
        self.limits = limits
        self.buckets = buckets or TokenBuckets(store)
        self.hasher = PasswordHasher()  # argon2id
        self._dummy: str | None = None

    @staticmethod
    async def run(fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.to_thread(fn, *args)

    @property
    def session_seconds(self) -> float:
        return self.limits.session_days * 86400

    def dummy_hash(self) -> str:
        """A hash of a random password, with the real hashes' parameters: what an unknown name's
        login is checked against, so that it costs what a known name's does."""
        if self._dummy is None:
            self._dummy = self.hasher.hash(secrets.token_urlsafe(16))
        return self._dummy

    def _verify(self, stored: str, password: str) -> bool:
        try:
            return self.hasher.verify(stored, _normal(password))
        except (VerificationError, InvalidHashError):
            return False

    async def limit(self, bucket: str, key: str, per_minute: float, burst: int) -> None:
        admitted, _ = await self.run(self.buckets.take_token, bucket, key, per_minute / 60, burst)
        if not admitted:
            raise ProtocolError("rate_limited", N_("too many attempts; wait a minute and try again"))

    # ---------------------------------------------------------------- the account

    async def register(self, raw_name: str, password: str, client: str) -> Account:
        limits = self.limits
        await self.limit(
            REGISTRATIONS, client_key(client), limits.registrations_per_minute, limits.registrations_burst
        )
        try:
            name = check_name(raw_name)
        except BadName as exc:
            raise ProtocolError("bad_name", NAME_ERRORS.get(str(exc), NAME_ERRORS["bad_character"])) from None
        problem = password_problem(password, name)
        if problem is not None:
            raise problem
        hashed = await self.run(self.hasher.hash, _normal(password))
        account = await self.run(self.db.create, name, name_key(name), hashed, secrets.token_urlsafe(32))
        if account is None:
            raise ProtocolError("name_taken", N_("that name, or one that looks like it, is taken"))
        return account

    async def login(self, raw_name: str, password: str, client: str) -> Account:
        """The account if the password is right; ``bad_login`` whether the name is unknown or the
        password wrong, after one argon2 verification either way."""
        key = name_key(raw_name.strip())
        limits = self.limits
        await self.limit(LOGINS, client_key(client), limits.logins_per_minute, limits.logins_burst)
        name_bucket = hashlib.sha256(key.encode()).hexdigest()
        await self.limit(NAME_LOGINS, name_bucket, limits.name_logins_per_minute, limits.name_logins_burst)
        account = await self.run(self.db.by_key, key)
        stored = account.password_hash if account is not None else await self.run(self.dummy_hash)
        ok = await self.run(self._verify, stored, password)
        if account is None or not ok:
            raise BAD_LOGIN
        if self.hasher.check_needs_rehash(account.password_hash):  # the parameters were raised since
            await self.run(
                self.db.set_password, account.id, await self.run(self.hasher.hash, _normal(password))
            )
        return account

    async def check_password(self, account: Account, password: str) -> None:
        """Refuse (``bad_login``) unless ``password`` is the account's; counted as a login at the
        account's name, so it cannot be used to guess the password faster."""
        limits = self.limits
        name_bucket = hashlib.sha256(account.name_key.encode()).hexdigest()
        await self.limit(NAME_LOGINS, name_bucket, limits.name_logins_per_minute, limits.name_logins_burst)
        if not await self.run(self._verify, account.password_hash, password):
            raise ProtocolError("bad_login", N_("the password is wrong"))

    async def change_password(self, account: Account, current: str, new: str, session: str) -> str:
        """Set a new password; every other session of the account ends, and this one is renewed
        (the new token is returned)."""
        await self.check_password(account, current)
        problem = password_problem(new, account.name)
        if problem is not None:
            raise problem
        hashed = await self.run(self.hasher.hash, _normal(new))
        await self.run(self.db.set_password, account.id, hashed)
        await self.run(self.db.end_sessions, account.id)
        return await self.start_session(account, replaces=session)

    async def delete(self, account: Account, password: str) -> None:
        await self.check_password(account, password)
        await self.run(self.db.delete, account.id)

    # ---------------------------------------------------------------- sessions

    async def start_session(self, account: Account, replaces: str | None = None) -> str:
        """A new session token for ``account`` (its hash stored); ``replaces``: the token the
        browser came with, ended now."""
        token = new_token()
        old = token_hash(replaces) if replaces else None
        await self.run(self.db.new_session, token_hash(token), account.id, self.session_seconds, old)
        return token

    async def session(self, token: str | None) -> Account | None:
        """The account a session token names, or ``None`` (no cookie, a forged or ended one)."""
        if token is None:
            return None
        return await self.run(self.db.session_account, token_hash(token))

    async def end_session(self, token: str) -> None:
        await self.run(self.db.end_session, token_hash(token))
