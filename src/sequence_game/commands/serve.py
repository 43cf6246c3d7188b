"""``sequence serve [--host 127.0.0.1] [--port 8000] [--db PATH_OR_URL]``: play in the browser.

The database is a SQLite file by default; give a SQLAlchemy URL (``postgresql+psycopg://...``)
for PostgreSQL. The schema is migrated on start. ``--limit NAME=VALUE`` sets any of the abuse
limits of ``sequence_game.server.limits.Limits`` (rates, time-outs, eviction).
"""

from __future__ import annotations

import argparse
import contextlib
import faulthandler
import json
import os
import signal
from typing import Any

from ..i18n import _

DEFAULT_DB = "sequence-server.db"


def add_parser(sub: Any) -> None:
    p = sub.add_parser("serve", help=_("serve online games in the browser (rooms, teams, bots)"))
    p.add_argument("--host", default="127.0.0.1", help=_("address to listen on (default %(default)s)"))
    p.add_argument("--port", type=int, default=8000, help=_("port (default %(default)s)"))
    p.add_argument(
        "--db",
        default=DEFAULT_DB,
        help=_(
            "SQLite file path or SQLAlchemy URL, e.g. postgresql+psycopg://user@host/db (default %(default)s)"
        ),
    )
    p.add_argument(
        "--bot-seconds", type=float, default=1.0, help=_("thinking time per bot move (default %(default)s)")
    )
    p.add_argument(
        "--bot-delay", type=float, default=0.6, help=_("pause before each bot move (default %(default)s)")
    )
    p.add_argument(
        "--bot-workers",
        type=int,
        default=max(1, (os.cpu_count() or 2) - 1),
        help=_("processes for bot thinking (default: one less than the CPUs, at least 1)"),
    )
    p.add_argument(
        "--limit",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help=_(
            "set an abuse limit, e.g. --limit chat_burst=5 --limit finished_seconds=30 (see docs/server.md)"
        ),
    )
    p.add_argument(
        "--workers",
        type=int,
        default=1,
        help=_(
            "worker processes sharing the listening socket (more than 1 needs PostgreSQL; default %(default)s)"
        ),
    )
    p.add_argument(
        "--cluster",
        action="store_true",
        help=_(
            "share a PostgreSQL database with other `sequence serve --cluster` processes (other ports "
            "or hosts behind a load balancer); implied by --workers > 1"
        ),
    )
    p.add_argument(
        "--api-docs", action="store_true", help=_("serve /docs and /openapi.json (off by default)")
    )
    p.add_argument(
        "--ws-compression",
        choices=("on", "off"),
        default="on",
        help=_(
            "permessage-deflate on the websockets: less bandwidth, more CPU and about 50 KB a socket "
            "(default %(default)s)"
        ),
    )
    p.add_argument(
        "--trusted-proxy",
        action="append",
        default=[],
        metavar="ADDR",
        help=_(
            "a reverse proxy whose X-Forwarded-For or X-Real-IP names the client: an address or a "
            "network, repeatable or a comma list (default: none; the socket's peer is the client)"
        ),
    )
    p.add_argument(
        "--header-seconds",
        type=float,
        default=10.0,
        help=_("close a connection whose request headers take longer than this (default %(default)s)"),
    )
    p.add_argument(
        "--body-seconds",
        type=float,
        default=60.0,
        help=_("close a connection whose request body takes longer than this (default %(default)s)"),
    )
    p.add_argument(
        "--connections-per-address",
        type=int,
        default=256,
        help=_(
            "connections one address may hold open in each worker, websockets included; trusted "
            "proxies are exempt (default %(default)s)"
        ),
    )
    p.add_argument("--log-level", default="info", help=_("uvicorn log level (default %(default)s)"))
    p.set_defaults(run=run)


def parse_limits(pairs: list[str], bot_workers: int) -> Any:
    """``Limits`` from ``NAME=VALUE`` pairs; a clear error for an unknown name or a bad number."""
    import dataclasses

    from ..server.limits import Limits

    kinds = {f.name: f.type for f in dataclasses.fields(Limits)}
    values: dict[str, Any] = {"bot_workers": bot_workers}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        name = name.strip().replace("-", "_")
        if not sep or name not in kinds:
            raise SystemExit(
                _("--limit {pair}: expected NAME=VALUE with NAME one of {names}").format(
                    pair=repr(pair), names=", ".join(kinds)
                )
            )
        try:
            value: float = int(raw) if kinds[name] in (int, "int") else float(raw)
        except ValueError:
            raise SystemExit(
                _("--limit {pair}: {value} is not a number").format(pair=repr(pair), value=repr(raw))
            ) from None
        if value < 0:
            raise SystemExit(_("--limit {pair}: must not be negative").format(pair=repr(pair)))
        values[name] = value
    return Limits(**values)


