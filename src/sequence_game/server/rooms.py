"""Rooms: seats, the host, one authoritative game each, bots and timers, over the store.

Every change follows one path: validate against the engine (on a copy), commit the event to the
store, then fold it into memory with :func:`fold` (the same function rebuilds a room from its
stored events after a restart) and send each connection what it may see. One ``asyncio.Lock``
per room serialises all of it, so two commands can never interleave.

What reaches a connection is built per recipient: a seat gets ``state.view(seat)`` (its own hand
only), a spectator :func:`public_view` (no hand, no legal actions). Public events name only cards
that became public (a card played or discarded face up, R5.2).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import random
import secrets
import string
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any

from ..actions import DEAD, DISCARD, DRAW, Action
from ..bots import BOTS, LEVELS, Bot, Limit, make_bot
from ..cards import card_name, parse_card
from ..config import GameConfig
from ..errors import ConfigError, IllegalActionError
from ..records import write_record
from ..state import EV_LOST_DRAW, EV_PASS, EV_RESHUFFLE, GameState, new_game
from .protocol import (
    Act,
    CallTableTalk,
    Chat,
    Configure,
    CreateRoom,
    Hello,
    Leave,
    Ping,
    ProtocolError,
    Rule,
    SetBot,
    Start,
)
from .store import EventRow, RoomRow, SeatRow, Store

CODE_ALPHABET = "".join(c for c in string.ascii_uppercase if c not in "IO") + "23456789"
CODE_LENGTH = 6
#: Events that change the game itself: a command sent against an older one is stale.
GAME_EVENTS = frozenset({"start", "action", "rule", "config"})


def hash_token(token: str) -> str:
    """Tokens are stored only as SHA-256 digests: a leaked database seats nobody."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Seat:
    index: int
    kind: str = "empty"
    """``empty``, ``human`` or ``bot``."""
    name: str = ""
    token_hash: str | None = None
    bot_level: str | None = None
    stand_in: bool = False
    """A bot plays for the absent human until they come back."""
    connections: int = 0
    grace_task: asyncio.Task[None] | None = None

    def row(self) -> SeatRow:
        return SeatRow(self.index, self.kind, self.name, self.token_hash, self.bot_level)

    def public(self, sides: int) -> dict[str, Any]:
        return {
            "seat": self.index,
            "side": self.index % sides,
            "kind": self.kind,
            "name": self.name,
            "bot_level": self.bot_level,
            "connected": self.connections > 0,
            "stand_in": self.stand_in,
        }


@dataclass(eq=False)
class Connection:
    """One websocket: its seat (``None`` for a spectator) and a queue its writer task drains."""

    seat: int | None = None
    queue: asyncio.Queue[dict[str, Any] | None] = field(default_factory=asyncio.Queue)
    authed: bool = False

    def send(self, message: dict[str, Any]) -> None:
        self.queue.put_nowait(message)


@dataclass(eq=False)
class Room:
    code: str
    config: dict[str, Any]
    host_seat: int
    seats: list[Seat]
    status: str = "lobby"
    version: int = 0
    game_version: int = 0
    game: dict[str, Any] | None = None
    state: GameState | None = None
    chat: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=200))
    log: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=300))
    calls: dict[int, dict[str, Any]] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    conns: set[Connection] = field(default_factory=set)
    bots: dict[int, Bot] = field(default_factory=dict)
    bot_task: asyncio.Task[None] | None = None
    timer_task: asyncio.Task[None] | None = None
    deadline: float | None = None

    def game_config(self) -> GameConfig:
        c = self.config
        return GameConfig(players=c["players"], teams=c.get("teams"), draw=c.get("draw", "auto"))

    @property
    def sides(self) -> int:
        return self.game_config().sides

    def bot_controls(self, seat: int) -> bool:
        s = self.seats[seat]
        return s.kind == "bot" or (s.kind == "human" and s.stand_in)

    def public(self) -> dict[str, Any]:
        """Everything about the room that anyone, spectators included, may know."""
        state = self.state
        outcome = state.outcome() if state else None
        return {
            "code": self.code,
            "status": self.status,
            "config": dict(self.config),
            "host_seat": self.host_seat,
            "version": self.version,
            "game_version": self.game_version,
            "seats": [s.public(self.sides) for s in self.seats],
            "calls": [{"id": n, **c} for n, c in self.calls.items()],
            "deadline": self.deadline,
            "bots": list(BOTS),
            "levels": {name: level for level, name in LEVELS.items()},
            "result": None
            if outcome is None
            else {
                "winner": outcome.winner,
                "sequences": list(outcome.sequences),
                "end": outcome.termination.value,
            },
        }


