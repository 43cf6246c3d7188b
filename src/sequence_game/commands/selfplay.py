"""``sequence selfplay``: self-play games written as Parquet shards, resumable (docs/selfplay-data.md).

Run it again with the same options and folder after a stop: finished shards are kept, the rest are
made. ``--backend ray`` spreads the shards over a Ray cluster (``--address``); the files are the same.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..config import TEAM_OPTIONS
from ..i18n import _

PREFIX = "sequence selfplay: "


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "selfplay",
        help=_("write self-play games (and observations) as Parquet for research"),
        description=_(
            "Bots play each other on the compiled engine; every game is written with its deal, actions "
            "and result, and with --observations every decision's planes, legal actions and outcome."
        ),
    )
    p.add_argument("--out", required=True, metavar="DIR", help=_("the folder of the shards (resumable)"))
    p.add_argument("--games", type=int, default=10_000, help=_("games to play (default %(default)s)"))
    p.add_argument(
        "--players",
        type=int,
        default=2,
        choices=sorted(TEAM_OPTIONS),
        help=_("players (default %(default)s)"),
    )
    p.add_argument(
        "--teams", type=int, default=None, help=_("number of sides (default: the usual one, R2.2)")
    )
    p.add_argument(
        "--bots",
        default="hard",
        help=_(
            "one bot for every seat, or one a side, comma-separated: random, greedy, hard, lite (default %(default)s)"
        ),
    )
    p.add_argument("--seed", type=int, default=0, help=_("random seed (default %(default)s)"))
    p.add_argument("--shard-size", type=int, default=10_000, help=_("games a shard (default %(default)s)"))
    p.add_argument("--max-turns", type=int, default=400, help=_("stop a game after this many turns"))
    p.add_argument("--observations", action="store_true", help=_("also write every decision's observation"))
    p.add_argument("--workers", type=int, default=1, help=_("worker processes (default %(default)s)"))
    p.add_argument(
        "--backend", choices=("process", "ray"), default="process", help=_("local processes or Ray")
    )
    p.add_argument("--address", default=None, help=_("the Ray cluster's address (default: a local Ray)"))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        from ..research.selfplay_data import Plan, PlanMismatch
        from ..research.selfplay_data import run as make
    except ImportError as exc:
        raise SystemExit(
            PREFIX
            + _("this needs pyarrow and the compiled engine: pip install 'sequence-game[data]'")
            + f" ({exc})"
        ) from None
    try:
        plan = Plan(
            players=args.players,
            teams=args.teams,
            bots=tuple(b.strip() for b in args.bots.split(",") if b.strip()),
            seed=args.seed,
            games=args.games,
            shard_size=args.shard_size,
            max_turns=args.max_turns,
            observations=args.observations,
        )
    except ValueError as exc:
        raise SystemExit(f"{PREFIX}{exc}") from None
    if args.workers < 1:
        raise SystemExit(PREFIX + _("--workers must be at least 1"))
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise SystemExit(PREFIX + _("{path} is not a folder").format(path=out))

    def progress(done: int, total: int) -> None:
        print(_("{done}/{total} shards").format(done=done, total=total), file=sys.stderr, flush=True)

    try:
        summary = make(
            plan, out, workers=args.workers, backend=args.backend, address=args.address, progress=progress
        )
    except (PlanMismatch, RuntimeError, OSError) as exc:
        raise SystemExit(f"{PREFIX}{exc}") from None
    print(json.dumps(summary))
    return 0
