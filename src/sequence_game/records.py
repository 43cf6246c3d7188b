"""Game records in the interchange form of ``docs/record-format.md`` (``sequence-record/1``).

A record holds the shuffled deck, the dealer and every action and reshuffle, so it replays
exactly with no random number generator. Reading has two steps: :func:`load` turns bytes, text or
a file into a JSON object, and :func:`parse_record` checks its form into a :class:`Record`; only a
well-formed record is replayed (:func:`replay`). Every reader of records goes through them, so bad
input always ends in one :class:`RecordError` with a one-line message (reader notes:
``docs/records.md``).

>>> from sequence_game import GameConfig, new_game
>>> import random
>>> state = new_game(GameConfig(players=2), seed=5)
>>> _ = state.playout(random.Random(5))
>>> result = replay(write_record(state))
>>> result.ok, result.state.outcome() == state.outcome()
(True, True)
"""

from __future__ import annotations

import errno
import json
import os
import random
import reprlib
import select
import stat
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal

from .actions import DEAD, DISCARD, DRAW, EV_PENALTY, EV_RESHUFFLE, REMOVE, WILD
from .board import SIZE
from .cards import CARD_NAMES, FULL_DECK, Card, card_name, is_one_eyed, is_two_eyed
from .config import GameConfig
from .errors import ConfigError, IllegalActionError, MessageError
from .messages import M_, N_, Listed, Message, message_of, outside, with_rule
from .state import GameState

FORMAT = "sequence-record/1"
MAX_RECORD_BYTES = 16 * 1024 * 1024
#: Every number in a record is small: a longer integer is refused before Python converts it (which
#: costs time quadratic in its length, and fails beyond 4,300 digits).
MAX_INT_DIGITS: Final = 18
#: A record nests four deep (record, actions, action, cell); anything deeper than this is refused,
#: the same at every depth of the caller's stack (the decoder's own limit depends on it).
MAX_DEPTH: Final = 32
_UTF8_BOM: Final = b"\xef\xbb\xbf"


def _one_line(text: str) -> str:
    safe = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return "\\n".join(safe.splitlines())


class RecordError(MessageError):
    """A record that is not well formed (as opposed to one with an illegal action).

    The message is always one printable line: line breaks and characters that cannot be encoded
    (lone surrogates from odd file names or ``\\ud800`` escapes) are escaped (in a
    :class:`~sequence_game.messages.Message`, in its params, so it keeps its data). ``rule`` is the
    rule a malformed deal breaks (``R1.2``), else None; ``str(exc)`` puts it first.
    """

    def __init__(self, message: str, rule: str | None = None) -> None:
        if isinstance(message, Message):
            params = {k: _one_line(v) if type(v) is str else v for k, v in message.params.items()}
            message = Message(message.template, params, message.msgid)
        if _one_line(message) != message:  # a line break from elsewhere: the plain text, escaped
            message = _one_line(message)
        if not message:
            message = M_("malformed record")
        super().__init__(with_rule(rule, message))
        self.rule = rule
        self.message = message


