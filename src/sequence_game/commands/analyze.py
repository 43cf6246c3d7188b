"""``sequence analyze FILE [--json] [--chart PNG] [--alternatives N] [--evaluator W]``: post-game analysis of a record.

For every move: the mover's winning chances before and after, from its own view, by the evaluator;
the mover's best plays ranked by chance; a label (missed win, missed block, blunder, mistake); each
side's luck kept apart from its decisions, and its luck-adjusted result (``docs/analysis.md``).
``--seconds``, ``--total``, ``--samples``, ``--bot`` and ``--seed`` belonged to the sampled
rollouts the evaluator replaced: still accepted, they have no effect.

Exit status: 0 analysed; 2 the record is unreadable, malformed or has an illegal action, the
evaluator's weights cannot be read, or the chart cannot be drawn (matplotlib missing).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from ..i18n import _
from ..record_messages import record_message

#: As ``analysis.threads.ONE_THREAD``, which cannot be imported before NumPy is (the package loads it).
ONE_THREAD = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "analyze",
        help=_("analyse a game record: winning chances, mistakes, luck and skill"),
        description=_(
            "Judge every move of a record from its mover's view with the evaluator: winning "
            "chances before and after, the best plays, labelled mistakes, luck kept apart from "
            "decisions."
        ),
    )
    p.add_argument("file", type=Path, help=_("a JSON game record (sequence-record/1), or - for stdin"))
    p.add_argument("--json", action="store_true", help=_("print one JSON object"))
    p.add_argument(
        "--alternatives",
        type=int,
        default=3,
        metavar="N",
        help=_("the best plays listed for each decision (default: %(default)s)"),
    )
    p.add_argument(
        "--evaluator",
        type=Path,
        metavar="WEIGHTS",
        help=_("judge with these evaluator weights (.npz) instead of the shipped ones"),
    )
    no_effect = _("no effect: kept for old scripts (the evaluator replaced the sampled rollouts)")
    p.add_argument("--seconds", type=float, default=1.0, metavar="S", help=no_effect)
    p.add_argument("--total", type=float, default=90.0, metavar="T", help=no_effect)
    p.add_argument("--samples", type=int, default=64, help=no_effect)
    p.add_argument("--bot", default="mcts", help=no_effect)
    p.add_argument("--seed", type=int, default=0, help=no_effect)
    p.add_argument(
        "--chart", type=Path, metavar="PNG", help=_("also draw the winning chances to this PNG file")
    )
    p.add_argument("--quiet", action="store_true", help=_("no progress bar"))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    for name in ONE_THREAD:  # before NumPy is imported, just below (analysis/threads.py says why)
        os.environ.setdefault(name, "1")
    from ..analysis import AnalysisError, Budget, analyze_record, format_text
    from ..analysis.game import load_evaluator

    if args.seconds < 0 or args.total < 0 or args.samples < 1:
        print(_("--seconds and --total must be at least 0 and --samples at least 1"), file=sys.stderr)
        return 2
    if args.alternatives < 1:
        print(_("--alternatives must be at least 1"), file=sys.stderr)
        return 2
    if args.chart is not None and not args.chart.expanduser().resolve().parent.is_dir():
        # before the analysis, not after it has run for nothing
        print(
            _("cannot draw the chart: the folder {folder} does not exist").format(
                folder=args.chart.expanduser().parent
            ),
            file=sys.stderr,
        )
        return 2
    try:
        evaluator = load_evaluator(args.evaluator)
    except (OSError, ValueError) as exc:
        print(_("cannot read the evaluator's weights: {error}").format(error=exc), file=sys.stderr)
        return 2
    try:
        budget = Budget(alternatives=args.alternatives)
        source: Path | bytes = sys.stdin.buffer.read() if str(args.file) == "-" else args.file
        progress = None if args.quiet or not sys.stderr.isatty() else _progress
        analysis = analyze_record(source, budget, progress=progress, evaluator=evaluator)
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
