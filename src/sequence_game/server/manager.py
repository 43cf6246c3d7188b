"""The room manager: creates, loads and evicts rooms, and runs their commands, bots and timers.

One ``asyncio.Lock`` per room serialises every change, so two commands can never interleave; a
change is validated on a copy of the game, committed to the store, folded into memory
(:func:`.rooms.fold`) and only then sent to each socket, built for its recipient.

Imports flow one way: ``protocol``, ``store`` -> ``limits`` -> ``seats`` -> ``rooms`` -> ``chat``,
``eviction``, ``bot_runner``, ``commands`` (what each message may do) -> ``manager`` -> ``app``.
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
from collections.abc import Callable
from typing import Any

from sqlalchemy.exc import IntegrityError

from ..actions import DEAD, DISCARD, DRAW
from ..board import LAYOUT
from ..bots import available_bots, level_bot
from ..cards import card_name, is_one_eyed, is_two_eyed, parse_card
from ..config import GameConfig
from ..errors import ConfigError, IllegalActionError
from ..i18n import N_
from ..state import GameState
from . import chat, clocks, events, fair_rooms
from .bot_runner import BotRunner
from .cluster import TICK, Cluster, local_presence, room_key
from .commands import HANDLERS, gather, remote_gathering, take_remote_nonce
from .eviction import evictable, expired
from .fair_rooms import seed_event
from .fanout import SeatViews
from .json_text import encode
from .limits import Limits, TokenBucket
from .memory import MemoryKeeper
from .protocol import (
    CreateRoom,
    Hello,
    Hint,
    Ping,
    ProtocolError,
)
from .rooms import (
    CODE_ALPHABET,
    CODE_LENGTH,
    Room,
    fold,
    need_state,
    played_card,
    rebuild,
)
from .seats import Connection, Seat, attach, detach, hash_token
from .store import EventRow, Store, notice_event

log = logging.getLogger(__name__)

#: The most open rooms ``GET /api/rooms?open=1`` lists.
OPEN_ROOMS_SHOWN = 50
#: Hints come from the strongest level people are offered, with a small fixed budget.
HINT_LEVEL = level_bot("expert")
HINT_SECONDS = 0.3


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
        self._catching: dict[str, asyncio.Task[None]] = {}
        """Rooms with a catch-up on its way (many notifications need only one)."""
        self._handing: dict[str, asyncio.Task[None]] = {}
        """Rooms being left to the worker serving them (:meth:`_hand_over`)."""
        self.limits = limits or Limits()
        self.bot_seconds = bot_seconds
        self.bot_delay = bot_delay
        self.stand_in_level = stand_in_level
        self.rooms: dict[str, Room] = {}
        self._load_lock = asyncio.Lock()
        self._rng = random.Random(secrets.randbits(64))
        self.bots = BotRunner(
            workers=self.limits.bot_workers,
            seconds=bot_seconds,
            room_budget=self.limits.room_bot_seconds,
            rng=self._rng,
        )
        self._creators: dict[str, TokenBucket] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self._ticker: asyncio.Task[None] | None = None
        self.evicted = 0
        """Rooms dropped from memory so far (for ``/health`` and the load test)."""
        self.handed_over = 0
        """Of those, rooms left to the worker serving them (:meth:`_hand_over`)."""
        self.memory = MemoryKeeper(self.limits.collect_seconds)
        """Frees closed sockets and evicted rooms after a sweep (:mod:`.memory`)."""
        self.alive: weakref.WeakSet[Room] = weakref.WeakSet()
        """Every room object not yet freed: after eviction it should empty (no leak holds them)."""
        self._hinting: set[tuple[str, int]] = set()
        """Seats with a hint being computed: one at a time each."""
        self._notified: dict[str, dict[int, str]] = {}
        """Announced events of rooms that were busy (locked) when their notice came, by number."""
        self._committing: dict[str, int] = {}
        """The latest event number each room committed (or is committing) here."""
        self._note_tasks: set[asyncio.Task[None]] = set()
        """Other workers' notes being applied (each waits for its room's lock)."""

    def start(self) -> None:
        """Begin the periodic eviction and expiry (needs a running event loop)."""
        if self._sweeper is None:
            self._sweeper = asyncio.create_task(self._sweep_forever())
        if self.cluster is not None and self._ticker is None:
            self.cluster.listen(asyncio.get_running_loop(), self._on_notify, self._on_note)
            self._ticker = asyncio.create_task(self._tick_forever())

    # ------------------------------------------------------------------ rooms

    async def create(self, body: CreateRoom, client: str = "") -> tuple[Room, str]:
        """A new room with its creator in ``body.seat`` as the host; returns the host's token.

        ``client``: the creator's address; each may create ``rooms_burst`` rooms at once and then
        ``rooms_per_minute``."""
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
        if body.against is not None and body.against not in available_bots():
            raise ProtocolError(
                "bad_bot",
                N_("unknown bot {bot}; choose from {bots}"),
                params={"bot": body.against, "bots": ", ".join(available_bots())},
            )
        bucket = self._creators.get(client)
        if bucket is None:
            bucket = self._creators[client] = TokenBucket(
                self.limits.rooms_per_minute / 60, self.limits.rooms_burst
            )
        if not bucket.take():
            raise ProtocolError(
                "rate_limited",
                N_("at most {rooms} new rooms a minute; wait a little"),
                params={"rooms": f"{self.limits.rooms_per_minute:g}"},
            )
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
        async with self._load_lock:
            for _ in range(100):  # a code in use is refused by the store's unique index: draw again
                code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
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
            self._try_own(room)
        try:
            async with room.lock:  # a fair deal's commitment is public before anyone can sit
                await self.commit(room, "seed", None, seed_event())
            token = await self.take_seat(room, body.seat, body.name)
            if body.against is not None:
                await self._start_against(room, body.against)
        except BaseException:
            # no room without its host: forget it entirely
            self.rooms.pop(code, None)
            room.evicted = True
            with contextlib.suppress(Exception):
                self.store.delete_room(code)
            raise
        return room, token

    async def _start_against(self, room: Room, level: str) -> None:
        """ "Play a bot now": the same events as the host adding bots and starting (R2.1, R4.1)."""
        async with room.lock:
            for s in room.seats:
                if s.kind == "empty":
                    data = {"seat": s.index, "kind": "bot", "name": f"{level} bot", "bot_level": level}
                    await self.commit(room, "seat", s.index, data, seat_changed=s.index)
            # nobody is connected yet, so the deal is made at once from the committed seed alone
            await gather(self, room, secrets.randbelow(len(room.seats)))

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

    async def hint(self, room: Room, seat: int | None) -> dict[str, Any]:
        """The strongest bot's play for ``seat``'s own view, thought out in the bot pool.

        The room's lock is held only to read the view: the room answers everyone meanwhile."""
        if seat is None:
            raise ProtocolError("not_seated", N_("spectators may only watch"))
        async with room.lock:
            if not room.config.get("hints"):
                raise ProtocolError("hints_off", N_("the host did not allow hints in this room"))
            if not any(s.kind == "bot" for s in room.seats):
                raise ProtocolError("hints_off", N_("hints are only given in games against bots"))
            state = room.state
            if room.status != "playing" or state is None:
                raise ProtocolError("not_playing", N_("the game is not being played"))
            if seat not in state.seats_to_act():
                raise ProtocolError("not_your_turn", N_("a hint is for your own turn"), "R4.3")
            view = state.view(seat)  # the seat's view only: never the hidden state
            if not view.legal_actions:
                raise ProtocolError("not_your_turn", N_("nothing to play: the turn passes"), "R5.5")
            version = room.game_version
        key = (room.code, seat)
        if key in self._hinting:
            raise ProtocolError("rate_limited", N_("a hint is already being worked out"))
        self._hinting.add(key)
        try:
            action, _used = await self.bots.choose(HINT_LEVEL, view, 0.0, HINT_SECONDS)
        finally:
            self._hinting.discard(key)
        if action not in view.legal_actions:
            action = view.legal_actions[0]
        card = hint_card(action, view.hand)
        return {
            "type": "hint",
            "version": room.version,
            "game_version": version,
            "action": action,
            "card": card_name(card) if card is not None else None,
            "cell": action % 100 if action < DEAD else None,
            "level": HINT_LEVEL,
        }

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
                self.alive.add(room)
                self._try_own(room)
                async with room.lock:
                    if room.status == "playing":
                        for seat in room.seats:
                            if seat.kind == "human" and not seat.stand_in:
                                self._start_grace(room, seat)
                    self._after_game_change(room)
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
        tasks: list[asyncio.Task[None]] = [t for t in (self._sweeper, self._ticker) if t]
        tasks += self._handing.values()
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
        if self.cluster is not None:
            self.cluster.close()

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
        for client, bucket in list(self._creators.items()):
            if bucket.full():
                del self._creators[client]
        return evicted, deleted

    async def _evict(self, room: Room, still: Callable[[Room], bool]) -> bool:
        async with self._load_lock, room.lock:
            if not still(room) or self.rooms.get(room.code) is not room:
                return False
            room.evicted = True
            del self.rooms[room.code]
            self.store.forget(room.code)
            self._committing.pop(room.code, None)
            self._notified.pop(room.code, None)
            if self.cluster is not None:
                self.cluster.release(room.code)
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
    ) -> dict[str, Any]:
        """Store the event, then fold it in and tell everyone. Caller holds ``room.lock``.

        ``game_change``: the event moves the game on, so the bots are woken and the turn timer is
        armed before the message goes out, which then carries the new deadline. ``after``: the game
        as an ``action`` leaves it, when the caller has already tried it (saves a copy and a move)."""
        if kind in ("start", "action", "rule") and clocks.rules_of(room) is not None:
            now = time.time()  # the clocks as this event leaves them, stored with it (restarts keep them)
            data["clock"] = clocks.start_stamp(room, now) if kind == "start" else clocks.stamp_now(room, now)
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
                self._committing[room.code] = ev.n  # its own notice may come first: nothing to catch up
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
            self._catch_up(room)
            raise ProtocolError(
                "stale", N_("the room changed meanwhile; nothing was done, try again")
            ) from None
        public = self._fold(room, ev)
        if game_change:
            self._after_game_change(room)
        self._broadcast(room, public)
        if kind == "start":  # a new game: a seat whose clock ran out in the last one is its player's again
            for s in room.seats:
                if s.stand_in and s.connections > 0 and not clocks.is_flagged(room, s.index):
                    await self.commit(room, "back", s.index, {"seat": s.index}, game_change=True)
        return public

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

    # ------------------------------------------------------------ mutes and other workers' seats

    def save_mutes(self, room: Room, seat: int, muted: set[int]) -> None:
        """``seat``'s player now mutes ``muted``: stored with the seat (so it holds on every worker,
        and after the room left memory), then told to every socket on the seat, here and, through
        a note, on the other workers. Holds ``room.lock``."""
        note = None
        if self.cluster is not None:
            note = encode(
                {
                    "code": room.code,
                    "kind": "mute",
                    "from": self.cluster.worker,
                    "seat": seat,
                    "muted": sorted(muted),
                }
            )
        self.store.save_mutes(room.code, seat, sorted(muted), note)
        room.seats[seat].muted = set(muted)
        self._tell_mutes(room, seat)

    def _tell_mutes(self, room: Room, seat: int) -> None:
        """The ``muted`` message to every socket on ``seat`` here (the page's mute buttons)."""
        msg = {"type": "muted", "version": room.version, "seats": sorted(room.seats[seat].muted)}
        for conn in room.conns:
            if conn.seat == seat:
                conn.send(msg)

    def present_elsewhere(self, room: Room) -> set[int]:
        """Seats of ``room`` another worker had a socket on at the last cluster tick."""
        if self.cluster is None:
            return set()
        key = room_key(room.code)
        return {seat for k, seat in self.cluster.seen_elsewhere if k == key}

    def tell_workers(self, room: Room, kind: str, **data: Any) -> None:
        """A note to the other workers holding ``room`` (nothing without a cluster)."""
        if self.cluster is not None:
            self.cluster.note(room.code, kind, **data)

    # ------------------------------------------------------------ other workers (cluster)

    def _try_own(self, room: Room) -> bool:
        if self.cluster is None:
            return True
        try:
            return self.cluster.try_own(room.code)
        except Exception:
            log.exception("could not take room %s", room.code)
            return False

    def _owns(self, room: Room) -> bool:
        return self.cluster is None or self.cluster.owns(room.code)

    def _catch_up(self, room: Room) -> None:
        """Fold and send the events other workers committed since ``room.version``. Holds the lock."""
        moved = False
        for ev in self.store.events_after(room.code, room.version):
            if ev.n != room.version + 1:
                raise RuntimeError(f"room {room.code}: event {ev.n} follows {room.version}")
            public = self._fold(room, ev)
            moved = moved or ev.kind in _MOVES_GAME
            self._broadcast(room, public)
        if moved:
            self._after_game_change(room)

    def _on_notify(self, code: str, n: int, body: str) -> None:
        """Another worker (or this one) committed event ``n`` of room ``code`` (``body``: the
        event's JSON, parsed only here, when this worker holds the room and lacks the event)."""
        room = self.rooms.get(code)
        if room is not None and (n <= room.version or n <= self._committing.get(code, 0)):
            return  # this worker's own commit (maybe still being folded), or one caught up
        if room is None and code:  # not loaded here: nothing to fold
            return
        if room is not None and code and not room.conns and not room.evicted and code not in self._handing:
            # another worker moved the room and nobody here is in it: that worker serves it, so
            # this one leaves it (:meth:`_hand_over`); until then it folds as ever, so a socket
            # that comes meanwhile finds the room as it is
            self._handing[code] = asyncio.create_task(self._hand_over(room))
        if (
            room is not None
            and body
            and n == room.version + 1
            and not room.lock.locked()  # nothing awaits between here and the fold: as if locked
            and code not in self._catching
            and not room.evicted
        ):
            try:
                ev = notice_event(n, body)
                if ev is not None:
                    public = self._fold(room, ev)
                    self._broadcast(room, public)
                    if ev.kind in _MOVES_GAME:
                        self._after_game_change(room)
                    return
            except Exception:
                log.exception("room %s could not fold event %d", code, n)
        if room is not None and n > room.version:  # folded when the room's lock is free ("": read it)
            self._notified.setdefault(code, {})[n] = body
        rooms = list(self.rooms.values()) if not code else [r for r in (room,) if r]
        for room in rooms:
            if (not code or n > room.version) and room.code not in self._catching:
                self._catching[room.code] = asyncio.create_task(self._catch_up_task(room, refresh=not code))

    def _on_note(self, note: dict[str, Any]) -> None:
        """Another worker's note about a room this worker may hold: a seat's mutes changed, a
        start asks for nonces, or a nonce came for this worker's gathering (:mod:`.cluster`)."""
        room = self.rooms.get(str(note.get("code")))
        if room is None or room.evicted:
            return
        kind = note.get("kind")
        if kind == "mute":
            seat = int(note["seat"])
            if 0 <= seat < len(room.seats):
                room.seats[seat].muted = {int(m) for m in note["muted"]}
                self._tell_mutes(room, seat)
        elif kind in ("ask", "nonce"):
            task = asyncio.create_task(self._gathering_note(room, note))
            self._note_tasks.add(task)
            task.add_done_callback(self._note_tasks.discard)

    async def _gathering_note(self, room: Room, note: dict[str, Any]) -> None:
        async with room.lock:
            if room.evicted:
                return
            if note["kind"] == "ask":
                remote_gathering(self, room, note)
            else:
                await take_remote_nonce(self, room, note)

    async def _hand_over(self, room: Room) -> None:
        """Leave a room to the worker that serves it: another worker committed an event of a room
        nobody is connected to here, so folding its events and building messages here only
        doubles the work (a room whose sockets all reach one worker, as a load balancer routing
        by room sends them, then costs one worker, not two). The room leaves this worker's memory
        and its ownership (bots, timers, grace) goes to a worker that has it loaded at its next
        tick, as when a worker stops; if someone connected here meanwhile it stays."""
        try:
            if await self._evict(room, lambda r: not r.conns):
                self.handed_over += 1
        finally:
            self._handing.pop(room.code, None)

    async def _catch_up_task(self, room: Room, refresh: bool = False) -> None:
        """Catch up once the room's lock is free: from the notices that came meanwhile when they
        follow on from the room's version (most often: the room was busy committing its own
        event), else from the store. ``refresh``: the listener reconnected and notes may have
        been missed, so the seats' mutes are read again too."""
        async with room.lock:
            self._catching.pop(room.code, None)
            notified = self._notified.pop(room.code, {})
            if room.evicted:
                return
            try:
                while room.version + 1 in notified:
                    ev = notice_event(room.version + 1, notified[room.version + 1])
                    if ev is None:
                        break
                    public = self._fold(room, ev)
                    self._broadcast(room, public)
                    if ev.kind in _MOVES_GAME:
                        self._after_game_change(room)
                if max(notified, default=0) > room.version or refresh or not notified:
                    self._catch_up(room)
                if refresh:
                    for index, muted in self.store.room_mutes(room.code).items():
                        if 0 <= index < len(room.seats):
                            room.seats[index].muted = muted
            except Exception:
                log.exception("room %s could not catch up", room.code)

    async def _tick_forever(self) -> None:
        while True:
            await asyncio.sleep(TICK)
            try:
                await self.tick()
            except Exception:
                log.exception("cluster tick failed")

    async def tick(self) -> None:
        """Publish who is connected here, take over rooms nobody owns, and start (or stop) grace
        periods by who is connected on any worker."""
        cluster = self.cluster
        assert cluster is not None
        cluster.sync_presence(local_presence(self.rooms))
        elsewhere = cluster.presence_elsewhere()
        for room in list(self.rooms.values()):
            if room.status == "over" or room.evicted:
                continue
            taken = not cluster.owns(room.code) and cluster.try_own(room.code)
            if not cluster.owns(room.code):
                continue
            async with room.lock:
                if room.evicted:
                    continue
                if taken:  # as after a restart: catch up, then bots and timers resume
                    self._catch_up(room)
                    self._after_game_change(room)
                if room.status != "playing":
                    continue
                key = room_key(room.code)
                for seat in room.seats:
                    away = seat.connections == 0 and (key, seat.index) not in elsewhere
                    if seat.kind != "human" or seat.stand_in:
                        continue
                    if away and seat.grace_task is None:
                        self._start_grace(room, seat)
                    elif not away and seat.grace_task is not None:
                        seat.grace_task.cancel()
                        seat.grace_task = None

    def _broadcast(self, room: Room, public: dict[str, Any]) -> None:
        if public["kind"] == "chat":
            msg = {"type": "chat", "version": room.version, "chat": public["chat"]}
            for conn in room.conns:
                if public["seat"] not in chat.muted_by(room, conn):
                    conn.send(msg)
            return
        info = self.public(room)
        views = SeatViews(room.state) if room.state is not None else None
        sent: dict[int | None, str] = {}  # a message depends only on its seat: encoded once each
        for conn in room.conns:
            text = sent.get(conn.seat)
            if text is None:
                text = sent[conn.seat] = encode(self._state_message(room, conn, info, public, views))
            conn.send(text)

    def public(self, room: Room) -> dict[str, Any]:
        """The room's public form; with several workers a seat connected on any of them shows
        ``connected`` (as of the last cluster tick), not only those with a socket here."""
        info = room.public()
        return self.cluster.mark_connected(room.code, info) if self.cluster is not None else info

    def _state_message(
        self,
        room: Room,
        conn: Connection,
        info: dict[str, Any],
        event: dict[str, Any] | None,
        views: SeatViews | None = None,
    ) -> dict[str, Any]:
        view = None
        if room.state is not None:
            view = (views or SeatViews(room.state)).view(conn.seat)  # public part built once a broadcast
            view = clocks.ended_view(room, view)
        return {
            "type": "state",
            "version": room.version,
            "you": {"seat": conn.seat, "host": conn.seat is not None and conn.seat == room.host_seat},
            "room": info,
            "view": view,
            "event": event,
        }

    # ------------------------------------------------------------ connections

    async def connect(self, room: Room, conn: Connection, hello: Hello) -> Room:
        """Authenticate a socket by its seat token (or none: a spectator) and send a full snapshot.

        Returns the room the socket is now in (loaded again if it had left memory meanwhile)."""
        while True:
            room = await self._live(room)
            async with room.lock:
                if room.evicted:
                    continue
                await self._connect_locked(room, conn, hello)
                return room

    async def _connect_locked(self, room: Room, conn: Connection, hello: Hello) -> None:
        seat = None
        if hello.token is not None:
            digest = hash_token(hello.token)
            for s in room.seats:
                if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
                    seat = s
            if seat is None:
                raise ProtocolError("bad_token", N_("this token holds no seat in this room"))
        if seat is not None:
            if seat.grace_task is not None:
                seat.grace_task.cancel()
                seat.grace_task = None
            if seat.stand_in and room.status == "playing" and not clocks.is_flagged(room, seat.index):
                await self.commit(room, "back", seat.index, {"seat": seat.index}, game_change=True)
            attach(conn, seat)
        conn.authed = True
        room.conns.add(conn)
        room.active_at = time.monotonic()
        welcome = self._state_message(room, conn, self.public(room), None)
        welcome.update(
            type="welcome", chat=chat.audible(room, conn, list(room.chat)), log=list(room.log)[-100:]
        )
        welcome["muted"] = sorted(chat.muted_by(room, conn))  # the page's mute buttons, after a reconnect
        conn.send(welcome)

    async def disconnect(self, room: Room, conn: Connection) -> None:
        async with room.lock:
            if conn not in room.conns:
                return
            room.conns.discard(conn)
            room.active_at = time.monotonic()
            if conn.seat is None:
                return
            seat = room.seats[conn.seat]
            if detach(conn, seat) and seat.kind == "human" and room.status == "playing":
                self._start_grace(room, seat)

    def _start_grace(self, room: Room, seat: Seat) -> None:
        """Table rule: a player away longer than the grace period is replaced by a bot."""
        if not self._owns(room):
            return
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
                and self._owns(room)
                and (self.cluster is None or seat.index not in self.cluster.present_elsewhere(room.code))
            ):
                await self.commit(room, "away", seat.index, {"seat": seat.index}, game_change=True)

    # ------------------------------------------------------------ commands

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
        async with room.lock:
            await handler(self, room, conn, msg)

    async def apply_action(
        self, room: Room, seat: int, action: int, card: int | None, auto: str = ""
    ) -> None:
        state = need_state(room)
        if clocks.overdue(room, seat, time.time()):  # a move that arrives after the flag fell
            await self._flag(room, seat)
            refused = N_("your time ran out before this move arrived: the move is refused")
            raise ProtocolError("flag_fell", refused)
        trial = state.copy()
        before = len(trial.history)
        try:
            trial.apply(action, seat, card=card)
        except IllegalActionError as exc:
            raise events.refusal("illegal", exc) from None
        used = played_card(before, trial)
        data: dict[str, Any] = {"action": action, "card": card_name(used) if used is not None else None}
        if auto:
            data["auto"] = auto
        await self.commit(room, "action", seat, data, game_change=True, after=trial)

    # ------------------------------------------------------------ bots and timers

    def _after_game_change(self, room: Room) -> None:
        """Wake the bots if one must act, and arm the turn timer for a human. Holds ``room.lock``."""
        if room.gathering is not None and not room.gathering.remote:
            return  # a start waits for nonces: the room's timer is its deadline (commands.gather)
        if room.timer_task is not None:
            room.timer_task.cancel()
            room.timer_task = None
        room.deadline = None
        self._arm_clock(room)
        state = room.state
        if state is None or room.status != "playing":
            return
        if (
            room.bot_task is None
            and self._owns(room)
            and any(room.bot_controls(s) for s in state.seats_to_act())
        ):
            room.bot_task = asyncio.create_task(self._drive_bots(room))
        seconds = room.config.get("turn_seconds") or 0
        actor = state.current_seat
        if not self._owns(room):  # another worker runs this room's bots and timers
            if seconds > 0 and not room.bot_controls(actor):
                room.deadline = time.time() + seconds
            return
        if seconds > 0 and not room.bot_controls(actor):
            room.deadline = time.time() + seconds
            room.timer_task = asyncio.create_task(self._turn_timer(room, room.game_version, actor, seconds))

    def _bot_level(self, room: Room, seat: int) -> str:
        s = room.seats[seat]
        return s.bot_level if s.kind == "bot" and s.bot_level else self.stand_in_level

    async def _drive_bots(self, room: Room) -> None:
        """Play for every bot-controlled seat that must act; the thinking runs in :class:`BotRunner`."""
        try:
            while True:
                async with room.lock:
                    state = room.state
                    actors = [] if state is None or room.status != "playing" else state.seats_to_act()
                    seat = next((s for s in actors if room.bot_controls(s)), None)
                    if seat is None or state is None or room.evicted:
                        room.bot_task = None
                        return
                    view = state.view(seat)
                    version = room.game_version
                    level = self._bot_level(room, seat)
                delay, think = clocks.bot_pace(room, seat, self.bot_delay, self.bots.seconds, time.time())
                if delay:
                    await asyncio.sleep(delay)
                action, used = await self.bots.choose(level, view, room.bot_seconds, think)
                room.bot_seconds += used
                async with room.lock:
                    if room.game_version != version or room.state is None or room.status != "playing":
                        continue
                    if action not in room.state.legal_actions(seat):
                        legal = room.state.legal_actions(seat)
                        action = legal[self._rng.randrange(len(legal))]
                    # a person's seat played by a bot standing in says so (an event's ``auto``)
                    auto = "stand_in" if room.seats[seat].kind == "human" else ""
                    with contextlib.suppress(ProtocolError):  # stale: another worker moved first
                        await self.apply_action(room, seat, action, None, auto=auto)
        except asyncio.CancelledError:
            raise
        except Exception:
            room.bot_task = None
            log.exception("bots of room %s stopped", room.code)
            raise

    def _arm_clock(self, room: Room) -> None:
        """Wake when the running clock runs out (clocks, not the turn timer). Holds ``room.lock``."""
        if room.clock_task is not None and room.clock_task is not asyncio.current_task():
            room.clock_task.cancel()
        room.clock_task = None
        if room.clocks is None or room.status != "playing" or not self._owns(room):
            return
        left = room.clocks.seconds_to_flag(time.time())
        if left is not None:
            room.clock_task = asyncio.create_task(self._clock_timer(room, left))

    async def _clock_timer(self, room: Room, seconds: float) -> None:
        await asyncio.sleep(seconds + 0.005)
        async with room.lock:
            if room.clock_task is not asyncio.current_task() or room.evicted:
                return
            room.clock_task = None
            seat = room.clocks.due(time.time()) if room.clocks and room.status == "playing" else None
            if seat is None:
                self._arm_clock(room)  # woken a little early, or the move passed meanwhile
            else:
                await self._flag(room, seat)

    async def _flag(self, room: Room, seat: int) -> None:
        """``seat``'s time ran out: store the ``flag`` event (a bot takes the seat, or its side
        loses, as the host chose). Holds ``room.lock``."""
        data = clocks.flag_data(room, seat, time.time())
        fields: dict[str, Any] | None = None
        if data["on_flag"] == "loss":
            state = need_state(room)
            sequences = [len(state.sequences(s)) for s in range(room.sides)]
            fields = {"status": "over", "result": clocks.flag_result(room.sides, seat, sequences)}
        await self.commit(room, "flag", seat, data, room_fields=fields, game_change=True)

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
            with contextlib.suppress(ProtocolError):  # stale: another worker moved first
                await self.apply_action(room, seat, pick, None, auto="turn timer")


def hint_card(action: int, hand: tuple[int, ...]) -> int | None:
    """The hand card an action uses (a jack of the right kind for a wild play or a removal)."""
    if action < 100:
        return LAYOUT[action]
    if action < 300:
        kind = is_two_eyed if action < 200 else is_one_eyed
        return next((c for c in hand if kind(c)), None)
    if action < DISCARD:
        return action - DEAD
    if action < DRAW:
        return action - DISCARD
    return None


_MOVES_GAME = frozenset({"start", "action", "rule", "away", "back", "flag"})
"""Event kinds after which bots may have to act or the turn timer starts again."""


def _room_tasks(room: Room) -> list[asyncio.Task[None]]:
    tasks = [t for t in (room.bot_task, room.timer_task, room.clock_task) if t]
    return tasks + [s.grace_task for s in room.seats if s.grace_task]
