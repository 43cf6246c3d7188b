"""Token buckets in the store, shared by every worker: one row of ``rate_limits`` a limit and
client address, taken with one upsert.

Why a module of its own: :mod:`.shared_limits` decides what is limited; this is how a bucket is
kept in SQL, the same statement on SQLite and PostgreSQL.
"""

from __future__ import annotations

import contextlib
import threading
import time

import sqlalchemy as sa

from .store import Store, rate_limits

_REFILL = (
    "CASE WHEN rate_limits.tokens + (CASE WHEN :now > rate_limits.stamp THEN :now - rate_limits.stamp"
    " ELSE 0 END) * :rate > :burst THEN :burst ELSE rate_limits.tokens + (CASE WHEN :now >"
    " rate_limits.stamp THEN :now - rate_limits.stamp ELSE 0 END) * :rate END"
)
TAKE_TOKEN = sa.text(
    "INSERT INTO rate_limits (bucket, client, tokens, stamp, admitted)"
    " VALUES (:bucket, :client, :tokens, :now, :admitted)"
    " ON CONFLICT (bucket, client) DO UPDATE SET"
    f" tokens = CASE WHEN {_REFILL} >= 1 THEN {_REFILL} - 1 ELSE {_REFILL} END,"
    f" admitted = {_REFILL} >= 1,"
    " stamp = CASE WHEN :now > rate_limits.stamp THEN :now ELSE rate_limits.stamp END"
    " RETURNING admitted, tokens"
)
"""Take a token from a shared bucket in ONE statement (an upsert, the same on SQLite and
PostgreSQL): the bucket refilled at ``rate`` a second up to ``burst`` since its last use, less one
token if one was there; ``admitted`` says whether it was. Atomic per row, so two workers taking
the last token at once cannot both get it."""


class TokenBuckets:
    """The shared buckets of one store; on PostgreSQL one kept connection in autocommit."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._limits: sa.Connection | None = None
        """PostgreSQL: the connection tokens are taken on (:meth:`take_token`)."""
        self._limits_lock = threading.Lock()

    def close(self) -> None:
        self._drop_limits()

    def take_token(
        self, bucket: str, client: str, rate: float, burst: float, now: float | None = None
    ) -> tuple[bool, float]:
        """Take a token from ``client``'s shared bucket ``bucket`` (``rate`` a second, ``burst`` at
        most): whether one was there, and the tokens left. One statement (:data:`TAKE_TOKEN`), so
        every worker sharing the database shares the bucket; wall-clock time, as workers on
        several hosts share no other clock. Blocking: call it off the event loop on PostgreSQL."""
        now = time.time() if now is None else now
        first = burst >= 1
        params = {
            "bucket": bucket,
            "client": client[:64],
            "now": now,
            "rate": float(rate),
            "burst": float(burst),
            "tokens": float(burst) - 1 if first else float(burst),
            "admitted": first,
        }
        if not self.store.url.startswith("postgresql"):  # a local file: a short transaction of its own
            with self.store.engine.begin() as conn:
                row = conn.execute(TAKE_TOKEN, params).one()
            return bool(row.admitted), float(row.tokens)
        with self._limits_lock:  # one kept connection in autocommit: one round trip, no pool ping
            if self._limits is None:
                self._limits = self.store.engine.connect().execution_options(isolation_level="AUTOCOMMIT")
            try:
                row = self._limits.execute(TAKE_TOKEN, params).one()
            except sa.exc.DBAPIError:
                self._drop_limits()  # a connection lost with a restart is opened again next time
                raise
        return bool(row.admitted), float(row.tokens)

    def prune_tokens(self, bucket: str, before: float) -> int:
        """Forget ``bucket``'s rows last used before ``before`` (refilled by now: a fresh row is
        the same); how many."""
        with self.store.engine.begin() as conn:
            gone = conn.execute(
                rate_limits.delete().where(rate_limits.c.bucket == bucket, rate_limits.c.stamp < before)
            )
        return int(gone.rowcount or 0)

    def _drop_limits(self) -> None:
        conn, self._limits = self._limits, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.invalidate()
                conn.close()
