"""A room's chess clocks: the stamps its events store and fold, its flags, and what its view shows.

Why apart from :mod:`.clocks`: that module is the clocks themselves, pure, which the protocol and
the room's state need; this one reads and changes a :class:`.room_state.Room`, and a flag that
ends the game closes it through :mod:`.fair_rooms` (its record and its line of the match).
"""

from __future__ import annotations

from typing import Any

from . import fair_rooms
from .clocks import ClockRules, Clocks, flag_result
from .room_state import Room


def rules_of(room: Room) -> ClockRules | None:
    return ClockRules.from_config(room.config)


def start_stamp(room: Room, now: float) -> dict[str, Any] | None:
    """The stamp of a new game: every seat's full base time."""
    rules = rules_of(room)
    return None if rules is None else Clocks.fresh(rules, len(room.seats)).stamp(now)


def stamp_now(room: Room, now: float) -> dict[str, Any] | None:
    """The stamp of an event now: the running seat charged up to ``now``."""
    return None if room.clocks is None else room.clocks.stamp(now)


def fold_stamp(room: Room, stamp: dict[str, Any] | None, mover: int | None, turn_done: bool) -> None:
    """Set the clocks from an event's stamp, after the event is folded into the game: ``mover``
    gets the increment when ``turn_done``, and the seat that must act now runs (a bot's too)."""
    rules = rules_of(room)
    if stamp is None or rules is None:
        return
    clocks = Clocks.from_stamp(rules, stamp)
    if mover is not None and turn_done:
        clocks.seats[mover].add(rules.increment_ms)
    state = room.state
    playing = room.status == "playing" and state is not None and state.outcome() is None
    clocks.hand_to(state.current_seat if playing and state is not None else None, float(stamp["at"]))
    room.clocks = clocks


def fold_flag(room: Room, data: dict[str, Any]) -> None:
    """Fold a ``flag`` event: the seat's clock is out for good; a bot takes the seat, or its side
    loses (:func:`flag_result`)."""
    seat = int(data["seat"])
    stamp = dict(data["clock"])
    stamp["flagged"] = sorted({*stamp.get("flagged", ()), seat})
    stamp["left"] = [0 if i == seat else ms for i, ms in enumerate(stamp["left"])]
    rules = rules_of(room)
    if rules is None:
        raise RuntimeError(f"room {room.code}: a flag event in a room without clocks")
    clocks = Clocks.from_stamp(rules, stamp)
    room.clocks = clocks
    state = room.state
    if data["on_flag"] == "bot":
        room.seats[seat].stand_in = True
        if state is not None:
            clocks.hand_to(state.current_seat, float(stamp["at"]))
        return
    sides = room.sides
    sequences = [len(state.sequences(s)) for s in range(sides)] if state is not None else [0] * sides
    clocks.ended = flag_result(sides, seat, sequences)
    room.status = "over"
    room.calls.clear()
    if state is not None:
        fair_rooms.game_over(room, state)
        room.match[-1]["winner"] = clocks.ended["winner"]
        room.records[-1] = {**room.records[-1], "clock_flag": dict(clocks.ended)}


def flag_data(room: Room, seat: int, now: float) -> dict[str, Any]:
    """The data of the ``flag`` event for ``seat`` at ``now``."""
    assert room.clocks is not None
    return {"seat": seat, "on_flag": room.clocks.rules.on_flag, "clock": room.clocks.stamp(now)}


def is_flagged(room: Room, seat: int) -> bool:
    return room.clocks is not None and room.clocks.seats[seat].flagged


def overdue(room: Room, seat: int, now: float) -> bool:
    """``seat`` acts after its time ran out (a late move: refused, and the flag falls)."""
    return room.clocks is not None and room.clocks.due(now) == seat


def public(room: Room, now: float) -> dict[str, Any] | None:
    """The clocks as every socket sees them (spectators too); ``None`` without clocks."""
    if room.clocks is not None and room.status != "lobby":
        return room.clocks.to_dict(now)
    rules = rules_of(room)
    if rules is None:
        return None
    return Clocks.fresh(rules, len(room.seats)).to_dict(now)


def ended_view(room: Room, view: dict[str, Any]) -> dict[str, Any]:
    """A view after a flag ended the game: the engine's game is unfinished, so the view says it is
    over here (``termination`` ``"clock"``), with nothing left to do."""
    ended = room.clocks.ended if room.clocks is not None else None
    if ended is None or room.status != "over":
        return view
    view = dict(view)
    view.update(termination="clock", winner=ended["winner"], seats_to_act=[])
    if "legal_actions" in view:
        view["legal_actions"] = []
    return view


def result(room: Room) -> dict[str, Any] | None:
    return room.clocks.ended if room.clocks is not None else None


def bot_pace(room: Room, seat: int, delay: float, seconds: float, now: float) -> tuple[float, float]:
    """A bot's pause and thinking budget on the clock: at most a fortieth of its time left each, so a
    bot on a clock rarely runs out (its thinking counts against its clock like anyone's)."""
    clocks = room.clocks
    if clocks is None or clocks.running != seat:
        return delay, seconds
    share = clocks.seats[seat].remaining(now) / 1000 / 40
    return min(delay, share), max(0.01, min(seconds, share))
