"""How events change a room in memory, and what of it each recipient may see.

The room's shape is :class:`.room_state.Room` (re-exported here). Every change follows one path
(see :mod:`.manager`): validate against the engine (on a copy), commit the event to the store,
then fold it into memory with :func:`fold`; the same function rebuilds a room from its stored
events after a restart or an eviction, so both always agree.

What reaches a connection is built per recipient: a seat gets ``state.view(seat)`` (its own hand
only), a spectator :func:`public_view` (no hand, no legal actions). Public events name only cards
that became public (a card played or discarded face up, R5.2).
"""

from __future__ import annotations

import functools
import string
import time
from dataclasses import replace
from typing import Any

from ..actions import Action
from ..bots import available_bots, level_bots
from ..cards import card_name, parse_card
from ..state import GameState, new_game
from . import events, fair_rooms, room_clocks
from .room_state import Room
from .seats import Connection, Seat, hash_token
from .store import EventRow, RoomRow

__all__ = [
    "Connection",
    "Room",
    "Seat",
    "action_text",
    "fold",
    "hash_token",
    "public_view",
    "rebuild",
    "record_of",
    "room_public",
    "seat_view",
]

CODE_ALPHABET = "".join(c for c in string.ascii_uppercase if c not in "IO") + "23456789"
CODE_LENGTH = 6
"""A public room's code (listed in the lobby anyway): 32**6, about 2**30, short enough to type."""
PRIVATE_CODE_LENGTH = 10
"""A private room's code, all that keeps its table and chat from strangers: 32**10, about 2**50,
so guessing one (at ``guesses_per_minute`` an address) is hopeless. Codes of rooms made before
(6 letters) keep working: a code is looked up as it is, whatever its length (16 at most)."""
#: Events that change the game itself: a command sent against an older one is stale.
GAME_EVENTS = frozenset({"start", "action", "rule", "config", "flag"})


@functools.cache
def _offered_bots() -> tuple[str, ...]:
    """The bots this installation offers, looked up once: every room's public form (sent with
    every move) lists them, and each look-up searched the import path for the optional extras."""
    return available_bots()


@functools.cache
def _bots_public() -> list[str]:
    """:func:`_offered_bots` as the list every public form shares (read only: it is only encoded)."""
    return list(_offered_bots())


_LEVELS_PUBLIC = level_bots()
"""The levels people are offered, by bot name (shared by every public form, read only)."""