def public_view(state: GameState) -> dict[str, Any]:
    """A spectator's view: a seat's view with every trace of that seat's hand removed."""
    view = state.view(0).to_dict()
    del view["hand"], view["legal_actions"]
    view["seat"] = view["side"] = None
    return view


def seat_view(state: GameState, seat: int) -> dict[str, Any]:
    return state.view(seat).to_dict()


def action_text(action: int, card: int | None) -> str:
    """The notation of an action with the card really played (a jc, not the default jd)."""
    decoded = Action.decode(action)
    if card is not None and decoded.kind in ("wild", "remove"):
        decoded = replace(decoded, card=card)
    return str(decoded)


def played_card(before: int, state: GameState) -> int | None:
    """The card of the action entry appended since history length ``before``."""
    for event in state.history[before:]:
        if event[0] >= 0:
            card = event[2]
            return card if card >= 0 else None
    return None


def public_notes(entries: list[tuple[Any, ...]]) -> list[str]:
    """Engine table events, in words, with nothing hidden (a reshuffle shows only its size)."""
    notes = []
    for e in entries:
        if e[0] == EV_PASS:
            notes.append(f"seat {e[1]} passes with an empty hand (R5.5)")
        elif e[0] == EV_LOST_DRAW:
            notes.append(f"seat {e[1]} loses a draw (R5.3)")
        elif e[0] == EV_RESHUFFLE:
            notes.append(f"the discard piles are shuffled into a new draw pile of {len(e[1])} cards (R5.4)")
    return notes


def fold(room: Room, ev: EventRow) -> dict[str, Any]:
    """Apply a committed event to the room in memory; returns its public form.

    Used live after each commit and to rebuild a room from the store, so both always agree.
    """
    kind, d = ev.kind, ev.data
    public: dict[str, Any] = {"n": ev.n, "kind": kind, "seat": ev.seat}
    if kind == "seat":
        s = room.seats[d["seat"]]
        s.kind, s.name = d["kind"], d.get("name", "")
        s.token_hash, s.bot_level = d.get("token_hash"), d.get("bot_level")
        s.stand_in = False
        room.bots.pop(s.index, None)
        public.update(seat=s.index, text=_seat_text(s))
    elif kind == "config":
        room.config.update(d)
        public["text"] = "house rules: " + ", ".join(f"{k} {v}" for k, v in d.items())
    elif kind == "start":
        state = new_game(room.game_config(), seed=d["seed"])
        if [card_name(c) for c in state.initial_deck] != d["deck"] or state.dealer != d["dealer"]:
            raise RuntimeError(f"room {room.code}: the stored deal does not match its seed")
        room.state, room.game, room.status = state, d, "playing"
        public["text"] = f"seat {state.dealer} deals (R4.1); seat {state.current_seat} starts (R4.3)"
    elif kind == "action":
        state = _need_state(room)
        before = len(state.history)
        card = parse_card(d["card"]) if d.get("card") else None
        state.apply(d["action"], ev.seat, card=card)
        text = f"seat {ev.seat}: {action_text(d['action'], card)}"
        if d.get("auto"):
            text += f" (played by the server: {d['auto']})"
        public.update(action=action_text(d["action"], card), text=text)
        public["notes"] = public_notes(state.history[before:])
        _check_over(room, public)
    elif kind == "call":
        room.calls[ev.n] = {"by": ev.seat, "side": d["side"]}
        public.update(side=d["side"], text=f"seat {ev.seat} calls table talk against side {d['side']} (R6.1)")
    elif kind == "rule":
        call = room.calls.pop(d["call"], None)
        side = d["side"]
        if d["uphold"]:
            _need_state(room).call_table_talk(side)
            public["text"] = f"the host upholds the call: each player of side {side} discards a card (R6.1)"
        else:
            public["text"] = f"the host dismisses the call against side {side} (R6.2)"
        public.update(call=d["call"], side=side, uphold=d["uphold"], by=call and call["by"])
    elif kind == "chat":
        line = {"n": ev.n, "seat": ev.seat, "name": d.get("name", ""), "text": d["text"]}
        room.chat.append(line)
        public.update(chat=line)
    elif kind == "away":
        room.seats[d["seat"]].stand_in = True
        public.update(seat=d["seat"], text=f"seat {d['seat']} is away: a bot plays for them")
    elif kind == "back":
        room.seats[d["seat"]].stand_in = False
        public.update(seat=d["seat"], text=f"seat {d['seat']} is back")
    else:
        raise RuntimeError(f"unknown event kind {kind!r}")
    room.version = ev.n
    if kind in GAME_EVENTS or (kind == "rule" and d["uphold"]):
        room.game_version = ev.n
    if kind != "chat":
        room.log.append(public)
    return public


