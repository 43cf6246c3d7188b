"""``sequence analyze FILE [--json] [--seconds S] [--total T] [--samples N] [--chart PNG]``: post-game analysis of a record.

For every move: the mover's winning chances before and after, from its own view; the play the
strongest bot prefers; a label (missed win, missed block, blunder, mistake); each side's luck kept
apart from its decisions; accuracy and the largest swings (``docs/analysis.md``).

Exit status: 0 analysed; 2 the record is unreadable, malformed or has an illegal action, or the
chart cannot be drawn (matplotlib missing).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..i18n import _
from ..record_messages import record_message


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "analyze",
        help=_("analyse a game record: winning chances, mistakes, luck and skill"),
        description=_(
            "Judge every move of a record from its mover's view: winning chances before and "
            "after, the strongest bot's play, labelled mistakes, luck kept apart from decisions."
        ),
    )
    p.add_argument("file", type=Path, help=_("a JSON game record (sequence-record/1), or - for stdin"))
    p.add_argument("--json", action="store_true", help=_("print one JSON object"))
    p.add_argument(
        "--seconds",
        type=float,
        default=1.0,
        metavar="S",
        help=_(
            "time per move, the bot's search included (default: %(default)s); 0 for no time limit "
            "(then --samples alone sets the work and the result depends only on --seed)"
        ),
    )
    p.add_argument(
        "--total",
        type=float,
        default=90.0,
        metavar="T",
        help=_(
            "with --seconds, a long game gets T / actions seconds a move when that is less "
            "(default: %(default)s; 0 for no cap)"
        ),
    )
    p.add_argument("--samples", type=int, default=64, help=_("sampled worlds per move at most (default: 64)"))
    p.add_argument("--bot", default="mcts", help=_("the bot whose preferred play is shown (default: mcts)"))
    p.add_argument("--seed", type=int, default=0, help=_("seed of the sampled worlds and the bot"))
    p.add_argument(
        "--chart", type=Path, metavar="PNG", help=_("also draw the winning chances to this PNG file")
    )
    p.add_argument("--quiet", action="store_true", help=_("no progress bar"))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..analysis import AnalysisError, Budget, analyze_record, format_text

    if args.seconds < 0 or args.total < 0 or args.samples < 1:
        print(_("--seconds and --total must be at least 0 and --samples at least 1"), file=sys.stderr)
        return 2
    try:
        budget = Budget(seconds=args.seconds or None, samples=args.samples, total=args.total or None)
        source: Path | bytes = sys.stdin.buffer.read() if str(args.file) == "-" else args.file
        progress = None if args.quiet or not sys.stderr.isatty() else _progress
        analysis = analyze_record(source, budget, seed=args.seed, bot=args.bot, progress=progress)
    except (AnalysisError, ValueError) as exc:
        print(_("cannot analyse: {error}").format(error=record_message(exc)), file=sys.stderr)
        return 2
    if progress is not None:
        print(file=sys.stderr)
    if args.chart is not None:
        from ..analysis.chart import ChartUnavailable, write_chart

        try:
            write_chart(analysis, args.chart)
        except (ChartUnavailable, OSError) as exc:
            print(_("cannot draw the chart: {error}").format(error=exc), file=sys.stderr)
            return 2
    if args.json:
        print(json.dumps(analysis.to_json()))
    else:
        print(format_text(analysis))
    return 0


def _progress(done: int, total: int) -> None:
    width = 30
    filled = width * done // max(total, 1)
    bar = f"[{'#' * filled}{'.' * (width - filled)}] {done}/{total}"
    print("\r" + _("analysing {bar}").format(bar=bar), end="", file=sys.stderr)