#: Reasons quoted in the reader's messages (``{reason}``) that come from outside: the JSON
#: decoder's, the UTF-8 decoder's and the operating system's (by errno, so in the words this
#: machine's C library uses), each with the catalogue message people read it by.
REASONS: Final[dict[str, str]] = {
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


def _reason(text: str) -> Message:
    return outside(text, REASONS.get(text))


@dataclass(frozen=True)
class ReplayResult:
    """The outcome of replaying a record: the state reached and, if refused, where and why."""

    state: GameState
    ok: bool
    index: int | None = None
    """0-based index into ``actions`` of the first action refused."""
    rule: str | None = None
    error: str | None = None

    def summary(self) -> dict[str, Any]:
        """The JSON answer of ``sequence validate --json``."""
        state = self.state
        outcome = state.outcome()
        out: dict[str, Any] = {
            "ok": self.ok,
            "over": outcome is not None,
            "winner": outcome.winner if outcome else None,
            "sequences": list(state.sequence_counts()),
        }
        if outcome is not None:
            out["end"] = outcome.termination.value
        if not self.ok:
            out.update(index=self.index, rule=self.rule, error=self.error)
        return out


# ----------------------------------------------------------------------------- writing


def _cell(cell: int) -> list[int]:
    return [cell // SIZE, cell % SIZE]


def write_record(state: GameState) -> dict[str, Any]:
    """The record of a game played from a known deal (``new_game`` or a replay)."""
    if not state.initial_deck:
        raise RecordError("this state has no known deal (a sampled world?), so it has no record")
    actions: list[dict[str, Any]] = []
    for event in state.history:
        kind = event[0]
        if kind >= 0:
            seat, action, card = event
            if action < DEAD:
                cell = action % 100
                actions.append({"seat": seat, "card": card_name(card), "cell": _cell(cell)})
            elif action < DISCARD:
                actions.append({"seat": seat, "dead": card_name(card)})
            elif action < DRAW:
                actions.append({"seat": seat, "discard": card_name(card)})
            else:
                actions.append({"seat": seat, "draw": True})
        elif kind == EV_RESHUFFLE:
            actions.append({"reshuffle": [card_name(c) for c in event[1]]})
        elif kind == EV_PENALTY:
            actions.append({"penalty": event[1]})
    record: dict[str, Any] = {
        "format": FORMAT,
        "players": state.config.players,
        "teams": state.config.sides,
        "draw": state.config.draw,
        "dealer": state.dealer,
        "deck": [card_name(c) for c in state.initial_deck],
        "actions": actions,
    }
    outcome = state.outcome()
    if outcome is not None:
        record["result"] = {
            "winner": outcome.winner,
            "sequences": list(outcome.sequences),
            "end": outcome.termination.value,
        }
    return record


def dumps(state: GameState) -> str:
    """The record as JSON text, one action a line for readable diffs."""
    record = write_record(state)
    lines = [f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in record.items() if k != "actions"]
    actions = ",\n".join(f"    {json.dumps(a)}" for a in record["actions"])
    lines.insert(len(lines) - ("result" in record), f'  "actions": [\n{actions}\n  ]')
    return "{\n" + ",\n".join(lines) + "\n}\n"


# ----------------------------------------------------------------------------- reading


class _ShortRepr(reprlib.Repr):
    """``repr`` cut short, for quoting input in messages: a bad value may be megabytes long or
    nested a thousand deep, and an integer's ``repr`` fails beyond 4,300 digits."""

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 64:
            return f"<an integer of about {int(x.bit_length() * 0.30103) + 1} digits>"
        return super().repr_int(x, level)


_SHORT = _ShortRepr()
_SHORT.maxstring = 40
_SHORT.maxother = 40
_SHORT.maxlist = _SHORT.maxdict = _SHORT.maxtuple = 5
_SHORT.maxlevel = 3


#: reprlib bounds each part of a value, not the whole, so a nested value is also cut as a whole.
_SHOW_MAX = 120


def _show(value: object) -> str:
    text = _SHORT.repr(value)
    return text if len(text) <= _SHOW_MAX else text[: _SHOW_MAX - 1] + "…"


def _json_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise RecordError(
            M_(
                "an integer of {digits} digits: no number in a record is that long",
                digits=len(text.lstrip("-")),
            )
        )
    return int(text)


def _json_constant(name: str) -> Any:
    raise RecordError(M_("not valid JSON: {name} is not a JSON value", name=name))


def _json_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise RecordError(M_("key {key} appears twice in one object", key=_show(key)))
            seen.add(key)
    return obj


def _decode(raw: bytes) -> str:
    """UTF-8 text (RFC 8259), one leading byte-order mark allowed (docs/records.md)."""
    raw = raw.removeprefix(_UTF8_BOM)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(
            M_("not UTF-8 text: {reason} at byte {at}", reason=_reason(exc.reason), at=exc.start)
        ) from None


#: Seconds a named pipe may stay silent before its first byte: a pipe nobody writes to (``mkfifo``
#: with no writer) is refused instead of waiting for ever; a producer that starts late has this long.
PIPE_WAIT = 10.0


def path_text(path: str | Path) -> str:
    """A file name for a one-line message: as it is, or quoted with escapes when it holds a line
    break or another control character (``'a\\nb.json'``), so the message stays one line."""
    text = str(path)
    return text if text.isprintable() else repr(text)


def _read_path(path: Path) -> bytes:
    """The file's bytes, at most one past the limit (think of ``/dev/zero``). A pipe is opened
    without blocking and given :data:`PIPE_WAIT` seconds for its first byte: opening a named pipe
    that has no writer would otherwise wait for ever (``<(cat rec.json)`` has one and works)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    with os.fdopen(fd, "rb") as file:
        if stat.S_ISFIFO(os.fstat(fd).st_mode):
            ready, _w, _x = select.select([fd], [], [], PIPE_WAIT)
            if not ready:
                raise OSError(errno.ETIMEDOUT, f"nothing was written to the pipe in {PIPE_WAIT:g} s")
        os.set_blocking(fd, True)
        return file.read(MAX_RECORD_BYTES + 1)


def load(source: str | bytes | Path | dict[str, Any]) -> dict[str, Any]:
    """Parse a record from JSON text, a file path or an already decoded dict.

    Checks only that it is one JSON object (strict JSON: UTF-8, no NaN or Infinity, no key twice,
    no integer longer than ``MAX_INT_DIGITS``, at most ``MAX_RECORD_BYTES``); :func:`parse_record`
    checks its fields. Raises :class:`RecordError`, and nothing else, for bad input.
    """
    if isinstance(source, dict):
        _check_depth(source)
        return source
    if isinstance(source, Path):
        path = source
        try:
            source = _read_path(path)
        except (OSError, ValueError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise RecordError(
                M_("cannot read {path}: {reason}", path=path_text(path), reason=_reason(reason))
            ) from None
    if not isinstance(source, (str, bytes)):
        raise RecordError(f"a record is JSON text, bytes, a path or a dict, not {type(source).__name__}")
    if len(source) > MAX_RECORD_BYTES:
        raise RecordError(M_("larger than {size} bytes", size=MAX_RECORD_BYTES))
    text = _decode(source) if isinstance(source, bytes) else source.removeprefix("\ufeff")
    try:
        data = json.loads(
            text,
            object_pairs_hook=_json_object,
            parse_int=_json_int,
            parse_constant=_json_constant,
        )
    except RecordError:
        raise
    except RecursionError:
        raise RecordError(M_("nested more than {depth} deep", depth=MAX_DEPTH)) from None
    except json.JSONDecodeError as exc:
        where = {"reason": _reason(exc.msg), "line": exc.lineno, "column": exc.colno, "char": exc.pos}
        raise RecordError(
            Message(
                "not valid JSON: {reason}: line {line} column {column} (char {char})",
                where,
                N_("not valid JSON: {reason} at line {line}, column {column} (character {char})"),
            )
        ) from None
    except ValueError as exc:  # any other refusal of the decoder
        raise RecordError(M_("not valid JSON: {reason}", reason=_reason(str(exc)))) from None
    if not isinstance(data, dict):
        raise RecordError(M_("a record is a JSON object"))
    _check_depth(data)
    return data


def _check_depth(data: dict[str, Any]) -> None:
    """Refuse nesting beyond ``MAX_DEPTH`` (walked with a list, not recursion)."""
    level: list[Any] = [data]
    for _ in range(MAX_DEPTH):
        level = [
            child
            for node in level
            for child in (node.values() if isinstance(node, dict) else node)
            if isinstance(child, (dict, list))
        ]
        if not level:
            return
    raise RecordError(M_("nested more than {depth} deep", depth=MAX_DEPTH))


# -- the form of a record


EntryKind = Literal["play", "dead", "discard", "draw", "penalty", "reshuffle"]

#: The fields that name an action's kind; ``card`` and ``cell`` together make a play.
_KIND_OF_FIELD: Final[dict[str, EntryKind]] = {
    "card": "play",
    "cell": "play",
    "dead": "dead",
    "discard": "discard",
    "draw": "draw",
    "penalty": "penalty",
    "reshuffle": "reshuffle",
}
_CARD_BY_CODE: Final = {name: card for card, name in enumerate(CARD_NAMES)}
_ENDS: Final = ("sequences", "stuck")
_SORTED_DECK: Final = sorted(FULL_DECK)


@dataclass(frozen=True, slots=True)
class Entry:
    """One item of ``actions``, checked for form (not yet for legality)."""

    kind: EntryKind
    seat: int = -1
    card: Card = -1
    cell: int = -1
    side: int = -1
    """The side of a ``penalty``."""
    order: tuple[Card, ...] = ()
    """The new draw pile of a ``reshuffle``, top card first."""


@dataclass(frozen=True, slots=True)
class StatedResult:
    """The ``result`` a record states; a field it leaves out is not checked."""

    winner_stated: bool = False
    winner: int | None = None
    """A side, or ``None`` for a drawn game (when ``winner_stated``)."""
    sequences: tuple[int, ...] | None = None
    end: str | None = None


@dataclass(frozen=True, slots=True)
class Record:
    """A well-formed record: every field has the type and form ``docs/record-format.md`` gives it."""

    config: GameConfig
    dealer: int
    deck: tuple[Card, ...]
    entries: tuple[Entry, ...]
    result: StatedResult | None


def _need(obj: dict[str, Any], key: str, where: str) -> Any:
    if key not in obj:
        if where == "record":
            raise RecordError(
                Message(
                    "record: missing field {key}", {"key": repr(key)}, N_("the record has no field {key}")
                )
            )
        raise RecordError(M_("{where}: missing field {key}", where=where, key=repr(key)))
    return obj[key]


def _int(value: Any, where: str) -> int:
    """An integer: not a bool, not a float (``2.0``), not a number longer than any in a record."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordError(M_("{where}: expected an integer, got {value}", where=where, value=_show(value)))
    if value.bit_length() > 60:
        raise RecordError(M_("{where}: {value} is out of range", where=where, value=_show(value)))
    return value


def _card(value: Any, where: str) -> Card:
    """A card code exactly: two ASCII characters, either case, nothing around them."""
    card = _CARD_BY_CODE.get(value.lower()) if isinstance(value, str) and value.isascii() else None
    if card is None:
        raise RecordError(
            M_(
                "{where}: not a card code: {value} (rank 2-9/t/j/q/k/a then suit s/h/d/c)",
                where=where,
                value=_show(value),
            )
        )
    return card


def _cell_of(value: Any, where: str) -> int:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < SIZE for v in value)
    ):
        raise RecordError(
            M_("{where}: a cell is [row, column], both 0..9, not {value}", where=where, value=_show(value))
        )
    row, col = value
    return int(row) * SIZE + int(col)


