"""``sequence validate FILE [--json]``: replay a game record and report the result or the first
illegal action with the rule it breaks."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def add_parser(sub: Any) -> None:
    p = sub.add_parser("validate", help="replay a game record and check every action")
    p.add_argument("file", type=Path, help="a JSON game record (sequence-record/1), or - for stdin")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..records import RecordError, replay

    try:
        source: Path | bytes = sys.stdin.buffer.read() if str(args.file) == "-" else args.file
        result = replay(source)
    except RecordError as exc:
        if args.json:
            print(json.dumps({"ok": False, "malformed": True, "error": str(exc)}))
        else:
            print(f"malformed record: {exc}", file=sys.stderr)
        return 2
    summary = result.summary()
    if args.json:
        print(json.dumps(summary))
    elif result.ok:
        seqs = ", ".join(f"side {s}: {n}" for s, n in enumerate(summary["sequences"]))
        if summary["over"]:
            winner = summary["winner"]
            verdict = "drawn (R7.2)" if winner is None else f"side {winner} wins"
            print(f"valid record; game over, {verdict}; sequences {seqs}")
        else:
            print(f"valid record; game not over; sequences {seqs}")
    else:
        where = f"action {result.index}" if result.index is not None else "result"
        print(f"illegal {where}: {result.rule}: {result.error}")
    return 0 if result.ok else 1
