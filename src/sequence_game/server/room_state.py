"""A room's state in memory: its seats, config, game, fair deal and clocks, as plain data.

Why a module of its own: the modules that read or change a room (:mod:`.room_clocks`,
:mod:`.fair_rooms`, :mod:`.chat`, :mod:`.rooms`, the manager) all need its shape, and the shape
needs none of them, so it sits below them all; what events do to it is :func:`.rooms.fold`.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from ..config import GameConfig
from ..fairness import FairDeal
from ..state import GameState
from .clocks import Clocks
from .limits import TokenBucket
from .seats import Connection, Seat


@dataclass
class Gathering:
    """A start waiting for nonces: held in memory only (a restart meanwhile leaves the room as it
    was, and the host starts again), ended by the last nonce or by the deadline."""

    commitment: str
    dealer: int
    waiting: set[int]
    nonces: dict[int, str] = field(default_factory=dict)
    remote: bool = False
    """Another worker's gathering, of which this worker only asks its own sockets for nonces and
    passes them on (see :mod:`.commands`)."""


@dataclass(eq=False)
class Room:
    """One room: changed only by folding its committed events, under its ``lock``."""

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
    bot_task: asyncio.Task[None] | None = None
    timer_task: asyncio.Task[None] | None = None
    deadline: float | None = None
    chat_lines: int = 0
    """Chat lines in the store (the in-memory ``chat`` keeps only the latest)."""
    chat_bucket: TokenBucket | None = None
    bot_seconds: float = 0.0
    """Bot thinking this room has used since it was loaded (capped by ``Limits.room_bot_seconds``)."""
    active_at: float = field(default_factory=time.monotonic)
    """When something last happened here (an event, a socket coming or going): for eviction."""
    created_at: float = field(default_factory=time.time)
    evicted: bool = False
    """Dropped from memory: whoever still holds this object must load the room again."""
    fair_seed: bytes | None = None
    """The secret seed committed for the next deal (the latest ``seed`` event); never sent."""
    fair_dealer: int | None = None
    """The dealer the latest ``seed`` event commits to (``sequence-fair/2``; ``None`` before it)."""
    deal: FairDeal | None = None
    """The fair deal of the game in play or just over."""
    swap_of: int | None = None
    """The game whose deck this one replays with the sides exchanged (``None``: a fresh deal)."""
    gathering: Gathering | None = None
    """A start waiting for the seated people's nonces (memory only)."""
    verified: dict[str, Any] | None = None
    """The server's verification of the game just over (computed once)."""
    records: list[dict[str, Any]] = field(default_factory=list)
    """Every finished game's record, with its fairness block, in match order."""
    match: list[dict[str, Any]] = field(default_factory=list)
    """One line per finished game: winner, dealer, moves, and which game it replays swapped."""
    clocks: Clocks | None = None
    """The seats' chess clocks in the game in play (``None``: the host chose none); see :mod:`.clocks`."""
    clock_task: asyncio.Task[None] | None = None
    """Wakes when the running clock runs out, even if nobody sends anything."""

    _game_config: tuple[tuple[Any, ...], GameConfig] | None = field(default=None, repr=False)
    """The last :meth:`game_config`, with the settings it came from (a room's public form, sent
    with every move, asks for it more than once)."""

    def game_config(self) -> GameConfig:
        c = self.config
        key = (c["players"], c.get("teams"), c.get("draw", "auto"))
        cached = self._game_config
        if cached is None or cached[0] != key:
            cached = self._game_config = (key, GameConfig(players=key[0], teams=key[1], draw=key[2]))
        return cached[1]

    @property
    def sides(self) -> int:
        return self.game_config().sides

    def bot_controls(self, seat: int) -> bool:
        s = self.seats[seat]
        return s.kind == "bot" or (s.kind == "human" and s.stand_in)