def trusted_proxies(values: list[str]) -> list[str]:
    """``--trusted-proxy`` values, each an address or a network (or a comma list of them)."""
    from ..server.forwarded import parse_proxies

    try:
        return [str(network) for network in parse_proxies(values)]
    except ValueError as exc:
        raise SystemExit(
            _("--trusted-proxy {value}: not an address or a network").format(value=repr(str(exc)))
        ) from None


def raise_file_limit() -> None:
    """Raise the soft limit of open files to the hard one: each connection holds a descriptor,
    and the usual soft 1,024 is reached long before the memory or the CPU is."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on POSIX
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(
                resource.RLIMIT_NOFILE, (hard if hard != resource.RLIM_INFINITY else 65536, hard)
            )


def dump_stacks_on_signal() -> None:
    """``kill -USR1 PID`` writes every thread's stack to the server's stderr (the log): what an
    operator, or a test whose server stopped answering, needs to see where it hangs. Workers
    started by uvicorn inherit the handler."""
    if hasattr(signal, "SIGUSR1"):
        faulthandler.register(signal.SIGUSR1, all_threads=True, chain=False)


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from ..server.app import create_app
        from ..server.conn_guard import http_protocol
        from ..server.store import Store, database_url
        from ..server.ws_protocol import PROTOCOL
    except ImportError as exc:
        raise SystemExit(
            _("sequence serve needs the server extra: pip install 'sequence-game[server]' ({error})").format(
                error=exc
            )
        ) from None
    limits = parse_limits(args.limit, args.bot_workers)
    proxies = trusted_proxies(args.trusted_proxy)
    if args.header_seconds <= 0 or args.body_seconds <= 0 or args.connections_per_address < 1:
        raise SystemExit(
            _("--header-seconds and --body-seconds must be above 0, --connections-per-address at least 1")
        )
    raise_file_limit()
    dump_stacks_on_signal()
    url = database_url(args.db)
    if args.workers < 1:
        raise SystemExit(_("--workers must be at least 1"))
    if (args.workers > 1 or args.cluster) and not url.startswith("postgresql"):
        raise SystemExit(
            _(
                "--workers > 1 and --cluster need PostgreSQL (--db postgresql+psycopg://...): the workers "
                "share rooms through its locks and LISTEN/NOTIFY; SQLite serves a single process"
            )
        )
    served: dict[str, Any] = {
        "host": args.host,
        "port": args.port,
        "log_level": args.log_level,
        "ws_max_size": 64 * 1024,
        "ws_ping_interval": 20,
        "ws_ping_timeout": 20,
        # browsers offer permessage-deflate; off, the server declines it (docs/server.md, Capacity)
        "ws_per_message_deflate": args.ws_compression == "on",
        "ws": PROTOCOL,  # uvicorn's own, freed when its connection is lost (server/ws_protocol.py)
        # the app reads forwarded addresses, from --trusted-proxy only (server/forwarded.py);
        # uvicorn's own reading trusted X-Forwarded-For from 127.0.0.1 by default
        "proxy_headers": False,
        # deadlines for slow requests and a cap of connections per address (server/conn_guard.py)
        "http": http_protocol(args.header_seconds, args.body_seconds, args.connections_per_address, proxies),
    }
    if args.workers > 1:
        # uvicorn binds the socket once and spawns the workers, each building its app from an
        # import string: the settings travel in the environment; the schema is migrated once here
        store = Store(url)
        store.migrate()
        store.close()
        os.environ[WORKER_ENV] = json.dumps(
            {
                "db": url,
                "bot_seconds": args.bot_seconds,
                "bot_delay": args.bot_delay,
                "limit": args.limit,
                "bot_workers": args.bot_workers,
                "api_docs": args.api_docs,
                "trusted_proxies": proxies,
            }
        )
        uvicorn.run(f"{__name__}:worker_app", factory=True, workers=args.workers, **served)
        return 0
    app = create_app(
        Store(url),
        bot_seconds=args.bot_seconds,
        bot_delay=args.bot_delay,
        limits=limits,
        api_docs=args.api_docs,
        cluster=args.cluster,
        trusted_proxies=proxies,
    )
    uvicorn.run(app, **served)
    return 0


WORKER_ENV = "SEQUENCE_SERVE_WORKER"
"""Environment variable carrying ``sequence serve --workers N``'s settings to each worker."""


def worker_app() -> Any:
    """The app of one worker of ``sequence serve --workers N`` (uvicorn's ``factory`` entry point)."""
    from ..server.app import create_app
    from ..server.store import Store

    cfg = json.loads(os.environ[WORKER_ENV])
    return create_app(
        Store(cfg["db"]),
        bot_seconds=cfg["bot_seconds"],
        bot_delay=cfg["bot_delay"],
        limits=parse_limits(cfg["limit"], cfg["bot_workers"]),
        api_docs=cfg["api_docs"],
        migrate=False,
        cluster=True,
        trusted_proxies=cfg.get("trusted_proxies", []),
    )