def _entry(value: Any, where: str) -> Entry:
    if not isinstance(value, dict):
        raise RecordError(M_("{where}: expected an object, got {value}", where=where, value=_show(value)))
    kinds = sorted({_KIND_OF_FIELD[key] for key in value if key in _KIND_OF_FIELD})
    if len(kinds) != 1:
        if kinds:
            raise RecordError(
                M_("{where}: an action has one kind, this one has {kinds}", where=where, kinds=Listed(kinds))
            )
        raise RecordError(
            M_(
                "{where}: no action: expected card and cell, dead, discard, draw, penalty or reshuffle",
                where=where,
            )
        )
    kind = kinds[0]
    if kind in ("penalty", "reshuffle"):
        if "seat" in value:
            raise RecordError(
                Message(
                    "{where}: a {kind} belongs to no seat",
                    {"where": where, "kind": kind},
                    N_("{where}: an action of kind {kind} belongs to no seat"),
                )
            )
        if kind == "penalty":
            return Entry("penalty", side=_int(value["penalty"], f"{where}.penalty"))
        order = value["reshuffle"]
        if not isinstance(order, list):
            raise RecordError(
                M_(
                    "{where}: expected a list of card codes, got {value}",
                    where=where + ".reshuffle",
                    value=_show(order),
                )
            )
        return Entry(
            "reshuffle", order=tuple(_card(c, f"{where}.reshuffle[{i}]") for i, c in enumerate(order))
        )
    seat = _int(_need(value, "seat", where), f"{where}.seat")
    if kind == "draw":
        if value["draw"] is not True:
            raise RecordError(
                M_("{where}: must be true, not {value}", where=where + ".draw", value=_show(value["draw"]))
            )
        return Entry("draw", seat)
    if kind != "play":
        return Entry(kind, seat, card=_card(value[kind], f"{where}.{kind}"))
    card = _card(_need(value, "card", where), f"{where}.card")
    return Entry("play", seat, card=card, cell=_cell_of(_need(value, "cell", where), f"{where}.cell"))


