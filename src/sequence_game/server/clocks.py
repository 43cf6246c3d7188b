"""Per-seat chess clocks: a base time and an increment per seat, chosen by the host (issue 18).

Why a module of its own: the turn timer (``turn_seconds``, ``room.deadline``: :mod:`.turns`) plays a
move for a seat that is slow on one turn; a clock instead measures a seat's thinking over the whole
game, and when it runs out the seat's ``on_flag`` applies: ``bot`` (a bot plays the seat for the
rest of the game) or ``loss`` (its side loses, see :func:`flag_result`). Both may be on at once.

The server is the authority. Every game event that can pass the move (``start``, ``action``, a
table-talk ruling, ``rule``) stores a *stamp*: each seat's time left at the event's wall-clock time.
:func:`.room_clocks.fold_stamp` rebuilds the clocks from it, the running clock being the seat that
must act next, so a room loaded again after a restart or an eviction has exactly the clocks it had:
the time since the last event is charged to the seat to move (the server cannot tell thinking from
downtime, and a player gains nothing from a restart). A seat's turn that ends adds the increment.

This module is pure (no room, no I/O), so the protocol's bounds and the room's state can use it;
:mod:`.room_clocks` reads and folds a room's clocks.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

#: The shortest base time a host may choose, in minutes (3 seconds: the tests' bullet games).
MIN_MINUTES = 0.05
MAX_MINUTES = 60.0
MAX_INCREMENT = 60
ON_FLAG = ("bot", "loss")


def check_minutes(minutes: float) -> float:
    """A base time in minutes: 0 (no clocks) or between :data:`MIN_MINUTES` and :data:`MAX_MINUTES`."""
    if not math.isfinite(minutes) or minutes < 0 or minutes > MAX_MINUTES:
        raise ValueError(f"a clock's base time is 0 (no clocks) or {MIN_MINUTES} to {MAX_MINUTES:g} minutes")
    if 0 < minutes < MIN_MINUTES:
        raise ValueError(f"a clock's base time is at least {MIN_MINUTES} minutes (3 seconds)")
    return minutes


@dataclass(frozen=True)
class ClockRules:
    """The host's choice, fixed for the game (R6.2: house rules stay fixed once it starts)."""

    base_ms: int
    increment_ms: int = 0
    on_flag: str = "bot"

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> ClockRules | None:
        """The rules of a room's config, or ``None`` when it plays without clocks."""
        minutes = float(config.get("clock_minutes") or 0)
        if minutes <= 0:
            return None
        return cls(
            base_ms=round(minutes * 60_000),
            increment_ms=int(config.get("clock_increment") or 0) * 1000,
            on_flag=str(config.get("clock_flag") or "bot"),
        )

    def to_dict(self) -> dict[str, Any]:
        return {"base_ms": self.base_ms, "increment_ms": self.increment_ms, "on_flag": self.on_flag}


@dataclass
class Clock:
    """One seat's clock: the time left when it last stopped or started, and since when it runs."""

    left_ms: int
    started_at: float | None = None
    """Wall-clock seconds (``time.time()``) when it started running; ``None``: stopped."""
    flagged: bool = False
    """Its time ran out: it never runs again this game."""

    def remaining(self, now: float) -> int:
        """Milliseconds left at ``now`` (never below 0)."""
        if self.started_at is None:
            return self.left_ms
        return max(0, self.left_ms - round((now - self.started_at) * 1000))

    def start(self, now: float) -> None:
        if self.started_at is None and not self.flagged:
            self.started_at = now

    def stop(self, now: float) -> None:
        self.left_ms = self.remaining(now)
        self.started_at = None

    def add(self, ms: int) -> None:
        """The increment, once a turn is done (a flagged clock gets none)."""
        if not self.flagged:
            self.left_ms += ms

    def to_dict(self, now: float) -> dict[str, Any]:
        return {
            "left_ms": self.remaining(now),
            "running": self.started_at is not None,
            "flagged": self.flagged,
        }


@dataclass
class Clocks:
    """Every seat's clock in one game; at most one runs: the seat that must act."""

    rules: ClockRules
    seats: list[Clock]
    ended: dict[str, Any] | None = None
    """The result when a flag ended the game (``on_flag == "loss"``)."""

    @classmethod
    def fresh(cls, rules: ClockRules, players: int) -> Clocks:
        return cls(rules, [Clock(rules.base_ms) for _ in range(players)])

    @property
    def running(self) -> int | None:
        return next((i for i, c in enumerate(self.seats) if c.started_at is not None), None)

    def stamp(self, now: float) -> dict[str, Any]:
        """What an event stores: each seat's time left at ``now`` and the seats already flagged."""
        return {
            "left": [c.remaining(now) for c in self.seats],
            "at": now,
            "flagged": [i for i, c in enumerate(self.seats) if c.flagged],
        }

    @classmethod
    def from_stamp(cls, rules: ClockRules, stamp: dict[str, Any]) -> Clocks:
        flagged = set(stamp.get("flagged", ()))
        return cls(rules, [Clock(int(ms), None, i in flagged) for i, ms in enumerate(stamp["left"])])

    def hand_to(self, seat: int | None, now: float) -> None:
        """Stop the running clock and start ``seat``'s (``None``: no clock runs, the game is over)."""
        for i, c in enumerate(self.seats):
            if i != seat:
                c.stop(now)
        if seat is not None:
            self.seats[seat].start(now)

    def due(self, now: float) -> int | None:
        """The running seat whose time is up at ``now``, if any."""
        seat = self.running
        return seat if seat is not None and self.seats[seat].remaining(now) <= 0 else None

    def seconds_to_flag(self, now: float) -> float | None:
        """How long until the running clock runs out (``None``: none runs)."""
        seat = self.running
        return None if seat is None else self.seats[seat].remaining(now) / 1000

    def to_dict(self, now: float) -> dict[str, Any]:
        """For the room view: every seat's clock, and the server's time in milliseconds, so a page
        counts the running one down from when the message was made, without drift."""
        return {
            **self.rules.to_dict(),
            "now_ms": round(now * 1000),
            "running": self.running,
            "seats": [c.to_dict(now) for c in self.seats],
            "ended": self.ended,
        }


def flag_result(sides: int, seat: int, sequences: list[int]) -> dict[str, Any]:
    """The result when ``seat``'s time runs out and the host chose ``loss``.

    Its side loses. With 2 sides the other side wins. With 3 sides the game ends, the flagged side
    loses and the other two draw: one sequence would already have won (R3.1), so no side is ahead on
    sequences; the match scores it as a draw (``winner`` ``None``), like R7.2."""
    loser = seat % sides
    winner = 1 - loser if sides == 2 else None
    return {"winner": winner, "loser": loser, "seat": seat, "sequences": list(sequences), "end": "clock"}