def room_public(room: Room) -> dict[str, Any]:
    """Everything about the room that anyone, spectators included, may know."""
    state = room.state
    outcome = state.outcome() if state else None
    sides = room.sides
    return {
        "code": room.code,
        "status": room.status,
        "config": dict(room.config),
        "host_seat": room.host_seat,
        "version": room.version,
        "game_version": room.game_version,
        "seats": [s.public(sides) for s in room.seats],
        "calls": [{"id": n, **c} for n, c in room.calls.items()],
        "deadline": room.deadline,
        "clocks": room_clocks.public(room, time.time()),
        "bot_seconds": round(room.bot_seconds, 3),
        "bots": _bots_public(),
        "levels": _LEVELS_PUBLIC,
        "result": room_clocks.result(room)
        if outcome is None
        else {
            "winner": outcome.winner,
            "sequences": list(outcome.sequences),
            "end": outcome.termination.value,
        },
        "fairness": fair_rooms.fairness_public(room),
        "match": fair_rooms.match_public(room),
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


def fold(room: Room, ev: EventRow) -> dict[str, Any]:
    """Apply a committed event to the room in memory; returns its public form.

    Used live after each commit and to rebuild a room from the store, so both always agree.
    """
    kind, d = ev.kind, ev.data
    public: dict[str, Any] = {"n": ev.n, "kind": kind, "seat": ev.seat}
    turn_done = False
    if kind == "seat":
        s = room.seats[d["seat"]]
        s.kind, s.name = d["kind"], d.get("name", "")
        s.token_hash, s.bot_level = d.get("token_hash"), d.get("bot_level")
        s.stand_in = False
        public.update(seat=s.index, **events.seat_fields(s.kind, s.name, s.bot_level))
    elif kind == "config":
        room.config.update(d)
        public["rules"] = dict(d)  # the house rules changed: {teams?, draw?, turn_seconds?, ...}
    elif kind == "seed":
        room.fair_seed, room.fair_dealer = bytes.fromhex(d["seed"]), d.get("dealer")
        public["commitment"] = fair_rooms.seed_commitment(d)  # the seed itself stays in the store
    elif kind == "start":
        if "fair" in d:
            state = fair_rooms.deal_game(room, d)
            public.update(commitment=d["commitment"], nonces=len(d["nonces"]), swap_of=d.get("swap_of"))
        else:  # a room started before fair deals: a plain seeded deal
            state = new_game(room.game_config(), seed=d["seed"])
            if [card_name(c) for c in state.initial_deck] != d["deck"] or state.dealer != d["dealer"]:
                raise RuntimeError(f"room {room.code}: the stored deal does not match its seed")
            room.deal = None
        room.state, room.game, room.status = state, d, "playing"
        room.calls.clear()
        public.update(dealer=state.dealer, first=state.current_seat)  # R4.1, R4.3
    elif kind == "action":
        state = need_state(room)
        before, to_play = len(state.history), state.seat_to_play
        made = events.sequence_counts(state)
        card = parse_card(d["card"]) if d.get("card") else None
        state.apply(d["action"], ev.seat, card=card)
        turn_done = to_play == ev.seat and state.seat_to_play != ev.seat
        public["action"] = action_text(d["action"], card)
        if d.get("auto"):
            public["auto"] = events.auto_code(d["auto"])
        public["notes"] = events.notes(state.history[before:])
        public["notes"] += events.sequence_notes(made, events.sequence_counts(state))
        _check_over(room, public)
        if d.get("verify") is not None:  # the committer's verification of the finished game
            room.verified = d["verify"]
    elif kind == "call":
        room.calls[ev.n] = {"by": ev.seat, "side": d["side"]}
        public["side"] = d["side"]  # R6.1
    elif kind == "rule":
        call = room.calls.pop(d["call"], None)
        side = d["side"]
        if d["uphold"]:
            need_state(room).call_table_talk(side)  # R6.1 (a dismissed call: R6.2)
        public.update(call=d["call"], side=side, uphold=d["uphold"], by=call and call["by"])
    elif kind == "chat":
        line = {"n": ev.n, "seat": ev.seat, "name": d.get("name", ""), "text": d["text"]}
        room.chat.append(line)
        room.chat_lines += 1
        public.update(chat=line)
    elif kind == "away":
        room.seats[d["seat"]].stand_in = True
        public["seat"] = d["seat"]
    elif kind == "back":
        room.seats[d["seat"]].stand_in = False
        public["seat"] = d["seat"]
    elif kind == "flag":
        room_clocks.fold_flag(room, d)  # a seat's clock ran out: {seat, on_flag, result}
        public.update(seat=d["seat"], on_flag=d["on_flag"], result=room_clocks.result(room))
    else:
        raise RuntimeError(f"unknown event kind {kind!r}")
    if "clock" in d and kind != "flag":  # the clocks as the event left them (its seat's turn done or not)
        room_clocks.fold_stamp(room, d["clock"], ev.seat, turn_done)
    room.version = ev.n
    if kind in GAME_EVENTS or (kind == "rule" and d["uphold"]):
        room.game_version = ev.n
    if kind != "chat":
        room.log.append(public)
    return public


def need_state(room: Room) -> GameState:
    if room.state is None:
        raise RuntimeError(f"room {room.code}: no game in progress")
    return room.state


def _check_over(room: Room, public: dict[str, Any]) -> None:
    outcome = room.state.outcome() if room.state else None
    if outcome is not None and room.state is not None:
        room.status = "over"
        room.calls.clear()
        fair_rooms.game_over(room, room.state)
        public["notes"] += events.outcome_notes(outcome)


def rebuild(row: RoomRow) -> Room:
    """A room as it stood at its last committed event (after a restart or an eviction)."""
    config = dict(row.config)
    room = Room(row.code, config, row.host_seat, [Seat(i) for i in range(config["players"])])
    room.created_at = row.created_at
    for ev in row.events:
        fold(room, ev)
    for seat, muted in row.mutes.items():  # private to each seat's player, kept beside the seat
        if 0 <= seat < len(room.seats):
            room.seats[seat].muted = set(muted)
    if room.version != row.version:
        raise RuntimeError(f"room {row.code}: event log ends at {room.version}, room row says {row.version}")
    return room


def record_of(room: Room) -> dict[str, Any]:
    """The game record (``docs/record-format.md``) of the game just finished, with its fairness block when
    its deal was fair; never of one in progress."""
    return fair_rooms.finished_record(room, None)[1]
