"""``sequence benchmark``: rate an agent against the protocol's fixed ladder (docs/benchmark.md).

The agent is a bot of this project (``hard``, ``pimc(...)``), a Python callable
(``python:package.module:factory``) or a program speaking JSON lines (``cmd:./my_agent``).
Prints one JSON object: per table, the OpenSkill rating with its 95% interval and the score
against each rung with a Wilson interval.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from ..i18n import _

PREFIX = "sequence benchmark: "


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "benchmark",
        help=_("rate an agent against the fixed ladder of bots (OpenSkill, JSON)"),
        description=_(
            "The agent plays every rung of a fixed ladder on published paired deals, at 2 players and "
            "at 4 in 2 teams, with simulation budgets instead of seconds, and gets an OpenSkill rating."
        ),
    )
    p.add_argument(
        "agent",
        nargs="?",
        help=_("a bot spec, python:module:factory, or cmd:COMMAND speaking JSON lines"),
    )
    p.add_argument(
        "--games",
        type=int,
        default=200,
        help=_("games against each rung at each table (default %(default)s)"),
    )
    p.add_argument("--tables", default="2p,4p-teams", help=_("comma-separated tables (default %(default)s)"))
    p.add_argument(
        "--rungs", default=None, help=_("only these rungs, comma-separated (default: the whole ladder)")
    )
    p.add_argument(
        "--simulations", type=int, default=None, help=_("the agent's budget a move, if it is a bot")
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=60.0,
        help=_("seconds an agent may take a move (default %(default)s)"),
    )
    p.add_argument("--workers", type=int, default=None, help=_("worker processes (default: CPU count)"))
    p.add_argument("--out", default=None, metavar="FILE", help=_("also write the JSON result to FILE"))
    p.add_argument(
        "--calibrate",
        action="store_true",
        help=_("measure the ladder's own ratings (a round robin among the rungs) instead of rating an agent"),
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        from ..research import benchmark
        from ..research.agents import AgentError
    except ImportError as exc:
        raise SystemExit(
            PREFIX + _("this needs OpenSkill: pip install 'sequence-game[bench]'") + f" ({exc})"
        ) from None
    if args.games < 1:
        raise SystemExit(PREFIX + _("--games must be at least 1"))
    if args.timeout <= 0:
        raise SystemExit(PREFIX + _("--timeout must be positive"))
    if args.simulations is not None and args.simulations < 1:
        raise SystemExit(PREFIX + _("--simulations must be at least 1"))
    workers = args.workers if args.workers is not None else (os.cpu_count() or 1)

    def progress(done: int, total: int) -> None:
        if done == total or done % max(1, total // 20) == 0:
            print(_("{done}/{total} games").format(done=done, total=total), file=sys.stderr, flush=True)

    try:
        if args.calibrate:
            result = benchmark.calibrate(args.games, workers, progress)
        else:
            if not args.agent:
                raise SystemExit(PREFIX + _("name the agent to rate, e.g. sequence benchmark hard"))
            result = benchmark.run(
                args.agent,
                tables=[t.strip() for t in args.tables.split(",") if t.strip()],
                games=args.games,
                rungs=[r.strip() for r in args.rungs.split(",")] if args.rungs else None,
                simulations=args.simulations,
                workers=workers,
                timeout=args.timeout,
                progress=progress,
            )
    except (ValueError, ImportError, AgentError) as exc:
        raise SystemExit(f"{PREFIX}{exc}") from None
    text = json.dumps(result, indent=2)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")
    print(text)
    return 0
