"""``sequence verify FILE [--json]``: check a provably fair game's record (``docs/fairness.md``).

Recomputes the commitment from the revealed seed, the deck and every reshuffle from the seed and
the nonces, compares them with the record, and replays the record so that every reshuffled pile is
known to hold exactly the discarded cards (R5.4).

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

from ..i18n import N_, _
from ..messages import M_, Message, message_of
from ..record_messages import check_line, record_message

VERIFIED, MISMATCH, MALFORMED, UNVERIFIABLE = 0, 1, 2, 3


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


def verify_record(source: Path | bytes | dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """The exit status and the JSON report of verifying one record (for the CLI and servers)."""
    from ..fairness import verify_cards
    from ..records import RecordError, fairness_of, load, parse_record, replay

    try:
        data = load(source)
        block = fairness_of(data)
    except RecordError as exc:
        return MALFORMED, {"ok": False, "malformed": True, "error": message_of(exc)}
    if block is None:
        return UNVERIFIABLE, {"ok": False, "error": N_("the record has no fairness block: nothing to verify")}
    report: dict[str, Any] = {"commitment": block.commitment, "nonces": len(block.nonces)}
    if block.seed is None:
        report.update(ok=False, error=N_("the seed is not revealed yet (the game may be in progress)"))
        return UNVERIFIABLE, report
    try:
        record = parse_record(data)
    except RecordError as exc:
        return MALFORMED, {**report, "ok": False, "malformed": True, "error": message_of(exc)}
    strangers = [seat for seat, _nonce in block.nonces if seat >= record.config.players]
    if strangers:
        players = record.config.players
        error = M_(
            "fairness.nonces: no seat {seat} at this table of {players}", seat=strangers[0], players=players
        )
        return MALFORMED, {**report, "ok": False, "malformed": True, "error": error}
    piles = [entry.order for entry in record.entries if entry.kind == "reshuffle"]
    result = replay(record)
    checks = [c.to_json() for c in verify_cards(block, record.deck, piles)]
    if result.ok:
        checks.append(
            {"check": "replay", "ok": True, "detail": M_("every action is legal (R5.4 piles included)")}
        )
    else:
        checks.append(
            {
                "check": "replay",
                "ok": False,
                "detail": _replay_detail(result.index, result.rule, result.error),
            }
        )
    ok = all(c["ok"] for c in checks)
    report.update(ok=ok, checks=checks)
    return (VERIFIED if ok else MISMATCH), report


def _replay_detail(index: int | None, rule: str | None, error: str | None) -> Message:
    """Why the replay failed, in the English of ``--json`` (``action 4: R5.2: ...``) and as data."""
    if index is not None:
        params = {"action": index, "rule": rule, "error": error}
        return Message(
            "action {action}: {rule}: {error}", params, N_("action {action} breaks {rule}: {error}")
        )
    if rule == "result":  # the stated result differs from the replay's
        return Message("result: result: {error}", {"error": error}, N_("wrong result: {error}"))
    return Message(
        "result: {rule}: {error}", {"rule": rule, "error": error}, N_("the result breaks {rule}: {error}")
    )


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
