"""The room manager: creates, loads and evicts rooms, and commits every change to them.

One ``asyncio.Lock`` per room serialises every change, so two commands can never interleave; a
change is validated on a copy of the game, committed to the store, folded into memory
(:func:`.rooms.fold`) and only then sent to each socket, built for its recipient.

The manager holds the rooms and the one way to change them (:meth:`RoomManager.commit`); its
parts, each given what it needs, do the rest: :class:`.broadcast.Broadcaster` (each socket's
message), :class:`.presence.Presence` (sockets in and out, grace periods), :class:`.turns.Turns`
(bots, turn timer, clocks, moves), :class:`.hints.Hints` and :class:`.workers.Workers` (the other
workers). Imports flow one way: ``protocol``, ``store``, ``clocks`` -> ``seats`` -> ``room_state``
-> ``fair_rooms``, ``chat`` -> ``room_clocks`` -> ``rooms``, ``commands`` -> ``broadcast``, ``turns``
-> ``presence`` -> ``workers`` -> ``manager`` -> ``app``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import random
import secrets
import time
import weakref
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy.exc import IntegrityError

from ..cards import parse_card
from ..config import GameConfig
from ..errors import ConfigError
from ..i18n import N_
from ..state import GameState
from . import chat, events, fair_rooms, room_clocks
from .bot_runner import BotRunner
from .broadcast import Broadcaster
from .cluster import Cluster
from .commands import HANDLERS, gather
from .eviction import evictable, expired
from .fair_rooms import seed_event
from .hints import Hints
from .limits import Limits
from .memory import MemoryKeeper
from .presence import Presence
from .protocol import Chat, CreateRoom, Hello, Hint, Ping, ProtocolError
from .room_state import Room
from .rooms import CODE_ALPHABET, CODE_LENGTH, PRIVATE_CODE_LENGTH, fold, need_state, rebuild
from .seats import Connection, Seat, bot_seat, detach, hash_token
from .shared_limits import SharedLimits, client_key
from .store import EventRow, Store
from .turns import Turns
from .workers import Workers

log = logging.getLogger(__name__)

#: The most open rooms ``GET /api/rooms?open=1`` lists.
OPEN_ROOMS_SHOWN = 50
#: How many times a chat line that lost its number to another worker's event is committed again
#: after catching up (a line depends on nothing in the room, so it simply follows them).
CHAT_TRIES = 8


class RoomManager:
    """All rooms of one server: creates and loads them, runs their commands, bots and timers."""

    def __init__(
        self,
        store: Store,
        *,
        bot_seconds: float = 1.0,
        bot_delay: float = 0.6,
        stand_in_level: str = "random",
        limits: Limits | None = None,
        cluster: Cluster | None = None,
    ) -> None:
        self.store = store
        self.cluster = cluster
        """Set when several workers share the database: see :mod:`.cluster`."""
        self.limits = limits or Limits()
        self.rooms: dict[str, Room] = {}
        self._load_lock = asyncio.Lock()
        self._rng = random.Random(secrets.randbits(64))
        self.bots = BotRunner(
            workers=self.limits.bot_workers,
            seconds=bot_seconds,
            room_budget=self.limits.room_bot_seconds,
            rng=self._rng,
        )
        self.shared = SharedLimits(store, self.limits)
        """Rooms created and codes guessed per address, counted in the store for every worker."""
        self._sweeper: asyncio.Task[None] | None = None
        self.evicted = 0
        """Rooms dropped from memory so far (for ``/health`` and the load test)."""
        self.memory = MemoryKeeper(self.limits.collect_seconds)
        """Frees closed sockets and evicted rooms after a sweep (:mod:`.memory`)."""
        self.alive: weakref.WeakSet[Room] = weakref.WeakSet()
        """Every room object not yet freed: after eviction it should empty (no leak holds them)."""
        self.broadcaster = Broadcaster(cluster)
        self.turns = Turns(
            self, cluster, self.bots, self._rng, bot_delay=bot_delay, stand_in_level=stand_in_level
        )
        self.presence = Presence(self, self.broadcaster, cluster)
        self.hints = Hints(self.bots)
        self.on_game_over: Callable[[Room], None] | None = None
        """Called (holding the room's lock) when a game this worker committed the end of is over:
        the ratings (:mod:`.play_routes`)."""
        self.may_chat: Callable[[Room, int], Awaitable[None]] | None = None
        """Raises to refuse a seat's chat line before the room's lock is taken (a banned
        account's: :mod:`.report_routes`)."""
        self.workers = Workers(
            cluster,
            store,
            self.rooms,
            self.broadcaster,
            self.turns,
            self.presence,
            table=self,
            fold=self._fold,
            evict=self._evict,
        )

    @property
    def handed_over(self) -> int:
        """Rooms left to the worker serving them (:meth:`.workers.Workers._hand_over`)."""
        return self.workers.handed_over

    def start(self) -> None:
        """Begin the periodic eviction and expiry, and follow the other workers (needs a running
        event loop)."""
        if self._sweeper is None:
            self._sweeper = asyncio.create_task(self._sweep_forever())
        self.workers.start()

    # ------------------------------------------------------------------ rooms

    async def create(self, body: CreateRoom, client: str = "", *, limited: bool = True) -> tuple[Room, str]:
        """A new room with its creator in ``body.seat`` as the host; returns the host's token.

        ``client``: the creator's address; each may create ``rooms_burst`` rooms at once and then
        ``rooms_per_minute``, over every worker (:mod:`.shared_limits`). A private room's code is
        longer (:data:`.rooms.PRIVATE_CODE_LENGTH`): it is all that keeps its table from strangers."""
        try:
            cfg = GameConfig(players=body.players, teams=body.teams, draw=body.draw)
        except ConfigError as exc:
            raise events.refusal("bad_config", exc) from None
        if body.seat >= cfg.players:
            raise ProtocolError(
                "bad_seat",
                N_("no seat {seat} at a table of {players}"),
                "R2.1",
                params={"seat": body.seat, "players": cfg.players},
            )
        if body.against is not None:
            bot_seat(0, body.against)  # an unknown level or bot is refused before the room exists
        if limited:  # the queue's rooms (:mod:`.play_routes`) are no client's
            await self.shared.create_room(client)
        config = {
            "players": cfg.players,
            "teams": cfg.sides,
            "draw": cfg.draw,
            "turn_seconds": body.turn_seconds,
            "grace_seconds": body.grace_seconds,
            "public": body.public,
            "hints": body.hints,
            "clock_minutes": body.clock_minutes,
            "clock_increment": body.clock_increment,
            "clock_flag": body.clock_flag,
        }
        if body.rated:
            config["rated"] = True
        async with self._load_lock:
            length = CODE_LENGTH if body.public else PRIVATE_CODE_LENGTH
            for _ in range(100):  # a code in use is refused by the store's unique index: draw again
                code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))
                if code in self.rooms:
                    continue
                try:
                    self.store.create_room(code, config, body.seat)
                except IntegrityError:
                    continue
                break
            else:  # pragma: no cover - 32**6 codes
                raise RuntimeError("no free room code found")
            room = Room(code, config, body.seat, [Seat(i) for i in range(cfg.players)])
            self.rooms[code] = room
            self.alive.add(room)
            self.bots.owners[code] = client_key(client)  # its bots' turn in the pool is its creator's
            self.workers.try_own(room)
        try:
            async with room.lock:  # a fair deal's commitment is public before anyone can sit
                await self.commit(room, "seed", None, seed_event(len(room.seats)))
            token = await self.take_seat(room, body.seat, body.name)
            if body.against is not None:
                await self._start_against(room, body.against, start=body.start)
        except BaseException:
            # no room without its host: forget it entirely
            self.rooms.pop(code, None)
            self.bots.owners.pop(code, None)
            room.evicted = True
            with contextlib.suppress(Exception):
                self.store.delete_room(code)
            raise
        return room, token

    async def _start_against(self, room: Room, level: str, *, start: bool = True) -> None:
        """ "Play a bot now": the same events as the host adding bots and starting (R2.1, R4.1)."""
        async with room.lock:
            for s in room.seats:
                if s.kind == "empty":
                    data = bot_seat(s.index, level)
                    await self.commit(room, "seat", s.index, data, seat_changed=s.index)
            if start:  # nobody is connected yet: the deal is made at once, with no person's nonce
                await gather(self, room, fair_rooms.next_dealer(room))

    async def fill_and_start(self, room: Room, level: str) -> None:
        """A queued table (:mod:`.play_routes`): bots of ``level`` in any empty seat, then the deal."""
        await self._start_against(room, level)

    def open_rooms(self) -> list[dict[str, Any]]:
        """Public rooms in memory still in their lobby with a free seat, newest first.

        Read from memory only (no database scan per request): a lobby room that left memory is
        not listed until someone opens it by its code."""
        shown = []
        for room in sorted(self.rooms.values(), key=lambda r: r.created_at, reverse=True):
            if not room.config.get("public") or room.status != "lobby" or room.evicted:
                continue
            sides = room.sides
            seats = [
                {"seat": s.index, "side": s.index % sides, "kind": s.kind, "name": s.name} for s in room.seats
            ]
            free = sum(1 for s in room.seats if s.kind == "empty")
            if not free or room.gathering is not None:
                continue
            shown.append(
                {
                    "code": room.code,
                    "players": len(room.seats),
                    "sides": sides,
                    "taken": len(seats) - free,
                    "free": free,
                    "host": room.seats[room.host_seat].name,
                    "seats": seats,
                    "draw": room.config.get("draw", "auto"),
                    "turn_seconds": room.config.get("turn_seconds", 0),
                    "hints": bool(room.config.get("hints")),
                    "clocks": {k: v for k, v in room.config.items() if k.startswith("clock_")},
                }
            )
            if len(shown) >= OPEN_ROOMS_SHOWN:
                break
        return shown

    def seat_of_token(self, room: Room, token: str) -> int | None:
        digest = hash_token(token)
        for s in room.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
                return s.index
        return None

    async def room_for(self, code: str, client: str) -> Room:
        """The room with ``code`` for a request from ``client``, or ``unknown_room`` (404): a code
        that does not exist costs the client a guess, and a client out of guesses is refused (429)
        whether the room exists or not (:mod:`.shared_limits`), so no endpoint finds private rooms."""
        self.shared.check_guesses(client)
        room = await self.get(code)
        if room is None:
            await self.shared.missed(client)
            raise ProtocolError("unknown_room", N_("no room {code}"), params={"code": code})
        return room

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
                # off the loop: a database slow to answer (or down) must not stop every room
                row = await asyncio.to_thread(self.store.load_room, code)
                if row is None:
                    return None
                room = rebuild(row)
                self.rooms[code] = room
                self.alive.add(room)
                self.workers.try_own(room)
                async with room.lock:
                    if room.status == "playing":
                        for seat in room.seats:
                            if seat.kind == "human" and not seat.stand_in:
                                self.presence.start_grace(room, seat)
                    self.turns.after_game_change(room)
        return room

    async def _live(self, room: Room) -> Room:
        """``room`` itself, or, if it has left memory since it was looked up, the room loaded again."""
        if not room.evicted:
            return room
        again = await self.get(room.code)
        if again is None:
            raise ProtocolError(
                "unknown_room", N_("room {code} no longer exists"), params={"code": room.code}
            )
        return again

    async def take_seat(self, room: Room, seat: int, name: str) -> str:
        """Sit a human in an empty seat of a room still in its lobby; returns the seat's token."""
        while True:
            room = await self._live(room)
            async with room.lock:
                if room.evicted:
                    continue
                if room.status != "lobby":
                    raise ProtocolError(
                        "started", N_("the game has started: seats can no longer be taken; watch it")
                    )
                if not 0 <= seat < len(room.seats):
                    raise ProtocolError(
                        "bad_seat",
                        N_("no seat {seat} at a table of {players}"),
                        "R2.1",
                        params={"seat": seat, "players": len(room.seats)},
                    )
                if room.seats[seat].kind != "empty":
                    raise ProtocolError("seat_taken", N_("seat {seat} is taken"), params={"seat": seat})
                token = secrets.token_urlsafe(24)
                data = {"seat": seat, "kind": "human", "name": name.strip() or f"Player {seat}"}
                data["token_hash"] = hash_token(token)
                await self.commit(room, "seat", seat, data, seat_changed=seat)
                return token

    async def shutdown(self) -> None:
        tasks: list[asyncio.Task[None]] = [t for t in (self._sweeper,) if t]
        tasks += self.workers.tasks()
        for room in self.rooms.values():
            tasks += _room_tasks(room)
            for conn in room.conns:
                conn.queue.put_nowait(None)
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        self.bots.close()
        self.workers.close()
        self.shared.close()

    # ------------------------------------------------------------ eviction and expiry

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(max(0.05, self.limits.sweep_seconds))
            try:
                await self.sweep()
            except Exception:  # the sweeper must outlive a failing database call
                log.exception("room sweep failed")

    async def sweep(self) -> tuple[int, int]:
        """Evict quiet rooms from memory and delete expired lobbies; returns (evicted, deleted)."""
        now, wall = time.monotonic(), time.time()
        evicted = deleted = 0
        # with several workers, a lobby empty here may have people (or its owner) on another worker
        elsewhere = self.cluster.in_use_elsewhere if self.cluster is not None else None
        for room in list(self.rooms.values()):
            if expired(room, self.limits, wall) and not (elsewhere and elsewhere(room.code)):
                if await self._evict(room, lambda r: expired(r, self.limits, time.time())):
                    self.store.delete_room(room.code)
                    deleted += 1
            elif evictable(room, self.limits, now):
                evicted += await self._evict(room, lambda r: evictable(r, self.limits, time.monotonic()))
        if evicted or deleted:  # before the next await: once /health says a room left, it is freed
            self.memory.release()
        else:
            self.memory.tick()
        async with self._load_lock:  # no room may be loaded while its row is deleted
            gone = await asyncio.to_thread(
                self.store.expire_lobbies, wall - self.limits.lobby_seconds, set(self.rooms), elsewhere
            )
        deleted += len(gone)
        await self.shared.prune()
        return evicted, deleted

    async def _evict(self, room: Room, still: Callable[[Room], bool]) -> bool:
        async with self._load_lock, room.lock:
            if not still(room) or self.rooms.get(room.code) is not room:
                return False
            room.evicted = True
            del self.rooms[room.code]
            self.bots.owners.pop(room.code, None)
            self.store.forget(room.code)
            self.workers.forget(room.code)
            for task in _room_tasks(room):
                task.cancel()
            self.evicted += 1
            return True

    # ------------------------------------------------------------ committing

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
        tries: int = 1,
    ) -> dict[str, Any]:
        """Store the event, then fold it in and tell everyone. Caller holds ``room.lock``.

        ``game_change``: the event moves the game on, so the bots are woken and the turn timer is
        armed before the message goes out, which then carries the new deadline. ``after``: the game
        as an ``action`` leaves it, when the caller has already tried it (saves a copy and a move).
        ``tries``: how many times a chat line has lost its number to another worker's event; it
        is committed again after those events, up to :data:`CHAT_TRIES` times (with several
        workers, lines were refused as ``stale``, issue 42), then refused as ``busy``."""
        if kind in ("start", "action", "rule") and room_clocks.rules_of(room) is not None:
            now = time.time()  # the clocks as this event leaves them, stored with it (restarts keep them)
            data["clock"] = (
                room_clocks.start_stamp(room, now) if kind == "start" else room_clocks.stamp_now(room, now)
            )
        ev = EventRow(room.version + 1, kind, seat, data)
        fields = dict(room_fields or {})
        seat_rows = None
        if seat_changed is not None:
            preview = Seat(seat_changed, data["kind"], data.get("name", ""), data.get("token_hash"))
            preview.bot_level = data.get("bot_level")
            seat_rows = [preview.row()]
        if kind == "action":
            played = len(need_state(room).history)
            trial = after
            if trial is None:
                trial = need_state(room).copy()
                card = parse_card(data["card"]) if data.get("card") else None
                trial.apply(data["action"], seat, card=card)
            outcome = trial.outcome()
            if outcome is not None:
                verify = fair_rooms.verdict(room, trial, played)  # once, here: other workers fold it in
                if verify is not None:
                    data["verify"] = verify
                fields.update(
                    status="over",
                    result={
                        "winner": outcome.winner,
                        "sequences": list(outcome.sequences),
                        "end": outcome.termination.value,
                    },
                )
        try:
            done = self.store.submit(room.code, ev, room=fields or None, seat_rows=seat_rows)
            if done is not None:  # PostgreSQL: committed with this loop turn's group, the loop free meanwhile
                self.workers.committing(room.code, ev.n)  # its own notice may come first: nothing to catch up
                try:
                    await asyncio.shield(done)
                except asyncio.CancelledError:  # committed all the same: memory must follow the store
                    with contextlib.suppress(Exception):
                        await done
                        self._fold(room, ev)
                    raise
        except IntegrityError:
            if self.cluster is None:
                raise
            # another worker committed event n first: take its events, refuse this command
            self.workers.catch_up(room)
            if kind == "chat":  # a line depends on nothing in the room: it follows them
                if tries < CHAT_TRIES:
                    return await self.commit(room, kind, seat, data, tries=tries + 1)
                raise ProtocolError(
                    "busy", N_("the table is too busy to take your line just now; send it again")
                ) from None
            raise ProtocolError(
                "stale", N_("the room changed meanwhile; nothing was done, try again")
            ) from None
        was = room.status
        public = self._fold(room, ev)
        if was != "over" and room.status == "over" and self.on_game_over is not None:
            self.on_game_over(room)
        if game_change:
            self.turns.after_game_change(room)
        self.broadcaster.event(room, public)
        if kind == "start":
            self._grace_for_the_absent(room)
            # a new game: a seat whose clock ran out in the last one is its player's again
            for s in room.seats:
                if s.stand_in and s.connections > 0 and not room_clocks.is_flagged(room, s.index):
                    await self.commit(room, "back", s.index, {"seat": s.index}, game_change=True)
        return public

    def _grace_for_the_absent(self, room: Room) -> None:
        """A game starts: a player with no socket (a seat taken over HTTP, a tab closed in the
        lobby) gets the grace period at once, as one whose socket closes does; without it the
        game waited for them for ever (a socket closing was the only start of a grace period).
        With several workers the owner's tick stops it for a seat connected elsewhere."""
        for s in room.seats:
            if s.kind == "human" and not s.stand_in and s.connections == 0 and s.grace_task is None:
                self.presence.start_grace(room, s)

    def _fold(self, room: Room, ev: EventRow) -> dict[str, Any]:
        """Fold a committed event (this worker's or another's) into the room in memory."""
        if ev.kind == "seat":
            # a seat that changes hands keeps none of its old sockets: they watch from now on
            changed = room.seats[ev.data["seat"]]
            for conn in room.conns:
                detach(conn, changed)
            changed.muted.clear()
        if ev.kind in ("start", "seat") and room.gathering is not None and room.gathering.remote:
            room.gathering = None  # another worker's gathering: it dealt, or the table changed
        public = fold(room, ev)
        if ev.kind == "chat":
            chat.charge(room, self.limits)
        room.active_at = time.monotonic()
        return public

    # ------------------------------------------------------------ what commands need (``Table``)

    async def apply_action(
        self, room: Room, seat: int, action: int, card: int | None, auto: str = ""
    ) -> None:
        await self.turns.apply_action(room, seat, action, card, auto)

    def save_mutes(self, room: Room, seat: int, muted: set[int]) -> None:
        self.workers.save_mutes(room, seat, muted)

    def present_elsewhere(self, room: Room) -> set[int]:
        return self.workers.present_elsewhere(room)

    def tell_workers(self, room: Room, kind: str, **data: Any) -> None:
        self.workers.tell(room, kind, **data)

    # ------------------------------------------------------------ sockets

    def public(self, room: Room) -> dict[str, Any]:
        """The room's public form, as every socket sees it (:meth:`.broadcast.Broadcaster.public`)."""
        return self.broadcaster.public(room)

    async def connect(self, room: Room, conn: Connection, hello: Hello) -> Room:
        """Authenticate a socket by its seat token (or none: a spectator) and send a full snapshot.

        Returns the room the socket is now in (loaded again if it had left memory meanwhile)."""
        while True:
            room = await self._live(room)
            async with room.lock:
                if room.evicted:
                    continue
                self.workers.refresh(room)  # never welcomed with a stale room (several workers)
                await self.presence.enter(room, conn, hello)
                self.turns.wake(room)  # a game paused for nobody goes on once someone is there
                return room

    async def disconnect(self, room: Room, conn: Connection) -> None:
        await self.presence.leave(room, conn)

    async def handle(self, room: Room, conn: Connection, msg: Any) -> None:
        handler = HANDLERS.get(type(msg))
        if handler is None:
            raise ProtocolError(
                "bad_message", N_("{type} is only valid as the first message"), params={"type": msg.type}
            )
        if isinstance(msg, Ping):
            await handler(self, room, conn, msg)
            return
        if isinstance(msg, Hint):  # thought out without the lock, so the room goes on meanwhile
            conn.send(await self.hint(room, conn.seat))
            return
        if isinstance(msg, Chat) and conn.seat is not None and self.may_chat is not None:
            await self.may_chat(room, conn.seat)
        async with room.lock:
            await handler(self, room, conn, msg)

    async def hint(self, room: Room, seat: int | None) -> dict[str, Any]:
        """The strongest bot's play for ``seat``'s own view (:mod:`.hints`)."""
        return await self.hints.hint(room, seat)

    # ------------------------------------------------------------ the parts' entry points

    def _after_game_change(self, room: Room) -> None:
        """Wake the bots and arm the timers (:meth:`.turns.Turns.after_game_change`). Holds ``room.lock``."""
        self.turns.after_game_change(room)

    async def tick(self) -> None:
        """One cluster tick (:meth:`.workers.Workers.tick`)."""
        await self.workers.tick()


def _room_tasks(room: Room) -> list[asyncio.Task[None]]:
    tasks = [t for t in (room.bot_task, room.timer_task, room.clock_task) if t]
    return tasks + [s.grace_task for s in room.seats if s.grace_task]
