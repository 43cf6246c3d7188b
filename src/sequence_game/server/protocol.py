"""The websocket protocol: every inbound message is validated against one of these models.

A message is a JSON object whose ``type`` picks the model (a discriminated union); unknown
fields, wrong types and out-of-range values are refused before any handler runs.

>>> parse_message('{"type": "act", "action": 44, "version": 3}').action
44
>>> parse_message('{"type": "fly"}')
Traceback (most recent call last):
...
sequence_game.server.protocol.ProtocolError: bad_message: ...
"""

from __future__ import annotations

import json
import unicodedata
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from ..actions import NUM_ACTIONS
from ..i18n import N_
from .clocks import MAX_INCREMENT, check_minutes
from .json_text import parse

#: Inbound frames larger than this are refused unread (the uvicorn limit is higher and closes).
MAX_MESSAGE_BYTES = 4096
MAX_CHAT = 300
MAX_NAME = 40


def _printable(text: str) -> str:
    """Refuse control characters and lone surrogates: a NUL cannot be stored in PostgreSQL, and
    none of them belongs in a name or a chat line."""
    for ch in text:
        if unicodedata.category(ch) in ("Cc", "Cs") and ch not in "\t\n":
            raise ValueError(f"control character U+{ord(ch):04X} is not allowed")
    return text


def _visible(text: str) -> str:
    """A name of only spaces names nobody: the table would show a blank seat (issue 42)."""
    if not text.strip():
        raise ValueError("a name needs at least one visible character")
    return text


#: Text people type (names, chat): no control characters.
Printable = Annotated[str, AfterValidator(_printable)]
#: A player's name: printable, and not only spaces.
Name = Annotated[str, AfterValidator(_printable), AfterValidator(_visible)]
#: A chess clock's base time (:mod:`.clocks`): 0 for none, else 0.05 to 60 minutes.
ClockMinutes = Annotated[float, AfterValidator(check_minutes)]


class ProtocolError(ValueError):
    """A refused message; ``code`` is machine-readable, ``rule`` names a rule where one applies.

    ``message`` is a catalogue message (``N_()``) with ``{placeholders}`` filled from ``params``:
    the reply carries it as ``msgid`` with the ``params``, so each page words the refusal in its
    own language, and filled in as ``message``, the English fallback for API clients. ``plain``:
    the message is a text from elsewhere (the JSON reader, pydantic, a record's error), English only.
    """

    def __init__(
        self,
        code: str,
        message: str,
        rule: str | None = None,
        *,
        params: dict[str, Any] | None = None,
        plain: bool = False,
    ) -> None:
        self.code = code
        self.msgid = None if plain else message
        self.params = dict(params or {})
        self.message = message.format(**self.params) if self.params else message
        self.rule = rule
        super().__init__(f"{code}: {self.message}")

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "error", "code": self.code, "message": self.message}
        if self.msgid is not None:
            out.update(msgid=self.msgid, params=self.params)
        if self.rule:
            out["rule"] = self.rule
        return out


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Hello(_Msg):
    """First message on a socket: a seat token, or none to watch (a spectator)."""

    type: Literal["hello"]
    token: str | None = Field(default=None, max_length=128)


class Act(_Msg):
    """Take an action; ``version`` is the last event the client saw (stale commands are refused)."""

    type: Literal["act"]
    action: int = Field(ge=0, lt=NUM_ACTIONS)
    version: int = Field(ge=0)
    seat: int | None = Field(default=None, ge=0, lt=12)
    card: str | None = Field(default=None, min_length=2, max_length=2)


class Chat(_Msg):
    type: Literal["chat"]
    text: Printable = Field(min_length=1, max_length=MAX_CHAT)


class Mute(_Msg):
    """Hide (or show again) one seat's chat lines for this player; only the sender is affected."""

    type: Literal["mute"]
    seat: int = Field(ge=0, lt=12)
    mute: bool = True


class CallTableTalk(_Msg):
    """An opponent calls table talk against ``side`` (R6.1); the host rules on it."""

    type: Literal["call"]
    side: int = Field(ge=0, lt=3)


class Rule(_Msg):
    """The host upholds or dismisses a table-talk call (R6.2: the host is the arbiter)."""

    type: Literal["rule"]
    call: int = Field(ge=0)
    uphold: bool


class SetBot(_Msg):
    """Host, in the lobby: put a bot of ``level`` in an empty seat, or ``null`` to empty a bot seat."""

    type: Literal["bot"]
    seat: int = Field(ge=0, lt=12)
    level: str | None = Field(default=None, max_length=32)


