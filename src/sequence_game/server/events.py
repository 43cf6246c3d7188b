"""What the server tells the table, as data: each page words it in its own player's language.

A room serves several languages at once (one seat reads Spanish, another Danish), so nothing here
is an English sentence: an event is a ``kind`` and its fields, a table note a small dict
(``{"kind": "reshuffle", "cards": 41}``), a refusal a ``code`` with the catalogue message it is
worded by (``msgid``) and its ``params``. The page (``static/js/words.js``) renders each of them through
the same catalogue as the terminal (docs/i18n.md, "Events from the server").

>>> notes([(-4, 1)]), outcome_notes(None)
([{'kind': 'lost_draw', 'seat': 1}], [])
>>> auto_code("turn timer")
'turn_timer'
>>> from sequence_game.messages import CardCode, M_
>>> held = M_("seat {seat} holds no {card}", seat=0, card=CardCode("7h"))
>>> refusal("illegal", IllegalActionError("R5.2", held)).to_dict()["params"]
{'seat': '0', 'card': '7♥'}
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import ConfigError, IllegalActionError
from ..i18n import engine_parts
from ..state import EV_LOST_DRAW, EV_PASS, EV_RESHUFFLE, GameState, Outcome
from .protocol import ProtocolError

#: The table notes a move can bring (each with its rule): the ``kind`` of each note dict.
NOTE_KINDS = ("pass", "lost_draw", "reshuffle", "sequence", "win", "drawn")


def notes(entries: Sequence[tuple[Any, ...]]) -> list[dict[str, Any]]:
    """Engine table events as data, with nothing hidden (a reshuffle shows only its size): a seat
    passing with an empty hand (R5.5), a lost draw (R5.3), a reshuffle (R5.4)."""
    out: list[dict[str, Any]] = []
    for e in entries:
        if e[0] == EV_PASS:
            out.append({"kind": "pass", "seat": e[1]})
        elif e[0] == EV_LOST_DRAW:
            out.append({"kind": "lost_draw", "seat": e[1]})
        elif e[0] == EV_RESHUFFLE:
            out.append({"kind": "reshuffle", "cards": len(e[1])})
    return out


def sequence_counts(state: GameState) -> list[int]:
    """How many sequences each side has made so far."""
    return [len(state.sequences(side)) for side in range(state.config.sides)]


def sequence_notes(before: Sequence[int], after: Sequence[int]) -> list[dict[str, Any]]:
    """A side completing sequences (R3.2): its new total, once per move that made any."""
    return [
        {"kind": "sequence", "side": side, "made": now - was, "total": now}
        for side, (was, now) in enumerate(zip(before, after, strict=True))
        if now > was
    ]


def outcome_notes(outcome: Outcome | None) -> list[dict[str, Any]]:
    """The end of the game: a side wins (R7.1), or a full round without a play draws it (R7.2)."""
    if outcome is None:
        return []
    if outcome.winner is None:
        return [{"kind": "drawn"}]
    return [{"kind": "win", "side": outcome.winner}]


def auto_code(reason: str) -> str:
    """Why the server played a seat's move, as a code (stored events say ``"turn timer"``)."""
    return "_".join(reason.split())


def seat_fields(kind: str, name: str, level: str | None) -> dict[str, Any]:
    """Who sits in a seat now: ``occupant`` empty, bot (with its ``level``) or human (its ``name``)."""
    out: dict[str, Any] = {"occupant": kind}
    if kind == "bot":
        out["level"] = level
    elif kind == "human":
        out["name"] = name
    return out


def refusal(code: str, exc: IllegalActionError | ConfigError) -> ProtocolError:
    """An engine error as a refusal: the catalogue message it is worded by and its fields (card
    codes as symbols, the same in every language), from the data its message carries. One raised
    with plain text keeps its English text only (the page then shows the code's own message)."""
    parts = engine_parts(exc.message)
    if parts is None:
        return ProtocolError(code, exc.message, exc.rule, plain=True)
    template, fields = parts
    return ProtocolError(code, template, exc.rule, params=fields)
