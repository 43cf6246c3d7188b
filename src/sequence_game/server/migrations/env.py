"""Alembic environment: runs on the connection that ``Store.migrate`` hands over, or on the URL of
an ``alembic.ini`` (``sqlalchemy.url``) when run by the ``alembic`` command."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import context


def _run(connection: Any) -> None:
    from sequence_game.server.store import metadata

    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def main() -> None:
    connection = context.config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = sa.create_engine(context.config.get_main_option("sqlalchemy.url") or "")
    with engine.begin() as conn:
        _run(conn)


if getattr(context, "_proxy", None) is not None:  # importable (doctest collection) outside Alembic
    main()
