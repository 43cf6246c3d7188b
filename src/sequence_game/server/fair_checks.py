"""The server's fairness verification as data, so each seat's page words it in its own language.

Why: ``sequence verify`` (``verification.py`` over ``fairness.verify_cards``) reports each check
with an English ``detail``, part of its ``--json`` output and of the engine-side API. A room serves
several languages at once (``docs/i18n.md``), so ``room.fairness.game.verify`` sends every check as
a code, the catalogue message it is worded by (``msgid``) and its ``params``: the data the detail
(a :class:`~sequence_game.messages.Message`) carries, taken by
:func:`~sequence_game.record_messages.check_parts` (shared with ``sequence verify``'s text).
``message`` keeps the English detail for API clients. A detail without data (plain text) keeps
``code: "other"`` and its English ``message`` only, rather than nothing.
"""

from __future__ import annotations

import re
from typing import Any

from ..i18n import engine_parts
from ..record_messages import NOT_VERIFIED, check_parts, record_parts


def check_data(check: dict[str, Any]) -> dict[str, Any]:
    """One check of ``sequence verify --json`` (``{"check", "ok", "detail"}``) as data:
    ``{"check", "number"?, "ok", "code", "msgid"?, "params"?, "reason"?, "message"}``.
    ``reshuffle 3`` becomes ``check: "reshuffle", number: 3``; the error inside a failed replay's
    detail is a ``reason`` of its own (``{"msgid", "params"}``) when it carries data: an illegal
    action's (the engine's params as text, as in a refusal) or a wrong result's (the record's)."""
    name, detail = str(check["check"]), check["detail"]  # a Message: str() would drop its data
    out: dict[str, Any] = {"check": name, "ok": bool(check["ok"])}
    numbered = re.fullmatch(r"(?P<name>\w+) (?P<number>\d+)", name)
    if numbered:
        out.update(check=numbered["name"], number=int(numbered["number"]))
    parts = check_parts(detail)
    if parts is None:
        out["code"] = "other"
    else:
        code, msgid, params = parts
        if "error" in params:
            error = params.pop("error")
            reason = record_parts(error) if code == "result_differs" else engine_parts(error)
            if reason is not None:
                out["reason"] = {"msgid": reason[0], "params": reason[1]}
        out.update(code=code, msgid=msgid, params=params)
    out["message"] = str(detail)
    return out


def verification_data(status: int, report: dict[str, Any]) -> dict[str, Any]:
    """``sequence verify``'s status and report as the room sends it: ``{status, ok, checks}`` with
    every check as data, and ``error`` (``{code, msgid, params, message}``) when nothing could be checked."""
    out: dict[str, Any] = {
        "status": status,
        "ok": bool(report.get("ok")),
        "checks": [check_data(c) for c in report.get("checks", [])],
    }
    if "error" in report:
        text = str(report["error"])
        code = next((c for c, m in NOT_VERIFIED.items() if m == text), "malformed")
        out["error"] = {"code": code, "msgid": NOT_VERIFIED[code], "params": {}, "message": text}
    return out
