"""``sequence verify FILE [--json]``: check a provably fair game's record (``docs/fairness.md``).

The command line only: the check itself is :func:`sequence_game.verification.verify_record`, which
the server calls too (it recomputes the commitment, the deck and every reshuffle from the seed and
the nonces, and replays the record so that every reshuffled pile holds the discarded cards, R5.4).

Exit status: 0 everything matches; 1 something does not (a tampered seed, nonce, deck or
reshuffle, or an illegal action); 2 the record is unreadable or malformed; 3 there is nothing to
verify (no ``fairness`` block, or its seed is not revealed yet).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..i18n import _
from ..record_messages import check_line, record_message
from ..verification import MALFORMED, MISMATCH, UNVERIFIABLE, VERIFIED, verify_record

__all__ = ["MALFORMED", "MISMATCH", "UNVERIFIABLE", "VERIFIED", "add_parser", "run", "verify_record"]


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "verify",
        help=_("check that a fair game's deck and reshuffles come from its committed seed"),
        description=_(
            "Recompute the commitment, the deck and every reshuffle of a record's fairness "
            "block and compare. Exit status 0 verified, 1 mismatch, 2 malformed, 3 nothing to verify."
        ),
    )
    p.add_argument("file", type=Path, help=_("a JSON game record (sequence-record/1), or - for stdin"))
    p.add_argument("--json", action="store_true", help=_("print one JSON object"))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    source: Path | bytes = sys.stdin.buffer.read() if str(args.file) == "-" else args.file
    status, report = verify_record(source)
    if args.json:
        print(json.dumps(report))
        return status
    # the JSON keeps the English details; people read every one in their language from its data
    if "checks" not in report:
        print(_("cannot verify: {error}").format(error=record_message(report["error"])), file=sys.stderr)
        return status
    for check in report["checks"]:
        print(check_line(check))
    if status == VERIFIED:
        print(
            _("verified: the cards come from the committed seed {commitment}... and the nonces").format(
                commitment=report["commitment"][:16]
            )
        )
    else:
        print(_("NOT verified: the record does not match its fairness block"))
    return status
