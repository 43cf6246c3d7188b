"""Verifying a fair game's record: the deck and every reshuffle from its committed seed and nonces.

Why a module of its own: ``sequence verify`` (:mod:`.commands.verify`) and the server, which
verifies every fair game it finishes, give the same verdict, so both call :func:`verify_record`;
it lives with the engine, below both, so the server never imports the command line.

It recomputes the commitment from the revealed seed (and, for ``sequence-fair/2``, the record's
dealer, which the commitment binds), the deck and every reshuffle from the seed
and the nonces (:func:`.fairness.verify_cards`), compares them with the record, and replays the
record so that every reshuffled pile is known to hold exactly the discarded cards (R5.4).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .i18n import N_
from .messages import M_, Message, message_of

#: The verdicts, which are also ``sequence verify``'s exit statuses.
VERIFIED, MISMATCH, MALFORMED, UNVERIFIABLE = 0, 1, 2, 3


def verify_record(source: Path | bytes | dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """The exit status and the JSON report of verifying one record (for the CLI and servers)."""
    # imported here: ``sequence --help`` imports every command module, this one's too, and stays light
    from .fairness import verify_cards
    from .records import RecordError, fairness_of, load, parse_record, replay

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
    checks = [c.to_json() for c in verify_cards(block, record.deck, piles, record.dealer)]
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