def _stated_result(value: Any) -> StatedResult | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise RecordError(M_("{where}: expected an object, got {value}", where="result", value=_show(value)))
    winner = value.get("winner")
    if winner is not None:
        winner = _int(winner, "result.winner")
    sequences = None
    if "sequences" in value:
        counts = value["sequences"]
        if not isinstance(counts, list):
            raise RecordError(
                M_(
                    "{where}: expected a list of counts, got {value}",
                    where="result.sequences",
                    value=_show(counts),
                )
            )
        sequences = tuple(_int(n, f"result.sequences[{i}]") for i, n in enumerate(counts))
    end = value.get("end")
    if "end" in value and end not in _ENDS:
        raise RecordError(
            M_("{where}: expected 'sequences' or 'stuck', got {value}", where="result.end", value=_show(end))
        )
    return StatedResult("winner" in value, winner, sequences, end)


def _config(data: dict[str, Any]) -> GameConfig:
    fmt = data.get("format")
    if fmt != FORMAT:
        raise RecordError(M_("format is {value}, expected {format}", value=_show(fmt), format=repr(FORMAT)))
    players = _int(_need(data, "players", "record"), "players")
    # both are required: a reader that guessed them (two sides, automatic draw) would call a
    # sound 6-player or manual-draw game illegal, or pass a 4-player one it misread
    teams = _int(_need(data, "teams", "record"), "teams")
    draw = _need(data, "draw", "record")
    if draw not in ("auto", "manual"):
        raise RecordError(
            M_("{where}: expected 'auto' or 'manual', got {value}", where="draw", value=_show(draw))
        )
    try:
        return GameConfig(players=players, teams=teams, draw=draw)
    except ConfigError as exc:
        raise RecordError(exc.message, exc.rule) from None