class Configure(_Msg):
    """Host, in the lobby: the house rules fixed before the game (R6.2)."""

    type: Literal["configure"]
    teams: int | None = Field(default=None, ge=2, le=3)
    draw: Literal["auto", "manual"] | None = None
    turn_seconds: int | None = Field(default=None, ge=0, le=3600)
    clock_minutes: ClockMinutes | None = None
    clock_increment: int | None = Field(default=None, ge=0, le=MAX_INCREMENT)
    clock_flag: Literal["bot", "loss"] | None = None


class Start(_Msg):
    type: Literal["start"]


class Nonce(_Msg):
    """A seated person's contribution to a fair deal, answering ``nonce_request``: the hex of 8 to 32
    random bytes, for the deal committed to by ``commitment`` (a late answer is refused)."""

    type: Literal["nonce"]
    commitment: str = Field(pattern=r"^[0-9a-f]{64}$")
    nonce: str = Field(pattern=r"^[0-9a-f]{16,64}$")


class Rematch(_Msg):
    """Host, after a game: a new fair deal in the same room and seats, the dealer passed on (R4.1).
    ``swap``: the same deck again with the sides exchanged (two sides only)."""

    type: Literal["rematch"]
    swap: bool = False


class Leave(_Msg):
    """Leave the seat: in the lobby it frees the seat, in a game a bot stands in at once."""

    type: Literal["leave"]


class Ping(_Msg):
    type: Literal["ping"]


class Hint(_Msg):
    """A seated player asks the strongest bot for a play on its own view (rooms created with
    ``hints: true`` and holding a bot only)."""

    type: Literal["hint"]


Inbound = Annotated[
    Hello
    | Act
    | Chat
    | Mute
    | CallTableTalk
    | Rule
    | SetBot
    | Configure
    | Start
    | Nonce
    | Rematch
    | Leave
    | Ping
    | Hint,
    Field(discriminator="type"),
]
_ADAPTER: TypeAdapter[Inbound] = TypeAdapter(Inbound)


def parse_message(text: str | bytes) -> Inbound:
    """Validate one inbound frame, raising :class:`ProtocolError` with a clear reason."""
    if len(text) > MAX_MESSAGE_BYTES:
        raise ProtocolError(
            "too_large",
            N_("message of {size} bytes; the limit is {limit}"),
            params={"size": len(text), "limit": MAX_MESSAGE_BYTES},
        )
    try:
        data = parse(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ProtocolError("bad_json", f"not valid JSON: {getattr(exc, 'msg', exc)}", plain=True) from None
    except RecursionError:
        raise ProtocolError("bad_json", N_("not valid JSON: nested too deeply")) from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", N_("a message is a JSON object with a 'type'"))
    try:
        return _ADAPTER.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "message"
        raise ProtocolError("bad_message", f"{where}: {first['msg']}", plain=True) from None


# ------------------------------------------------------------------------- HTTP bodies


class CreateRoom(BaseModel):
    model_config = ConfigDict(extra="forbid")

    players: int = Field(default=2, ge=2, le=12)
    teams: int | None = Field(default=None, ge=2, le=3)
    draw: Literal["auto", "manual"] = "auto"
    turn_seconds: int = Field(default=0, ge=0, le=3600)
    """0: no turn timer. Otherwise a seat that does not act in time has a move played for it."""
    grace_seconds: float = Field(default=60.0, ge=0, le=3600)
    """How long a player may be away before a bot takes the seat (until they come back)."""
    name: Name = Field(default="Host", min_length=1, max_length=MAX_NAME)
    seat: int = Field(default=0, ge=0, le=11)
    public: bool = False
    """Listed among the open rooms (``GET /api/rooms?open=1``); otherwise reachable by code only."""
    hints: bool = False
    """Players may ask for a hint (the strongest bot's play); only in rooms with a bot."""
    against: str | None = Field(default=None, max_length=32)
    """"Play a bot now": every other seat gets a bot of this level and the game starts at once."""
    start: bool = True
    """With ``against``: ``False`` leaves the room in its lobby for the host to start, so that the
    host's page, once connected, contributes its nonce to the deal (``docs/fairness.md``)."""
    clock_minutes: ClockMinutes = 0.0
    """Chess clocks (:mod:`.clocks`): each seat's base time in minutes; 0: no clocks."""
    clock_increment: int = Field(default=0, ge=0, le=MAX_INCREMENT)
    """Seconds added to a seat's clock when its turn is done."""
    clock_flag: Literal["bot", "loss"] = "bot"
    """When a seat's clock runs out: a bot plays the seat for the rest of the game, or its side loses."""
    rated: bool = False
    """The game counts for the players' ratings when every seat is a logged-in person (:mod:`.ratings`)."""


class HintRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    token: str = Field(min_length=1, max_length=128)


class JoinSeat(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: Name = Field(min_length=1, max_length=MAX_NAME)