def _need_state(room: Room) -> GameState:
    if room.state is None:
        raise RuntimeError(f"room {room.code}: no game in progress")
    return room.state


def _check_over(room: Room, public: dict[str, Any]) -> None:
    outcome = room.state.outcome() if room.state else None
    if outcome is not None:
        room.status = "over"
        room.calls.clear()
        if outcome.winner is None:
            public["notes"].append("the game is drawn: a full round without a play (R7.2)")
        else:
            public["notes"].append(f"side {outcome.winner} wins (R7.1)")


def _seat_text(s: Seat) -> str:
    if s.kind == "empty":
        return f"seat {s.index} is free"
    if s.kind == "bot":
        return f"seat {s.index}: bot ({s.bot_level})"
    return f"seat {s.index}: {s.name}"


def rebuild(row: RoomRow) -> Room:
    """A room as it stood at its last committed event (after a restart)."""
    config = dict(row.config)
    room = Room(row.code, config, row.host_seat, [Seat(i) for i in range(config["players"])])
    for ev in row.events:
        fold(room, ev)
    if room.version != row.version:
        raise RuntimeError(f"room {row.code}: event log ends at {room.version}, room row says {row.version}")
    return room


Handler = Callable[[Room, Connection, Any], Awaitable[None]]


class RoomManager:
    """All rooms of one server: creates and loads them, runs their commands, bots and timers."""

    def __init__(
        self,
        store: Store,
        *,
        bot_seconds: float = 1.0,
        bot_delay: float = 0.6,
        stand_in_level: str = "random",
    ) -> None:
        self.store = store
        self.bot_seconds = bot_seconds
        self.bot_delay = bot_delay
        self.stand_in_level = stand_in_level
        self.rooms: dict[str, Room] = {}
        self._load_lock = asyncio.Lock()
        self._rng = random.Random(secrets.randbits(64))
        self.handlers: dict[type, Handler] = {
            Act: self._on_act,
            Chat: self._on_chat,
            CallTableTalk: self._on_call,
            Rule: self._on_rule,
            SetBot: self._on_bot,
            Configure: self._on_configure,
            Start: self._on_start,
            Leave: self._on_leave,
            Ping: self._on_ping,
        }

    # ------------------------------------------------------------------ rooms

    async def create(self, body: CreateRoom) -> tuple[Room, str]:
        """A new room with its creator in ``body.seat`` as the host; returns the host's token."""
        try:
            cfg = GameConfig(players=body.players, teams=body.teams, draw=body.draw)
        except ConfigError as exc:
            raise ProtocolError("bad_config", exc.message, exc.rule) from None
        if body.seat >= cfg.players:
            raise ProtocolError("bad_seat", f"no seat {body.seat} at a table of {cfg.players}", "R2.1")
        config = {
            "players": cfg.players,
            "teams": cfg.sides,
            "draw": cfg.draw,
            "turn_seconds": body.turn_seconds,
            "grace_seconds": body.grace_seconds,
        }
        async with self._load_lock:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            while code in self.rooms or self.store.room_exists(code):
                code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            self.store.create_room(code, config, body.seat)
            room = Room(code, config, body.seat, [Seat(i) for i in range(cfg.players)])
            self.rooms[code] = room
        token = await self.take_seat(room, body.seat, body.name)
        return room, token

    async def get(self, code: str) -> Room | None:
        """The room with ``code``, loaded from the store (and its bots and timers resumed) if need be."""
        if not isinstance(code, str) or len(code) > 16:
            return None
        code = code.upper()
        room = self.rooms.get(code)
        if room is not None:
            return room
        async with self._load_lock:
            room = self.rooms.get(code)
            if room is None:
                row = self.store.load_room(code)
                if row is None:
                    return None
                room = rebuild(row)
                self.rooms[code] = room
                async with room.lock:
                    if room.status == "playing":
                        for seat in room.seats:
                            if seat.kind == "human" and not seat.stand_in:
                                self._start_grace(room, seat)
                    self._after_game_change(room)
        return room

    async def take_seat(self, room: Room, seat: int, name: str) -> str:
        """Sit a human in an empty seat of a room still in its lobby; returns the seat's token."""
        async with room.lock:
            if room.status != "lobby":
                raise ProtocolError("started", "the game has started: seats can no longer be taken; watch it")
            if not 0 <= seat < len(room.seats):
                raise ProtocolError("bad_seat", f"no seat {seat} at a table of {len(room.seats)}", "R2.1")
            if room.seats[seat].kind != "empty":
                raise ProtocolError("seat_taken", f"seat {seat} is taken")
            token = secrets.token_urlsafe(24)
            data = {"seat": seat, "kind": "human", "name": name.strip() or f"Player {seat}"}
            data["token_hash"] = hash_token(token)
            self._commit(room, "seat", seat, data, seat_changed=seat)
            return token

    async def shutdown(self) -> None:
        tasks: list[asyncio.Task[None]] = []
        for room in self.rooms.values():
            tasks += [t for t in (room.bot_task, room.timer_task) if t]
            tasks += [s.grace_task for s in room.seats if s.grace_task]
            for conn in room.conns:
                conn.queue.put_nowait(None)
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t

    # ------------------------------------------------------------ committing

    def _commit(
        self,
        room: Room,
        kind: str,
        seat: int | None,
        data: dict[str, Any],
        *,
        room_fields: dict[str, Any] | None = None,
        seat_changed: int | None = None,
        game_change: bool = False,
    ) -> dict[str, Any]:
        """Store the event, then fold it in and tell everyone. Caller holds ``room.lock``.

        ``game_change``: the event moves the game on, so the bots are woken and the turn timer is
        armed before the message goes out, which then carries the new deadline."""
        ev = EventRow(room.version + 1, kind, seat, data)
        fields = dict(room_fields or {})
        seat_rows = None
        if seat_changed is not None:
            preview = Seat(seat_changed, data["kind"], data.get("name", ""), data.get("token_hash"))
            preview.bot_level = data.get("bot_level")
            seat_rows = [preview.row()]
        if kind == "action":
            trial = _need_state(room).copy()
            trial.apply(data["action"], seat, card=parse_card(data["card"]) if data.get("card") else None)
            outcome = trial.outcome()
            if outcome is not None:
                fields.update(
                    status="over",
                    result={
                        "winner": outcome.winner,
                        "sequences": list(outcome.sequences),
                        "end": outcome.termination.value,
                    },
                )
        self.store.commit(room.code, ev, room=fields or None, seat_rows=seat_rows)
        public = fold(room, ev)
        if game_change:
            self._after_game_change(room)
        self._broadcast(room, public)
        return public

    def _broadcast(self, room: Room, public: dict[str, Any]) -> None:
        if public["kind"] == "chat":
            msg = {"type": "chat", "version": room.version, "chat": public["chat"]}
            for conn in room.conns:
                conn.send(msg)
            return
        info = room.public()
        for conn in room.conns:
            conn.send(self._state_message(room, conn, info, public))

    def _state_message(
        self, room: Room, conn: Connection, info: dict[str, Any], event: dict[str, Any] | None
    ) -> dict[str, Any]:
        view = None
        if room.state is not None:
            view = public_view(room.state) if conn.seat is None else seat_view(room.state, conn.seat)
        return {
            "type": "state",
            "version": room.version,
            "you": {"seat": conn.seat, "host": conn.seat is not None and conn.seat == room.host_seat},
            "room": info,
            "view": view,
            "event": event,
        }

    # ------------------------------------------------------------ connections

    async def connect(self, room: Room, conn: Connection, hello: Hello) -> None:
        """Authenticate a socket by its seat token (or none: a spectator) and send a full snapshot."""
        async with room.lock:
            seat = None
            if hello.token is not None:
                digest = hash_token(hello.token)
                for s in room.seats:
                    if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
                        seat = s
                if seat is None:
                    raise ProtocolError("bad_token", "this token holds no seat in this room")
            if seat is not None:
                if seat.grace_task is not None:
                    seat.grace_task.cancel()
                    seat.grace_task = None
                if seat.stand_in and room.status == "playing":
                    self._commit(room, "back", seat.index, {"seat": seat.index}, game_change=True)
                seat.connections += 1
            conn.seat = seat.index if seat else None
            conn.authed = True
            room.conns.add(conn)
            welcome = self._state_message(room, conn, room.public(), None)
            welcome.update(type="welcome", chat=list(room.chat), log=list(room.log)[-100:])
            conn.send(welcome)

    async def disconnect(self, room: Room, conn: Connection) -> None:
        async with room.lock:
            if conn not in room.conns:
                return
            room.conns.discard(conn)
            if conn.seat is None:
                return
            seat = room.seats[conn.seat]
            seat.connections -= 1
            if seat.connections == 0 and seat.kind == "human" and room.status == "playing":
                self._start_grace(room, seat)

    def _start_grace(self, room: Room, seat: Seat) -> None:
        """R-free table rule: a player away longer than the grace period is replaced by a bot."""
        if seat.grace_task is not None:
            seat.grace_task.cancel()
        seat.grace_task = asyncio.create_task(self._grace(room, seat, float(room.config["grace_seconds"])))

    async def _grace(self, room: Room, seat: Seat, delay: float) -> None:
        await asyncio.sleep(delay)
        async with room.lock:
            seat.grace_task = None
            if (
                seat.connections == 0
                and seat.kind == "human"
                and not seat.stand_in
                and room.status == "playing"
            ):
                self._commit(room, "away", seat.index, {"seat": seat.index}, game_change=True)

    # ------------------------------------------------------------ commands

    async def handle(self, room: Room, conn: Connection, msg: Any) -> None:
        handler = self.handlers.get(type(msg))
        if handler is None:
            raise ProtocolError("bad_message", f"{msg.type!r} is only valid as the first message")
        if isinstance(msg, Ping):
            await handler(room, conn, msg)
            return
        async with room.lock:
            await handler(room, conn, msg)

    def _seated(self, room: Room, conn: Connection) -> int:
        if conn.seat is None:
            raise ProtocolError("not_seated", "spectators may only watch")
        return conn.seat

    def _host(self, room: Room, conn: Connection) -> None:
        if conn.seat != room.host_seat:
            raise ProtocolError("not_host", "only the host may do that (R6.2)")

    def _lobby(self, room: Room) -> None:
        if room.status != "lobby":
            raise ProtocolError("started", "only possible before the game starts (R6.2)")

    def _playing(self, room: Room) -> GameState:
        if room.status != "playing" or room.state is None:
            over = room.status == "over"
            raise ProtocolError("not_playing", "the game is over" if over else "the game has not started")
        return room.state

    async def _on_ping(self, room: Room, conn: Connection, msg: Ping) -> None:
        conn.send({"type": "pong", "version": room.version})

    async def _on_act(self, room: Room, conn: Connection, msg: Act) -> None:
        seat = self._seated(room, conn)
        state = self._playing(room)
        if msg.seat is not None and msg.seat != seat:
            raise ProtocolError("wrong_seat", f"this connection plays seat {seat}, not seat {msg.seat}")
        if msg.version > room.version:
            raise ProtocolError("bad_version", f"version {msg.version} is ahead of the room ({room.version})")
        if msg.version < room.game_version:
            raise ProtocolError(
                "stale",
                f"the game changed at event {room.game_version}, after your version {msg.version}; "
                "look again and resend",
            )
        if seat not in state.seats_to_act():
            acting = state.seats_to_act()
            raise ProtocolError("not_your_turn", f"it is not your turn: seat {acting[0]} must act", "R4.3")
        if room.seats[seat].stand_in:
            raise ProtocolError("away", "a bot plays for this seat; reconnect to take it back")
        card = None
        if msg.card is not None:
            try:
                card = parse_card(msg.card)
            except ValueError as exc:
                raise ProtocolError("bad_message", str(exc)) from None
        self._apply_action(room, seat, msg.action, card)

    def _apply_action(self, room: Room, seat: int, action: int, card: int | None, auto: str = "") -> None:
        state = _need_state(room)
        trial = state.copy()
        before = len(trial.history)
        try:
            trial.apply(action, seat, card=card)
        except IllegalActionError as exc:
            raise ProtocolError("illegal", exc.message, exc.rule) from None
        used = played_card(before, trial)
        data: dict[str, Any] = {"action": action, "card": card_name(used) if used is not None else None}
        if auto:
            data["auto"] = auto
        self._commit(room, "action", seat, data, game_change=True)

    async def _on_chat(self, room: Room, conn: Connection, msg: Chat) -> None:
        seat = self._seated(room, conn)
        text = " ".join(msg.text.split())
        if not text:
            raise ProtocolError("bad_message", "an empty chat line")
        self._commit(room, "chat", seat, {"text": text, "name": room.seats[seat].name})

    async def _on_call(self, room: Room, conn: Connection, msg: CallTableTalk) -> None:
        seat = self._seated(room, conn)
        self._playing(room)
        cfg = room.game_config()
        if cfg.team_size < 2:
            raise ProtocolError(
                "illegal", "the table-talk penalty applies only to teams of two or more", "R6.1"
            )
        if msg.side >= cfg.sides:
            raise ProtocolError("illegal", f"no side {msg.side} in this game", "R6.1")
        if cfg.side_of(seat) == msg.side:
            raise ProtocolError("illegal", "only an opponent may call table talk", "R6.1")
        if any(c["side"] == msg.side for c in room.calls.values()):
            raise ProtocolError(
                "illegal", f"a call against side {msg.side} is already before the host", "R6.2"
            )
        self._commit(room, "call", seat, {"side": msg.side})

    async def _on_rule(self, room: Room, conn: Connection, msg: Rule) -> None:
        self._host(room, conn)
        state = self._playing(room)
        call = room.calls.get(msg.call)
        if call is None:
            raise ProtocolError("no_call", f"no table-talk call {msg.call} is waiting for a ruling")
        if msg.uphold:
            try:
                state.copy().call_table_talk(call["side"])
            except IllegalActionError as exc:
                raise ProtocolError("illegal", exc.message, exc.rule) from None
        self._commit(
            room,
            "rule",
            conn.seat,
            {"call": msg.call, "side": call["side"], "uphold": msg.uphold},
            game_change=True,
        )

    async def _on_bot(self, room: Room, conn: Connection, msg: SetBot) -> None:
        self._host(room, conn)
        self._lobby(room)
        if msg.seat >= len(room.seats):
            raise ProtocolError("bad_seat", f"no seat {msg.seat} at a table of {len(room.seats)}", "R2.1")
        current = room.seats[msg.seat]
        if msg.level is None:
            if current.kind != "bot":
                raise ProtocolError("bad_seat", f"seat {msg.seat} holds no bot")
            data: dict[str, Any] = {"seat": msg.seat, "kind": "empty"}
        else:
            if msg.level not in BOTS:
                raise ProtocolError("bad_bot", f"unknown bot {msg.level!r}; choose from {', '.join(BOTS)}")
            if current.kind == "human":
                raise ProtocolError("seat_taken", f"seat {msg.seat} is taken by {current.name}")
            data = {"seat": msg.seat, "kind": "bot", "name": f"{msg.level} bot", "bot_level": msg.level}
        self._commit(room, "seat", msg.seat, data, seat_changed=msg.seat)

    async def _on_configure(self, room: Room, conn: Connection, msg: Configure) -> None:
        self._host(room, conn)
        self._lobby(room)
        changes = {k: v for k, v in msg.model_dump(exclude={"type"}).items() if v is not None}
        if not changes:
            raise ProtocolError("bad_message", "nothing to change")
        c = room.config
        try:
            GameConfig(
                players=c["players"],
                teams=changes.get("teams", c["teams"]),
                draw=changes.get("draw", c["draw"]),
            )
        except ConfigError as exc:
            raise ProtocolError("bad_config", exc.message, exc.rule) from None
        self._commit(room, "config", conn.seat, changes, room_fields={"config": {**c, **changes}})

    async def _on_start(self, room: Room, conn: Connection, msg: Start) -> None:
        self._host(room, conn)
        self._lobby(room)
        empty = [s.index for s in room.seats if s.kind == "empty"]
        if empty:
            raise ProtocolError(
                "seats_empty", f"seat {empty[0]} is empty: seat a player or a bot there (R2.1)"
            )
        seed = secrets.randbits(63)
        state = new_game(room.game_config(), seed=seed)
        data = {"seed": seed, "dealer": state.dealer, "deck": [card_name(c) for c in state.initial_deck]}
        self._commit(
            room, "start", conn.seat, data, room_fields={"status": "playing", "game": data}, game_change=True
        )

    async def _on_leave(self, room: Room, conn: Connection, msg: Leave) -> None:
        seat = self._seated(room, conn)
        if room.status == "lobby":
            if seat == room.host_seat:
                raise ProtocolError("not_allowed", "the host cannot leave the lobby; close the room instead")
            self._commit(room, "seat", seat, {"seat": seat, "kind": "empty"}, seat_changed=seat)
            conn.seat = None
        elif room.status == "playing" and not room.seats[seat].stand_in:
            self._commit(room, "away", seat, {"seat": seat}, game_change=True)

    # ------------------------------------------------------------ bots and timers

    def _after_game_change(self, room: Room) -> None:
        """Wake the bots if one must act, and arm the turn timer for a human. Holds ``room.lock``."""
        if room.timer_task is not None:
            room.timer_task.cancel()
            room.timer_task = None
        room.deadline = None
        state = room.state
        if state is None or room.status != "playing":
            return
        if room.bot_task is None and any(room.bot_controls(s) for s in state.seats_to_act()):
            room.bot_task = asyncio.create_task(self._drive_bots(room))
        seconds = room.config.get("turn_seconds") or 0
        actor = state.current_seat
        if seconds > 0 and not room.bot_controls(actor):
            room.deadline = time.time() + seconds
            room.timer_task = asyncio.create_task(self._turn_timer(room, room.game_version, actor, seconds))

    def _bot(self, room: Room, seat: int) -> Bot:
        bot = room.bots.get(seat)
        if bot is None:
            s = room.seats[seat]
            level = s.bot_level if s.kind == "bot" and s.bot_level else self.stand_in_level
            try:
                bot = make_bot(level if level in BOTS else "random", seed=self._rng.getrandbits(32))
            except Exception:  # noqa: BLE001 - a bot that cannot be built must not stop the game
                bot = make_bot("random", seed=self._rng.getrandbits(32))
            room.bots[seat] = bot
        return bot

    async def _drive_bots(self, room: Room) -> None:
        """Play for every bot-controlled seat that must act, thinking off the event loop."""
        try:
            while True:
                async with room.lock:
                    state = room.state
                    actors = [] if state is None or room.status != "playing" else state.seats_to_act()
                    seat = next((s for s in actors if room.bot_controls(s)), None)
                    if seat is None or state is None:
                        room.bot_task = None
                        return
                    view = state.view(seat)
                    version = room.game_version
                    bot = self._bot(room, seat)
                if self.bot_delay:
                    await asyncio.sleep(self.bot_delay)
                action = await self._think(bot, view)
                async with room.lock:
                    if room.game_version != version or room.state is None or room.status != "playing":
                        continue
                    if action not in room.state.legal_actions(seat):
                        legal = room.state.legal_actions(seat)
                        action = legal[self._rng.randrange(len(legal))]
                    self._apply_action(room, seat, action, None)
        except asyncio.CancelledError:
            raise
        except Exception:
            room.bot_task = None
            raise

    async def _think(self, bot: Bot, view: Any) -> int:
        limit = Limit(seconds=self.bot_seconds)
        try:
            return await asyncio.wait_for(
                asyncio.to_thread(bot.select_action, view, limit), timeout=self.bot_seconds * 3 + 1
            )
        except Exception:  # noqa: BLE001 - a slow or failing bot plays a random legal move instead
            legal = view.legal_actions
            return int(legal[self._rng.randrange(len(legal))])

    async def _turn_timer(self, room: Room, version: int, seat: int, seconds: float) -> None:
        await asyncio.sleep(seconds)
        async with room.lock:
            if room.timer_task is asyncio.current_task():
                room.timer_task = None
            state = room.state
            if state is None or room.game_version != version or room.status != "playing":
                return
            legal = state.legal_actions(seat)
            if not legal:
                return
            dead = [a for a in legal if DEAD <= a < DISCARD]
            plays = [a for a in legal if a < DEAD or a == DRAW]
            pool = dead or plays or legal
            pick = pool[self._rng.randrange(len(pool))]
            self._apply_action(room, seat, pick, None, auto="turn timer")


def record_of(room: Room) -> dict[str, Any]:
    """The game record (``RECORD.md``) of a finished game; never of one in progress."""
    if room.status != "over" or room.state is None:
        raise ProtocolError("in_progress", "a record is released only when the game is over")
    return write_record(room.state)