def parse_record(source: str | bytes | Path | dict[str, Any]) -> Record:
    """Check a record's form (``docs/record-format.md``) and return it typed; raises :class:`RecordError`.

    The whole record is checked before any of it is replayed, so a malformed record is always
    refused as malformed, wherever the fault is. Fields this format does not define are ignored.
    """
    data = load(source)
    config = _config(data)
    dealer = _int(_need(data, "dealer", "record"), "dealer")
    if not 0 <= dealer < config.players:
        raise RecordError(
            M_("dealer {dealer} is not a seat 0..{last}", dealer=dealer, last=config.players - 1), "R4.1"
        )
    deck_data = _need(data, "deck", "record")
    if not isinstance(deck_data, list):
        raise RecordError(
            M_(
                "{where}: expected a list of 104 card codes, got {value}",
                where="deck",
                value=_show(deck_data),
            )
        )
    if len(deck_data) != len(_SORTED_DECK):
        raise RecordError(
            M_("the deck holds {cards} cards, not {got}", cards=len(_SORTED_DECK), got=len(deck_data)),
            "R1.2",
        )
    deck = tuple(_card(c, f"deck[{i}]") for i, c in enumerate(deck_data))
    if sorted(deck) != _SORTED_DECK:
        raise RecordError(M_("the deck must hold each of the 52 cards exactly twice"), "R1.2")
    actions = _need(data, "actions", "record")
    if not isinstance(actions, list):
        raise RecordError(M_("actions must be a list, not {value}", value=_show(actions)))
    entries = tuple(_entry(a, f"actions[{i}]") for i, a in enumerate(actions))
    stated = _stated_result(data.get("result"))
    if stated is not None:
        _check_result_shape(stated, config.sides)
    return Record(config, dealer, deck, entries, stated)


