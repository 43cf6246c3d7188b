"""``sequence validate FILE... [--json]``: replay game records and report, for each, the result or
the first illegal action with the rule it breaks.

Exit status: 0 every record is legal, 1 one is illegal, 2 one is malformed (or unreadable): the
worst of all the files. Checking many files in one process saves starting Python once per file.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..i18n import _
from ..record_messages import record_message, replay_message

OK, ILLEGAL, MALFORMED = 0, 1, 2


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "validate",
        help=_("replay game records and check every action"),
        description=_(
            "Replay game records (sequence-record/1) and check every action against the rules. "
            "Exit status: 0 all legal, 1 an illegal record, 2 a malformed or unreadable one (the worst wins)."
        ),
    )
    p.add_argument(
        "files", nargs="+", type=Path, metavar="FILE", help=_("a JSON game record, or - for standard input")
    )
    p.add_argument(
        "--json", action="store_true", help=_("print one JSON object per file, one a line, naming its file")
    )
    p.set_defaults(run=run)


def _display(path: Path) -> str:
    """The name as given, printable even if it holds bytes that are not UTF-8."""
    return str(path).encode("utf-8", "backslashreplace").decode("utf-8")


def check_file(path: Path) -> tuple[int, dict[str, Any]]:
    """The exit status of one record and its JSON answer (the summary of ``ReplayResult`` with
    ``file``; ``malformed: true`` and ``error`` for a record that cannot be read as one)."""
    from ..messages import message_of
    from ..records import MAX_RECORD_BYTES, RecordError, replay

    name = _display(path)
    try:
        source: Path | bytes = sys.stdin.buffer.read(MAX_RECORD_BYTES + 1) if name == "-" else path
        result = replay(source)
    except RecordError as exc:
        return MALFORMED, {"file": name, "ok": False, "malformed": True, "error": message_of(exc)}
    return (OK if result.ok else ILLEGAL), {"file": name, **result.summary()}


def _human(summary: dict[str, Any]) -> str:
    """One file's verdict for people (``--json`` keeps the English data as it is)."""
    if summary.get("malformed"):
        return _("malformed record: {error}").format(error=record_message(summary["error"]))
    if summary["ok"]:
        seqs = ", ".join(
            _("side {side}: {n}").format(side=s, n=n) for s, n in enumerate(summary["sequences"])
        )
        if summary["over"]:
            winner = summary["winner"]
            verdict = _("drawn (R7.2)") if winner is None else _("side {side} wins").format(side=winner)
            return _("valid record; game over, {verdict}; sequences {sequences}").format(
                verdict=verdict, sequences=seqs
            )
        return _("valid record; game not over; sequences {sequences}").format(sequences=seqs)
    error = replay_message(summary["rule"], summary["error"])
    if summary["index"] is not None:
        return _("illegal action {n}: {error}").format(n=summary["index"], error=error)
    return _("illegal result: {error}").format(error=error)


def run(args: argparse.Namespace) -> int:
    worst = OK
    many = len(args.files) > 1
    for path in args.files:
        status, summary = check_file(path)
        worst = max(worst, status)
        if args.json:
            print(json.dumps(summary), flush=many)
            continue
        line = _human(summary)
        if many:
            line = f"{summary['file']}: {line}"
        print(line, file=sys.stderr if status == MALFORMED and not many else sys.stdout, flush=many)
    return worst
