"""Commands: what each inbound message may do, checked against the room and the rules.

A handler validates (who may send it, in which phase, and what the engine says) and then hands the
event to the table's :meth:`Table.commit`; it never stores or sends anything itself. The manager
runs each handler holding the room's lock.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from ..cards import parse_card
from ..config import GameConfig
from ..errors import ConfigError, IllegalActionError
from ..i18n import N_
from ..state import GameState
from . import chat, events, fair_rooms, room_clocks
from .limits import Limits
from .protocol import (
    Act,
    CallTableTalk,
    Chat,
    Configure,
    Hint,
    Leave,
    Mute,
    Nonce,
    Ping,
    ProtocolError,
    Rematch,
    Rule,
    SetBot,
    Start,
)
from .room_state import Gathering, Room
from .seats import Connection, bot_seat


class Table(Protocol):
    """What a command (and the manager's turn loop and presence) needs of the room manager: its
    limits and the one way to change a room."""

    limits: Limits

    async def commit(
        self,
        room: Room,
        kind: str,
        seat: int | None,
        data: dict[str, Any],
        *,
        room_fields: dict[str, Any] | None = None,
        seat_changed: int | None = None,
        game_change: bool = False,
        after: GameState | None = None,
    ) -> dict[str, Any]: ...

    async def apply_action(
        self, room: Room, seat: int, action: int, card: int | None, auto: str = ""
    ) -> None: ...

    def save_mutes(self, room: Room, seat: int, muted: set[int]) -> None: ...

    def present_elsewhere(self, room: Room) -> set[int]: ...

    def tell_workers(self, room: Room, kind: str, **data: Any) -> None: ...


Handler = Callable[[Table, Room, Connection, Any], Awaitable[None]]


def seated(room: Room, conn: Connection) -> int:
    if conn.seat is None:
        raise ProtocolError("not_seated", N_("spectators may only watch"))
    return conn.seat


def host(room: Room, conn: Connection) -> None:
    if conn.seat != room.host_seat:
        raise ProtocolError("not_host", N_("only the host may do that (R6.2)"))


def lobby(room: Room) -> None:
    if room.status != "lobby":
        raise ProtocolError("started", N_("only possible before the game starts (R6.2)"))


def playing(room: Room) -> GameState:
    if room.status != "playing" or room.state is None:
        over = room.status == "over"
        raise ProtocolError("not_playing", N_("the game is over") if over else N_("the game has not started"))
    return room.state


async def on_ping(table: Table, room: Room, conn: Connection, msg: Ping) -> None:
    conn.send({"type": "pong", "version": room.version})


async def on_hint(table: Table, room: Room, conn: Connection, msg: Hint) -> None:
    """Never called: the manager answers hints itself, outside the room's lock."""
    raise ProtocolError("bad_message", N_("hint is answered by the room manager"))


async def on_act(table: Table, room: Room, conn: Connection, msg: Act) -> None:
    seat = seated(room, conn)
    state = playing(room)
    if msg.seat is not None and msg.seat != seat:
        raise ProtocolError(
            "wrong_seat",
            N_("this connection plays seat {seat}, not seat {asked}"),
            params={"seat": seat, "asked": msg.seat},
        )
    if room_clocks.is_flagged(room, seat):
        flagged = N_("your time ran out: a bot plays this seat for the rest of the game")
        raise ProtocolError("flag_fell", flagged)
    if msg.version > room.version:
        raise ProtocolError(
            "bad_version",
            N_("version {version} is ahead of the room ({room})"),
            params={"version": msg.version, "room": room.version},
        )
    if msg.version < room.game_version:
        raise ProtocolError(
            "stale",
            N_("the game changed at event {event}, after your version {version}; look again and resend"),
            params={"event": room.game_version, "version": msg.version},
        )
    if seat not in state.seats_to_act():
        acting = state.seats_to_act()
        raise ProtocolError(
            "not_your_turn",
            N_("it is not your turn: seat {seat} must act"),
            "R4.3",
            params={"seat": acting[0]},
        )
    if room.seats[seat].stand_in:
        raise ProtocolError("away", N_("a bot plays for this seat; reconnect to take it back"))
    card = None
    if msg.card is not None:
        try:
            card = parse_card(msg.card)
        except ValueError as exc:
            raise ProtocolError("bad_message", str(exc), plain=True) from None
    await table.apply_action(room, seat, msg.action, card)


async def on_chat(table: Table, room: Room, conn: Connection, msg: Chat) -> None:
    seat = seated(room, conn)
    text = chat.clean(msg.text)
    chat.admit(room, conn, table.limits)
    await table.commit(room, "chat", seat, {"text": text, "name": room.seats[seat].name})


async def on_mute(table: Table, room: Room, conn: Connection, msg: Mute) -> None:
    muted = chat.set_mute(room, conn, msg.seat, msg.mute)
    if conn.seat is not None:  # stored with the seat and told to each of its sockets, on any worker
        table.save_mutes(room, conn.seat, muted)
    else:
        conn.send({"type": "muted", "version": room.version, "seats": sorted(muted)})


async def on_call(table: Table, room: Room, conn: Connection, msg: CallTableTalk) -> None:
    seat = seated(room, conn)
    playing(room)
    cfg = room.game_config()
    if cfg.team_size < 2:
        raise ProtocolError(
            "illegal", N_("the table-talk penalty applies only to teams of two or more"), "R6.1"
        )
    if msg.side >= cfg.sides:
        raise ProtocolError("illegal", N_("no side {side} in this game"), "R6.1", params={"side": msg.side})
    if cfg.side_of(seat) == msg.side:
        raise ProtocolError("illegal", N_("only an opponent may call table talk"), "R6.1")
    if all(s.kind == "bot" for s in room.seats if cfg.side_of(s.index) == msg.side):
        # bots never talk at the table: a call against them would only let the host punish them
        raise ProtocolError("illegal", N_("a side of bots cannot talk at the table"), "R6.1")
    if any(c["side"] == msg.side for c in room.calls.values()):
        raise ProtocolError(
            "illegal",
            N_("a call against side {side} is already before the host"),
            "R6.2",
            params={"side": msg.side},
        )
    await table.commit(room, "call", seat, {"side": msg.side})


async def on_rule(table: Table, room: Room, conn: Connection, msg: Rule) -> None:
    host(room, conn)
    state = playing(room)
    call = room.calls.get(msg.call)
    if call is None:
        raise ProtocolError(
            "no_call", N_("no table-talk call {call} is waiting for a ruling"), params={"call": msg.call}
        )
    if msg.uphold:
        try:
            state.copy().call_table_talk(call["side"])
        except IllegalActionError as exc:
            raise events.refusal("illegal", exc) from None
    await table.commit(
        room,
        "rule",
        conn.seat,
        {"call": msg.call, "side": call["side"], "uphold": msg.uphold},
        game_change=True,
    )


async def on_bot(table: Table, room: Room, conn: Connection, msg: SetBot) -> None:
    host(room, conn)
    lobby(room)
    if msg.seat >= len(room.seats):
        raise ProtocolError(
            "bad_seat",
            N_("no seat {seat} at a table of {players}"),
            "R2.1",
            params={"seat": msg.seat, "players": len(room.seats)},
        )
    current = room.seats[msg.seat]
    if msg.level is None:
        if current.kind != "bot":
            raise ProtocolError("bad_seat", N_("seat {seat} holds no bot"), params={"seat": msg.seat})
        data: dict[str, Any] = {"seat": msg.seat, "kind": "empty"}
    else:
        data = bot_seat(msg.seat, msg.level)  # a level (easy .. expert) or a bot's name
        if current.kind == "human":
            raise ProtocolError(
                "seat_taken",
                N_("seat {seat} is taken by {name}"),
                params={"seat": msg.seat, "name": current.name},
            )
    await table.commit(room, "seat", msg.seat, data, seat_changed=msg.seat)


async def on_configure(table: Table, room: Room, conn: Connection, msg: Configure) -> None:
    host(room, conn)
    lobby(room)
    changes = {k: v for k, v in msg.model_dump(exclude={"type"}).items() if v is not None}
    if not changes:
        raise ProtocolError("bad_message", N_("nothing to change"))
    c = room.config
    try:
        GameConfig(
            players=c["players"],
            teams=changes.get("teams", c["teams"]),
            draw=changes.get("draw", c["draw"]),
        )
    except ConfigError as exc:
        raise events.refusal("bad_config", exc) from None
    await table.commit(room, "config", conn.seat, changes, room_fields={"config": {**c, **changes}})


async def on_start(table: Table, room: Room, conn: Connection, msg: Start) -> None:
    """Start a fair deal: ask the connected people for nonces, deal when all answered or in time."""
    host(room, conn)
    lobby(room)
    empty = [s.index for s in room.seats if s.kind == "empty"]
    if empty:
        raise ProtocolError(
            "seats_empty",
            N_("seat {seat} is empty: seat a player or a bot there (R2.1)"),
            params={"seat": empty[0]},
        )
    not_gathering(room)
    if room.fair_seed is None:  # a room created before fair deals
        await table.commit(room, "seed", conn.seat, fair_rooms.seed_event(len(room.seats)))
    # R4.1: a digital game may choose the first dealer and rotate the deal between games; the
    # dealer was drawn with the seed and is bound in its commitment, before any nonce is known
    await gather(table, room, fair_rooms.next_dealer(room))


def not_gathering(room: Room) -> None:
    if room.gathering is not None:
        raise ProtocolError("starting", N_("the deal is being made: waiting for the players' nonces"))


async def gather(table: Table, room: Room, dealer: int) -> None:
    """Ask every connected person for a nonce against the seed now committed; deal when the last
    one answers or after ``Limits.nonce_seconds``, with the nonces that came (bots, absent people
    and the late contribute none), so a start can never stall."""
    commit = fair_rooms.current_commitment(room)
    elsewhere = table.present_elsewhere(room)  # connected to another worker (as of its last tick)
    waiting = {
        s.index
        for s in room.seats
        if s.kind == "human" and (s.connections > 0 or s.index in elsewhere) and not s.stand_in
    }
    gathering = room.gathering = Gathering(commit, dealer, waiting)
    if not waiting:
        await finish_gathering(table, room)
        return
    seconds = table.limits.nonce_seconds
    ask = {"type": "nonce_request", "commitment": commit, "seconds": seconds, "version": room.version}
    for c in room.conns:
        if c.seat in waiting:
            c.send(ask)
    if waiting & elsewhere:  # the other workers ask their sockets and pass the nonces on
        table.tell_workers(
            room, "ask", commitment=commit, dealer=dealer, seconds=seconds, waiting=sorted(waiting)
        )
    if room.timer_task is not None:
        room.timer_task.cancel()
    room.timer_task = asyncio.create_task(_gathering_deadline(table, room, gathering, seconds))


async def _gathering_deadline(table: Table, room: Room, gathering: Gathering, seconds: float) -> None:
    await asyncio.sleep(seconds)
    async with room.lock:
        if room.timer_task is asyncio.current_task():
            room.timer_task = None
        if room.gathering is gathering and not room.evicted:
            await finish_gathering(table, room)


async def finish_gathering(table: Table, room: Room) -> None:
    """Deal the fair game from the committed seed and the nonces gathered. Holds ``room.lock``."""
    gathering, room.gathering = room.gathering, None
    if gathering is None:
        return
    task = room.timer_task
    if task is not None and task is not asyncio.current_task():
        task.cancel()
        room.timer_task = None
    if room.status not in ("lobby", "over") or any(s.kind == "empty" for s in room.seats):
        return  # the table changed meanwhile: the host starts again
    nonces = [(seat, n) for seat, n in sorted(gathering.nonces.items()) if room.seats[seat].kind == "human"]
    data = fair_rooms.start_data(room, gathering.dealer, nonces)
    await table.commit(
        room, "start", room.host_seat, data, room_fields={"status": "playing", "game": data}, game_change=True
    )


async def on_nonce(table: Table, room: Room, conn: Connection, msg: Nonce) -> None:
    seat = seated(room, conn)
    gathering = room.gathering
    if gathering is None or gathering.commitment != msg.commitment:
        raise ProtocolError("no_deal", N_("no deal is waiting for a nonce against that commitment"))
    if seat not in gathering.waiting:
        raise ProtocolError(
            "no_deal", N_("seat {seat} was not asked for a nonce, or has given one"), params={"seat": seat}
        )
    gathering.waiting.discard(seat)
    gathering.nonces[seat] = msg.nonce
    if gathering.remote:  # the worker that got the start deals: pass the nonce on
        table.tell_workers(room, "nonce", commitment=msg.commitment, seat=seat, nonce=msg.nonce)
    elif not gathering.waiting:
        await finish_gathering(table, room)


def remote_gathering(table: Table, room: Room, note: dict[str, Any]) -> None:
    """Another worker started a deal and waits for nonces (its note ``ask``): ask this worker's
    sockets on the waiting seats, and take their nonces (:func:`on_nonce` passes them on) until
    the deal's ``start`` event arrives, or ``seconds`` after which it deals without them.
    Holds ``room.lock``."""
    if room.status not in ("lobby", "over") or (room.gathering is not None and not room.gathering.remote):
        return
    seconds = float(note["seconds"])
    waiting = {int(s) for s in note["waiting"]}
    gathering = room.gathering = Gathering(str(note["commitment"]), int(note["dealer"]), waiting, remote=True)
    ask = {
        "type": "nonce_request",
        "commitment": gathering.commitment,
        "seconds": seconds,
        "version": room.version,
    }
    for c in room.conns:
        if c.seat in waiting:
            c.send(ask)
    task = asyncio.create_task(_remote_gathering_ends(room, gathering, seconds + 2))
    _REMOTE_ENDS.add(task)
    task.add_done_callback(_REMOTE_ENDS.discard)


_REMOTE_ENDS: set[asyncio.Task[None]] = set()
"""The timers that forget another worker's gathering (kept referenced until they run)."""


async def _remote_gathering_ends(room: Room, gathering: Gathering, seconds: float) -> None:
    """Forget another worker's gathering once its deadline has passed (its ``start`` usually came
    first; without one, the table changed there and the host starts again)."""
    await asyncio.sleep(seconds)
    async with room.lock:
        if room.gathering is gathering:
            room.gathering = None


async def take_remote_nonce(table: Table, room: Room, note: dict[str, Any]) -> None:
    """A nonce given on another worker for this worker's gathering. Holds ``room.lock``."""
    gathering = room.gathering
    seat = int(note["seat"])
    if gathering is None or gathering.remote or gathering.commitment != note["commitment"]:
        return
    if seat not in gathering.waiting:
        return  # given here first (a seat with sockets on two workers), or never asked
    gathering.waiting.discard(seat)
    gathering.nonces[seat] = str(note["nonce"])
    if not gathering.waiting:
        await finish_gathering(table, room)


async def on_rematch(table: Table, room: Room, conn: Connection, msg: Rematch) -> None:
    """A new deal in the same room and seats, the dealer passed on to the left (R4.1)."""
    host(room, conn)
    if room.status != "over" or room.state is None:
        raise ProtocolError("not_over", N_("a rematch is possible once the game is over"))
    not_gathering(room)
    dealer = (room.state.dealer + 1) % len(room.seats)
    if not msg.swap:
        await table.commit(room, "seed", conn.seat, fair_rooms.seed_event(len(room.seats), dealer))
        await gather(table, room, dealer)
        return
    if room.sides != 2:
        raise ProtocolError(
            "not_two_sides",
            N_("same cards with the sides exchanged needs exactly two sides; this game has {sides}"),
            params={"sides": room.sides},
        )
    # two sides: the same deck dealt by the next seat gives every hand, and the first turn, to the
    # other side (R4.2, R4.3), so each side gets the cards the other side had
    data = fair_rooms.start_data(room, dealer, [], swap_of=len(room.records) - 1)
    await table.commit(
        room, "start", conn.seat, data, room_fields={"status": "playing", "game": data}, game_change=True
    )


async def on_leave(table: Table, room: Room, conn: Connection, msg: Leave) -> None:
    seat = seated(room, conn)
    if room.status == "lobby":
        if seat == room.host_seat:
            raise ProtocolError("not_allowed", N_("the host cannot leave the lobby; close the room instead"))
        # the seat is emptied and every socket on it (this one included) watches from now on
        await table.commit(room, "seat", seat, {"seat": seat, "kind": "empty"}, seat_changed=seat)
    elif room.status == "playing" and not room.seats[seat].stand_in:
        await table.commit(room, "away", seat, {"seat": seat}, game_change=True)


#: The handler of each inbound message type (``hello`` is the socket's, before any of these).
HANDLERS: dict[type, Handler] = {
    Act: on_act,
    Chat: on_chat,
    Mute: on_mute,
    CallTableTalk: on_call,
    Rule: on_rule,
    SetBot: on_bot,
    Configure: on_configure,
    Start: on_start,
    Nonce: on_nonce,
    Rematch: on_rematch,
    Leave: on_leave,
    Ping: on_ping,
    Hint: on_hint,
}
