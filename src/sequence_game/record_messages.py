"""The English details of records and of fairness checks, read back into catalogue messages.

Why: the record reader (``records.py``: :class:`~sequence_game.records.RecordError` and a replay's
refusals), the fairness checks (``fairness.py``) and ``sequence verify`` say what is wrong in English,
and that English is part of their API: ``--json`` output, records' ``error`` fields, the server's
``message``. They stay pure and English. What a person reads goes through here instead: each detail
is read back into data with a pattern (as :data:`sequence_game.i18n.ENGINE_MESSAGES` reads the
engine's errors) and worded again from the catalogue. The CLI words them in the chosen language
(:func:`record_message`, :func:`check_line`); the server (``server/fair_checks.py``) sends the data
(:func:`check_parts`, :func:`record_parts`) and each page words it. Imports flow one way: this
module builds on :mod:`sequence_game.i18n` and knows nothing of the server.

A detail no pattern knows (a new one) is shown as it is, in English, rather than not at all.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
from collections.abc import Mapping
from typing import Any, Final

from .i18n import N_, card_short, engine_parts, gettext_in, split_rule

# ---------------------------------------------------------------------------- fairness checks

#: Each check of ``sequence verify`` (``fairness.verify_cards`` and the replay): (code, pattern of
#: the English detail, catalogue message). Card codes become symbols (``7♥``).
CHECK_DETAILS: Final[tuple[tuple[str, str, str], ...]] = (
    (
        "commitment_ok",
        r"SHA-256 of the seed matches the commitment",
        N_("SHA-256 of the seed matches the commitment"),
    ),
    (
        "commitment_differs",
        r"SHA-256 of the seed is (?P<got>[0-9a-f]+), the commitment says (?P<expected>\S+)",
        N_("SHA-256 of the seed is {got}, the commitment says {expected}"),
    ),
    ("cards_match", r"all (?P<cards>\d+) cards match", N_("every card matches ({cards})")),
    (
        "card_count",
        r"(?P<got>\d+) cards recorded, (?P<expected>\d+) expected",
        N_("cards recorded: {got}; expected: {expected}"),
    ),
    (
        "card_differs",
        r"card (?P<at>\d+) \(0 = top\) is (?P<got>\w+), the algorithm gives (?P<expected>\w+)",
        N_("card {at} (0 = top) is {got}; the algorithm gives {expected}"),
    ),
    (
        "replay_ok",
        r"every action is legal \(R5\.4 piles included\)",
        N_("every action is legal (R5.4 piles included)"),
    ),
    (
        "illegal_action",
        r"action (?P<action>\d+): (?P<rule>[^:]+): (?P<error>.*)",
        N_("action {action} breaks {rule}: {error}"),
    ),
    (
        "result_differs",
        r"result: result: (?P<error>.*)",
        N_("wrong result: {error}"),
    ),
    ("illegal_result", r"result: (?P<rule>[^:]+): (?P<error>.*)", N_("the result breaks {rule}: {error}")),
    (
        "seed_hidden",
        r"the seed is not revealed \(the game may still be in progress\)",
        N_("the seed is not revealed (the game may still be in progress)"),
    ),
)

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

# ---------------------------------------------------------------------------- records

_WHERE: Final = r"(?P<where>[\w.\[\]]+)"
_VALUE: Final = r"(?P<value>.+)"

#: The record reader's English messages (``records.py``, the ``fairness`` block's reader in
#: ``fairness.py``, ``sequence verify``'s and ``sequence analyze``'s own) read back into data, each
#: with the message it is shown as, first match wins. ``where`` is the record's field (a file format,
#: ``actions[3].card``) and ``value`` a quoted piece of the record: both are shown as they are. A field
#: named ``error`` or ``reason`` is itself a message, worded again by :func:`record_message`.
RECORD_MESSAGES: Final[tuple[tuple[str, str], ...]] = (
    # reading the JSON text (records.load)
    (
        r"an integer of (?P<digits>\d+) digits: no number in a record is that long",
        N_("an integer of {digits} digits: no number in a record is that long"),
    ),
    (r"not valid JSON: (?P<name>\S+) is not a JSON value", N_("not valid JSON: {name} is not a JSON value")),
    (
        r"not valid JSON: (?P<reason>.+): line (?P<line>\d+) column (?P<column>\d+) \(char (?P<char>\d+)\)",
        N_("not valid JSON: {reason} at line {line}, column {column} (character {char})"),
    ),
    (r"not valid JSON: (?P<reason>.+)", N_("not valid JSON: {reason}")),
    (r"key (?P<key>.+) appears twice in one object", N_("key {key} appears twice in one object")),
    (r"not UTF-8 text: (?P<reason>.+) at byte (?P<at>\d+)", N_("not UTF-8 text: {reason} at byte {at}")),
    (r"cannot read (?P<path>.+): (?P<reason>[^:]+)", N_("cannot read {path}: {reason}")),
    (r"larger than (?P<size>\d+) bytes", N_("larger than {size} bytes")),
    (r"nested more than (?P<depth>\d+) deep", N_("nested more than {depth} deep")),
    (r"a record is a JSON object", N_("a record is a JSON object")),
    (r"malformed record", N_("malformed record")),
    # the form of a record (records.parse_record)
    (r"format is (?P<value>.+), expected (?P<format>'[^']+')", N_("format is {value}, expected {format}")),
    (r"record: missing field (?P<key>.+)", N_("the record has no field {key}")),
    (rf"{_WHERE}: missing field (?P<key>.+)", N_("{where}: missing field {key}")),
    (rf"{_WHERE}: expected an integer, got {_VALUE}", N_("{where}: expected an integer, got {value}")),
    (rf"{_WHERE}: {_VALUE} is out of range", N_("{where}: {value} is out of range")),
    (
        rf"{_WHERE}: not a card code: {_VALUE} \(rank 2-9/t/j/q/k/a then suit s/h/d/c\)",
        N_("{where}: not a card code: {value} (rank 2-9/t/j/q/k/a then suit s/h/d/c)"),
    ),
    (
        rf"{_WHERE}: a cell is \[row, column\], both 0\.\.9, not {_VALUE}",
        N_("{where}: a cell is [row, column], both 0..9, not {value}"),
    ),
    (rf"{_WHERE}: expected an object, got {_VALUE}", N_("{where}: expected an object, got {value}")),
    (
        rf"{_WHERE}: an action has one kind, this one has (?P<kinds>.+)",
        N_("{where}: an action has one kind, this one has {kinds}"),
    ),
    (
        rf"{_WHERE}: no action: expected card and cell, dead, discard, draw, penalty or reshuffle",
        N_("{where}: no action: expected card and cell, dead, discard, draw, penalty or reshuffle"),
    ),
    (
        rf"{_WHERE}: a (?P<kind>\w+) belongs to no seat",
        N_("{where}: an action of kind {kind} belongs to no seat"),
    ),
    (
        rf"{_WHERE}: expected a list of card codes, got {_VALUE}",
        N_("{where}: expected a list of card codes, got {value}"),
    ),
    (rf"{_WHERE}: must be true, not {_VALUE}", N_("{where}: must be true, not {value}")),
    (
        rf"{_WHERE}: expected a list of counts, got {_VALUE}",
        N_("{where}: expected a list of counts, got {value}"),
    ),
    (
        rf"{_WHERE}: expected 'sequences' or 'stuck', got {_VALUE}",
        N_("{where}: expected 'sequences' or 'stuck', got {value}"),
    ),
    (
        rf"{_WHERE}: expected 'auto' or 'manual', got {_VALUE}",
        N_("{where}: expected 'auto' or 'manual', got {value}"),
    ),
    (
        r"dealer (?P<dealer>-?\d+) is not a seat 0\.\.(?P<last>\d+)",
        N_("dealer {dealer} is not a seat 0..{last}"),
    ),
    (
        rf"{_WHERE}: expected a list of 104 card codes, got {_VALUE}",
        N_("{where}: expected a list of 104 card codes, got {value}"),
    ),
    (r"the deck holds (?P<cards>\d+) cards, not (?P<got>\d+)", N_("the deck holds {cards} cards, not {got}")),
    (
        r"the deck must hold each of the 52 cards exactly twice",
        N_("the deck must hold each of the 52 cards exactly twice"),
    ),
    (rf"actions must be a list, not {_VALUE}", N_("actions must be a list, not {value}")),
    # the fairness block (fairness.parse_block, and sequence verify's seat check)
    (r"fairness must be an object", N_("fairness must be an object")),
    (
        r"fairness\.algorithm is (?P<value>.+); this program knows (?P<known>'[^']+')",
        N_("fairness.algorithm is {value}; this program knows {known}"),
    ),
    (
        r"fairness\.commitment must be 64 lower-case hex digits",
        N_("fairness.commitment must be 64 lower-case hex digits"),
    ),
    (
        r"fairness\.seed must be 64 lower-case hex digits \(32 bytes\)",
        N_("fairness.seed must be 64 lower-case hex digits (32 bytes)"),
    ),
    (
        r"fairness\.nonces must be a list of \{seat, nonce\} objects",
        N_("fairness.nonces must be a list of objects with seat and nonce"),
    ),
    (
        r"fairness\.nonces\[(?P<i>\d+)\] must be an object with seat and nonce",
        N_("fairness.nonces[{i}] must be an object with seat and nonce"),
    ),
    (
        r"fairness\.nonces: seats are integers and nonces text",
        N_("fairness.nonces: seats are integers and nonces text"),
    ),
    (r"one nonce per seat", N_("one nonce per seat")),
    (
        r"a nonce's seat is a seat number, not (?P<value>.+)",
        N_("a nonce's seat is a seat number, not {value}"),
    ),
    (
        r"seat (?P<seat>-?\d+)'s nonce must be 1\.\.(?P<size>\d+) bytes of UTF-8 text",
        N_("seat {seat}'s nonce must be 1..{size} bytes of UTF-8 text"),
    ),
    (
        r"fairness\.nonces: no seat (?P<seat>\d+) at this table of (?P<players>\d+)",
        N_("fairness.nonces: no seat {seat} at this table of {players}"),
    ),
    # a replay's refusals that are the record's, not the engine's (records.replay)
    (
        r"the draw pile ran out but the record has no reshuffle here",
        N_("the draw pile ran out but the record has no reshuffle here"),
    ),
    (
        r"the reshuffled pile is not exactly the cards of the discard piles",
        N_("the reshuffled pile is not exactly the cards of the discard piles"),
    ),
    (
        r"the game is already over: nothing may follow its end",
        N_("the game is already over: nothing may follow its end"),
    ),
    (
        r"a reshuffle is recorded where the draw pile is not empty",
        N_("a reshuffle is recorded where the draw pile is not empty"),
    ),
    (
        r"the record states a result but the game is not over",
        N_("the record states a result but the game is not over"),
    ),
    (
        r"the record says winner (?P<stated>.+), the replay gives (?P<got>.+)",
        N_("the record says the winner is {stated}, the replay gives {got}"),
    ),
    (
        r"the record says sequences (?P<stated>.+), the replay gives (?P<got>.+)",
        N_("the record says the sequences are {stated}, the replay gives {got}"),
    ),
    (
        r"the record says end (?P<stated>.+), the replay gives (?P<got>.+)",
        N_("the record says the game ended by {stated}, the replay gives {got}"),
    ),
    # sequence analyze's words around them (analysis.game.steps)
    (r"malformed record: (?P<error>.+)", N_("malformed record: {error}")),
    (r"illegal action None: result: (?P<error>.+)", N_("illegal result: {error}")),
    (r"illegal action (?P<n>\d+): (?P<error>.+)", N_("illegal action {n}: {error}")),
)

#: Reasons quoted inside a record's message (``{reason}``): the JSON decoder's, the UTF-8 decoder's
#: and the operating system's (by errno, so in the words this machine's C library uses).
REASONS: Final[Mapping[str, str]] = {
    "Expecting value": N_("a value was expected"),
    "Expecting property name enclosed in double quotes": N_("a property name in double quotes was expected"),
    "Expecting ':' delimiter": N_("':' was expected"),
    "Expecting ',' delimiter": N_("',' was expected"),
    "Unterminated string starting at": N_("a string that is never closed starts"),
    "Invalid control character at": N_("a control character inside a string"),
    "Invalid \\escape": N_("an invalid escape"),
    "Invalid \\uXXXX escape": N_("an invalid Unicode escape"),
    "Extra data": N_("more data after the JSON value"),
    "Illegal trailing comma before end of object": N_("a comma before the end of an object"),
    "Illegal trailing comma before end of array": N_("a comma before the end of a list"),
    "invalid start byte": N_("an invalid start byte"),
    "invalid continuation byte": N_("an invalid continuation byte"),
    "unexpected end of data": N_("the text ends inside a character"),
    "embedded null byte": N_("the name holds a null byte"),
    os.strerror(errno.ENOENT): N_("no such file or directory"),
    os.strerror(errno.EACCES): N_("permission denied"),
    os.strerror(errno.EISDIR): N_("it is a directory"),
    os.strerror(errno.ENOTDIR): N_("a part of the path is not a directory"),
    os.strerror(errno.ENAMETOOLONG): N_("the name is too long"),
    os.strerror(errno.ELOOP): N_("too many symbolic links"),
    os.strerror(errno.EIO): N_("an input/output error"),
}
#: What a replay names in the place of a rule when the stated result is wrong (``records.replay``).
_RESULT: Final = "result: "
#: Fields that are messages of their own, worded again inside the message that holds them.
_NESTED: Final = ("error", "reason")


def _fields(found: re.Match[str]) -> dict[str, Any]:
    fields: dict[str, Any] = {k: int(v) if v.isdigit() else v for k, v in found.groupdict().items()}
    if "kinds" in fields:  # "dead and play": the record's field names, listed
        fields["kinds"] = ", ".join(str(fields["kinds"]).split(" and "))
    return fields


def record_parts(message: str) -> tuple[str, dict[str, Any]] | None:
    """A record's or a replay's message (without its rule number) as data: the catalogue message
    it is worded by and its fields; the engine's own messages (:func:`~sequence_game.i18n.engine_parts`)
    included. None for a message no table knows. ``error`` and ``reason`` fields stay in English:
    :func:`record_message` words them again."""
    for pattern, template in RECORD_MESSAGES:
        found = re.fullmatch(pattern, message, re.DOTALL)
        if found is not None:
            return template, _fields(found)
    if message in REASONS:
        return REASONS[message], {}
    return engine_parts(message)


def record_message(text: str, lang: str | None = None) -> str:
    """A record's error (``RecordError``), a replay's refusal (``"R5.4: the reshuffled pile ..."``),
    an engine error or a fairness check's detail in ``lang``, rule number first as in English and
    card codes as symbols. A text no table knows comes back through the catalogue as a whole (it may
    be a message itself), else as it is."""
    rule, message = split_rule(text)
    parts = record_parts(message)
    if parts is None and message.startswith(_RESULT):  # a replay's "result" in the place of a rule
        message = message.removeprefix(_RESULT)
        parts = record_parts(message)
    if parts is None:  # perhaps a message as a whole; "" would be the catalogue's header
        return rule + (gettext_in(lang, message) if message else message)
    template, fields = parts
    for name in _NESTED:
        if name in fields:
            fields[name] = record_message(str(fields[name]), lang)
    return rule + gettext_in(lang, template).format(**fields)


def check_parts(detail: str) -> tuple[str, str, dict[str, Any]] | None:
    """A fairness check's English detail as data: its code, catalogue message and params (card codes
    as symbols; an illegal action's engine error stays an English ``error`` param); None when no
    pattern knows it."""
    for code, pattern, msgid in CHECK_DETAILS:
        found = re.fullmatch(pattern, detail, re.DOTALL)
        if found is None:
            continue
        params = _fields(found)
        if code == "card_differs":
            for key in ("got", "expected"):
                with contextlib.suppress(ValueError):  # not a card code after all: shown as it is
                    params[key] = card_short(params[key])
        return code, msgid, params
    return None


def check_name(name: str, lang: str | None = None) -> str:
    """A check's name in ``lang``: ``deck`` is "the deck", ``reshuffle 3`` "reshuffle 3"."""
    found = re.fullmatch(r"(?P<name>\w+)(?: (?P<number>\d+))?", name)
    if found is None or found["name"] not in CHECK_NAMES:
        return name
    return gettext_in(lang, CHECK_NAMES[found["name"]]).format(n=found["number"] or "")


def check_line(check: Mapping[str, Any], lang: str | None = None) -> str:
    """One check of ``sequence verify --json`` (``{"check", "ok", "detail"}``) as a line for people:
    its mark, its name and its detail, all in ``lang``."""
    marks = {ok: gettext_in(lang, mark) for ok, mark in CHECK_MARKS.items()}
    width = max(len(mark) for mark in marks.values())
    detail = str(check["detail"])
    parts = check_parts(detail)
    if parts is None:
        worded = record_message(detail, lang)
    else:
        _code, msgid, params = parts
        if "error" in params:
            params["error"] = record_message(str(params["error"]), lang)
        worded = gettext_in(lang, msgid).format(**params)
    return f"{marks[bool(check['ok'])].ljust(width)} {check_name(str(check['check']), lang)}: {worded}"
