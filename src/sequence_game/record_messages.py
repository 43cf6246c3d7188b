"""The details of records and of fairness checks in the player's language.

Why: the record reader (``records.py``: :class:`~sequence_game.records.RecordError` and a replay's
refusals), the fairness checks (``fairness.py``) and ``sequence verify`` say what is wrong in English,
and that English is part of their API: ``--json`` output, records' ``error`` fields, the server's
``message``. Each of those texts is a :class:`~sequence_game.messages.Message` that keeps its
catalogue message and params, so what a person reads is worded again from the catalogue with no
reading back of the English. The CLI words them in the chosen language (:func:`record_message`,
:func:`check_line`); the server (``server/fair_checks.py``) sends the data (:func:`check_parts`,
:func:`record_parts`) and each page words it. Imports flow one way: this module builds on
:mod:`sequence_game.i18n` and knows nothing of the server.

Text without data (made elsewhere, or read back from a file) is shown through the catalogue as a
whole, else as it is, in English, rather than not at all (:func:`~sequence_game.i18n.message_text`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from .i18n import N_, gettext_in, message_text, wire_value
from .messages import Message

# ---------------------------------------------------------------------------- fairness checks

#: Each detail of ``sequence verify``'s checks (``fairness.verify_cards`` and the replay) by its
#: code: the catalogue message it is worded by (the msgid its :class:`Message` carries). The page
#: has the same codes.
CHECK_DETAILS: Final[Mapping[str, str]] = {
    "commitment_ok": N_("SHA-256 of the seed matches the commitment"),
    "commitment_differs": N_("SHA-256 of the seed is {got}, the commitment says {expected}"),
    "cards_match": N_("every card matches ({cards})"),
    "card_count": N_("cards recorded: {got}; expected: {expected}"),
    "card_differs": N_("card {at} (0 = top) is {got}; the algorithm gives {expected}"),
    "replay_ok": N_("every action is legal (R5.4 piles included)"),
    "illegal_action": N_("action {action} breaks {rule}: {error}"),
    "result_differs": N_("wrong result: {error}"),
    "illegal_result": N_("the result breaks {rule}: {error}"),
    "seed_hidden": N_("the seed is not revealed (the game may still be in progress)"),
}
_CHECK_CODES: Final[Mapping[str, str]] = {msgid: code for code, msgid in CHECK_DETAILS.items()}

#: The checks' names (``reshuffle 3`` is ``reshuffle`` number 3); the page has the same table.
CHECK_NAMES: Final[Mapping[str, str]] = {
    "commitment": N_("the commitment"),
    "deck": N_("the deck"),
    "reshuffle": N_("reshuffle {n}"),
    "replay": N_("the replay"),
    "seed": N_("the seed"),
}

#: Why there are no checks at all (``sequence verify``'s ``error``), each with its code.
NOT_VERIFIED: Final[Mapping[str, str]] = {
    "no_fairness": N_("the record has no fairness block: nothing to verify"),
    "seed_hidden": N_("the seed is not revealed yet (the game may be in progress)"),
    "malformed": N_("the record is malformed"),
}

#: What marks a check that holds and one that fails, in ``sequence verify``'s text.
CHECK_MARKS: Final[Mapping[bool, str]] = {True: N_("ok"), False: N_("FAIL")}

# ---------------------------------------------------------------------------- records and checks


def _numbered(value: Any) -> Any:
    """A param as the record's and the checks' data carry it: a whole number as a number."""
    shown = wire_value(value)
    text = shown if isinstance(shown, str) else str(shown)
    return int(text) if text.isdigit() else text


def record_parts(message: str) -> tuple[str, dict[str, Any]] | None:
    """A record's or a replay's message (without its rule number) as data: the catalogue message
    it is worded by and its params (whole numbers as numbers; a message inside it, such as a quoted
    ``reason``, as its English). None for plain text, which carries no data."""
    if not isinstance(message, Message):
        return None
    return message.msgid, {name: _numbered(value) for name, value in message.params.items()}


def record_message(error: str | BaseException, lang: str | None = None) -> str:
    """A record's error (``RecordError``), a replay's refusal, an engine error or a fairness check's
    detail in ``lang``, rule number first as in English and card codes as symbols
    (:func:`~sequence_game.i18n.message_text`)."""
    return message_text(error, lang)


def replay_message(rule: str | None, error: str | None, lang: str | None = None) -> str:
    """A replay's refusal (``ReplayResult.rule`` and ``.error``) in ``lang``: the rule number first
    (``R5.4: ...``); a stated result that the replay does not give (``rule`` is ``"result"``, no
    rule number) as the message alone."""
    worded = message_text(error or "", lang)
    return worded if not rule or rule == "result" else f"{rule}: {worded}"


def check_parts(detail: str) -> tuple[str, str, dict[str, Any]] | None:
    """A fairness check's detail as data: its code, catalogue message and params (card codes as
    symbols, whole numbers as numbers; an illegal action's ``error`` stays the engine's
    :class:`Message`, for a ``reason`` of its own); None for a detail that is no known check's."""
    if not isinstance(detail, Message) or detail.msgid not in _CHECK_CODES:
        return None
    params = {name: value if name == "error" else _numbered(value) for name, value in detail.params.items()}
    return _CHECK_CODES[detail.msgid], detail.msgid, params


def check_name(name: str, lang: str | None = None) -> str:
    """A check's name in ``lang``: ``deck`` is "the deck", ``reshuffle 3`` "reshuffle 3"."""
    word, _space, number = name.partition(" ")
    if word not in CHECK_NAMES or not (number == "" or number.isdigit()):
        return name
    return gettext_in(lang, CHECK_NAMES[word]).format(n=number)


def check_line(check: Mapping[str, Any], lang: str | None = None) -> str:
    """One check of ``sequence verify`` (``{"check", "ok", "detail"}``, the detail a
    :class:`Message`) as a line for people: its mark, its name and its detail, all in ``lang``."""
    marks = {ok: gettext_in(lang, mark) for ok, mark in CHECK_MARKS.items()}
    width = max(len(mark) for mark in marks.values())
    detail = check["detail"]
    worded = message_text(detail if isinstance(detail, str) else str(detail), lang)
    return f"{marks[bool(check['ok'])].ljust(width)} {check_name(str(check['check']), lang)}: {worded}"