def _check_result_shape(stated: StatedResult, sides: int) -> None:
    """A result no game of this table could have is malformed, not a disagreement with the replay."""
    if stated.winner is not None and not 0 <= stated.winner < sides:
        raise RecordError(
            M_("result.winner: {value} is not a side 0..{last}", value=stated.winner, last=sides - 1)
        )
    if stated.sequences is not None:
        if len(stated.sequences) != sides:
            raise RecordError(
                M_(
                    "result.sequences: {got} counts for {sides} sides",
                    got=len(stated.sequences),
                    sides=sides,
                )
            )
        if any(n < 0 for n in stated.sequences):
            raise RecordError(M_("result.sequences: a count below zero"))


# -- replaying


def _result_matches(stated: StatedResult | None, state: GameState) -> str | None:
    """A disagreement between the stated result and the replay, if any."""
    if stated is None:
        return None
    outcome = state.outcome()
    if outcome is None:
        return M_("the record states a result but the game is not over")
    if stated.winner_stated and stated.winner != outcome.winner:
        return Message(
            "the record says winner {stated}, the replay gives {got}",
            {"stated": repr(stated.winner), "got": repr(outcome.winner)},
            N_("the record says the winner is {stated}, the replay gives {got}"),
        )
    if stated.sequences is not None and stated.sequences != outcome.sequences:
        return Message(
            "the record says sequences {stated}, the replay gives {got}",
            {"stated": repr(list(stated.sequences)), "got": repr(list(outcome.sequences))},
            N_("the record says the sequences are {stated}, the replay gives {got}"),
        )
    if stated.end is not None and stated.end != outcome.termination.value:
        return Message(
            "the record says end {stated}, the replay gives {got}",
            {"stated": repr(stated.end), "got": repr(outcome.termination.value)},
            N_("the record says the game ended by {stated}, the replay gives {got}"),
        )
    return None


class _Reshuffles:
    """Feeds the recorded reshuffle orders to the replay where the draw pile runs out."""

    def __init__(self, entries: Sequence[Entry]) -> None:
        self.entries = entries
        self.index = 0  # index of the action being applied
        self.used: int | None = None
        self.failed_at: int | None = None

    def __call__(self, pool: list[Card]) -> list[Card]:
        if not pool:
            return []  # nothing to reshuffle: nothing is drawn, and a writer records nothing
        at = self.index + 1
        entry = self.entries[at] if at < len(self.entries) else None
        if entry is None or entry.kind != "reshuffle":
            raise IllegalActionError("R5.4", M_("the draw pile ran out but the record has no reshuffle here"))
        if Counter(entry.order) != Counter(pool):
            self.failed_at = at
            raise IllegalActionError(
                "R5.4", M_("the reshuffled pile is not exactly the cards of the discard piles")
            )
        self.used = at
        return list(entry.order)


