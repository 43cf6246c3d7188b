"""``sequence serve [--host 127.0.0.1] [--port 8000] [--db PATH_OR_URL]``: play in the browser.

The database is a SQLite file by default; give a SQLAlchemy URL (``postgresql+psycopg://...``)
for PostgreSQL. The schema is migrated on start.
"""

from __future__ import annotations

import argparse
from typing import Any

DEFAULT_DB = "sequence-server.db"


def add_parser(sub: Any) -> None:
    p = sub.add_parser("serve", help="serve online games in the browser (rooms, teams, bots)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument(
        "--db",
        default=DEFAULT_DB,
        help=f"SQLite file path or SQLAlchemy URL, e.g. postgresql+psycopg://user@host/db (default {DEFAULT_DB})",
    )
    p.add_argument("--bot-seconds", type=float, default=1.0, help="thinking time per bot move (default 1.0)")
    p.add_argument("--bot-delay", type=float, default=0.6, help="pause before each bot move (default 0.6)")
    p.add_argument("--log-level", default="info", help="uvicorn log level (default info)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from ..server.app import create_app
        from ..server.store import Store, database_url
    except ImportError as exc:
        raise SystemExit(
            f"sequence serve needs the server extra: pip install 'sequence-game[server]' ({exc})"
        ) from None
    store = Store(database_url(args.db))
    app = create_app(store, bot_seconds=args.bot_seconds, bot_delay=args.bot_delay)
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        ws_max_size=64 * 1024,
        ws_ping_interval=20,
        ws_ping_timeout=20,
    )
    return 0