def replay(source: str | bytes | Path | dict[str, Any] | Record, *, seed: int | None = None) -> ReplayResult:
    """Replay a record action by action, stopping at the first illegal one.

    Reshuffles inside the record come from the record; if play goes on past its end, later
    reshuffles (R5.4) are drawn with a generator seeded with ``seed`` (fresh entropy if ``None``),
    so that a resumed game's new draw piles cannot be foreseen.

    Raises :class:`RecordError` for a record that is malformed (bad JSON, missing fields, a deck
    that is not the 104 cards); an illegal action is reported in the result, not raised.
    """
    record = source if isinstance(source, Record) else parse_record(source)
    entries = record.entries
    feeder = _Reshuffles(entries)
    state = GameState(
        record.config,
        record.deck,
        record.dealer,
        reshuffle_seed=random.Random(seed).getrandbits(63),
        reshuffle_source=feeder,
    )
    for index, entry in enumerate(entries):
        if entry.kind == "reshuffle" and feeder.used == index:
            continue  # drawn from by the action before it
        if state.is_terminal():
            return ReplayResult(
                state, False, index, "R7.1", M_("the game is already over: nothing may follow its end")
            )
        if entry.kind == "reshuffle":
            if state.penalty_due:  # any entry but the fine's discards names R6.1 (docs/records.md)
                rule, why = "R6.1", M_("a table-talk fine is owed: only its discards may come next")
            elif state.deck_size > 0:
                rule, why = "R5.4", M_("a reshuffle is recorded where the draw pile is not empty")
            else:
                rule, why = "R5.4", M_("a reshuffle stands right after the action that needed a card")
            return ReplayResult(state, False, index, rule, why)
        feeder.index = index
        try:
            _apply_entry(state, entry)
        except IllegalActionError as exc:
            at = feeder.failed_at if feeder.failed_at is not None else index
            return ReplayResult(state, False, at, exc.rule, exc.message)
    state._reshuffle_source = None
    mismatch = _result_matches(record.result, state)
    if mismatch is not None:
        return ReplayResult(state, False, None, "result", mismatch)
    return ReplayResult(state, True)


def _apply_entry(state: GameState, entry: Entry) -> None:
    """Apply one action; the state checks its rules in their order (R7.1, R6.1, R4.3, then the
    card and the cell), so the rule named does not depend on how the record spells the action."""
    if entry.kind == "penalty":
        state.call_table_talk(entry.side)
        return
    seat = entry.seat
    if not 0 <= seat < state.players:
        raise IllegalActionError("R2.1", M_("no seat {seat} at this table", seat=seat))
    if entry.kind == "draw":
        state.apply(DRAW, seat)
    elif entry.kind == "dead":
        state.apply(DEAD + entry.card, seat)
    elif entry.kind == "discard":
        state.apply(DISCARD + entry.card, seat)
    elif is_two_eyed(entry.card):
        state.apply(WILD + entry.cell, seat, card=entry.card)
    elif is_one_eyed(entry.card):
        state.apply(REMOVE + entry.cell, seat, card=entry.card)
    else:
        state.apply(entry.cell, seat, card=entry.card)


# -- fairness (docs/fairness.md)


def with_fairness(record: dict[str, Any], deal: Any) -> dict[str, Any]:
    """The record with the ``fairness`` block of a provably fair deal (a ``fairness.FairDeal``):
    the seed, its commitment and the seated people's nonces (``docs/fairness.md``)."""
    from .fairness import FairDeal

    if not isinstance(deal, FairDeal):
        raise TypeError("with_fairness needs a fairness.FairDeal")
    return {**record, "fairness": deal.to_json()}


def fairness_of(source: str | bytes | Path | dict[str, Any]) -> Any:
    """The record's parsed ``fairness`` block (a ``fairness.FairnessBlock``), or ``None`` when it
    has none; :class:`RecordError` when the block is malformed."""
    from .fairness import FairnessError, parse_block

    data = load(source)
    if "fairness" not in data:
        return None
    try:
        return parse_block(data["fairness"])
    except FairnessError as exc:
        raise RecordError(message_of(exc)) from None
