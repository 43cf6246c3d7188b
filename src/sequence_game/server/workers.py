"""This worker among the others: rooms it owns, events and notes other workers send, hand-over.

Why a module of its own: with several workers over one database (:mod:`.cluster`), every worker
with a room loaded folds the events any of them commits (announced by a notice), so each builds
its own sockets' messages; only the room's owner runs its bots, timers and grace, and a worker that
dies has its rooms taken over at the next tick. Notes carry what is not an event: a seat's mutes,
and the nonces of a deal being gathered on another worker. With one worker (no cluster) most of
this does nothing, and the rest (mutes, the event being committed) works the same.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from .broadcast import Broadcaster
from .cluster import TICK, Cluster, local_presence, room_key
from .commands import Table, remote_gathering, take_remote_nonce
from .json_text import encode
from .presence import Presence
from .room_state import Room
from .store import EventRow, Store, notice_event
from .turns import Turns

log = logging.getLogger(__name__)

MOVES_GAME = frozenset({"start", "action", "rule", "away", "back", "flag"})
"""Event kinds after which bots may have to act or the turn timer starts again."""

#: Folds a committed event into a room in memory, returning its public form (the manager's).
Fold = Callable[[Room, EventRow], dict[str, Any]]
#: Drops a room from memory if ``still(room)`` holds once its lock is taken (the manager's).
Evict = Callable[[Room, Callable[[Room], bool]], Awaitable[bool]]


class Workers:
    """Follows the other workers: folds their events, answers their notes, owns and hands over rooms."""

    def __init__(
        self,
        cluster: Cluster | None,
        store: Store,
        rooms: dict[str, Room],
        broadcaster: Broadcaster,
        turns: Turns,
        presence: Presence,
        *,
        table: Table,
        fold: Fold,
        evict: Evict,
    ) -> None:
        self.cluster = cluster
        """Set when several workers share the database: see :mod:`.cluster`."""
        self.store = store
        self.rooms = rooms
        """The manager's rooms in memory, by code (shared, never replaced)."""
        self.broadcaster = broadcaster
        self.turns = turns
        self.presence = presence
        self.table = table
        self.fold = fold
        self.evict = evict
        self.handed_over = 0
        """Rooms left to the worker serving them (:meth:`_hand_over`)."""
        self._catching: dict[str, asyncio.Task[None]] = {}
        """Rooms with a catch-up on its way (many notifications need only one)."""
        self._handing: dict[str, asyncio.Task[None]] = {}
        """Rooms being left to the worker serving them (:meth:`_hand_over`)."""
        self._notified: dict[str, dict[int, str]] = {}
        """Announced events of rooms that were busy (locked) when their notice came, by number."""
        self._committing: dict[str, int] = {}
        """The latest event number each room committed (or is committing) here."""
        self._note_tasks: set[asyncio.Task[None]] = set()
        """Other workers' notes being applied (each waits for its room's lock)."""
        self._ticker: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Listen to the other workers and tick (needs a running event loop; nothing when alone)."""
        if self.cluster is not None and self._ticker is None:
            self.cluster.listen(asyncio.get_running_loop(), self.on_notify, self.on_note)
            self._ticker = asyncio.create_task(self._tick_forever())

    def tasks(self) -> list[asyncio.Task[None]]:
        """The tasks to cancel at shutdown: the ticker and the hand-overs under way."""
        return [t for t in (self._ticker,) if t] + list(self._handing.values())

    def close(self) -> None:
        if self.cluster is not None:
            self.cluster.close()

    # ------------------------------------------------------------ ownership

    def try_own(self, room: Room) -> bool:
        if self.cluster is None:
            return True
        try:
            return self.cluster.try_own(room.code)
        except Exception:
            log.exception("could not take room %s", room.code)
            return False

    def committing(self, code: str, n: int) -> None:
        """This worker is committing event ``n`` of room ``code``: its own notice, which may come
        before the commit is folded here, needs no catch-up."""
        self._committing[code] = n

    def forget(self, code: str) -> None:
        """Room ``code`` left this worker's memory: another worker may own it now."""
        self._committing.pop(code, None)
        self._notified.pop(code, None)
        if self.cluster is not None:
            self.cluster.release(code)

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
        self.broadcaster.mutes(room, seat)

    def present_elsewhere(self, room: Room) -> set[int]:
        """Seats of ``room`` another worker had a socket on at the last cluster tick."""
        if self.cluster is None:
            return set()
        key = room_key(room.code)
        return {seat for k, seat in self.cluster.seen_elsewhere if k == key}

    def tell(self, room: Room, kind: str, **data: Any) -> None:
        """A note to the other workers holding ``room`` (nothing without a cluster)."""
        if self.cluster is not None:
            self.cluster.note(room.code, kind, **data)

    # ------------------------------------------------------------ other workers' events

    def _follow(self, room: Room, ev: EventRow) -> None:
        """Fold another worker's event and send it on; the turn loop is armed by the caller."""
        public = self.fold(room, ev)
        self.broadcaster.event(room, public)

    def catch_up(self, room: Room) -> None:
        """Fold and send the events other workers committed since ``room.version``. Holds the lock."""
        moved = False
        for ev in self.store.events_after(room.code, room.version):
            if ev.n != room.version + 1:
                raise RuntimeError(f"room {room.code}: event {ev.n} follows {room.version}")
            self._follow(room, ev)
            moved = moved or ev.kind in MOVES_GAME
        if moved:
            self.turns.after_game_change(room)

    def refresh(self, room: Room) -> None:
        """Before a socket is welcomed: with several workers, read what the store has beyond the
        room in memory. A notice may have been missed (the listener lost its connection, a
        database restart) or not yet come; a welcome from memory alone was then stale and its
        player's moves refused (issue 42). One query, only when a socket comes. Holds the lock."""
        if self.cluster is not None:
            self.catch_up(room)

    def on_notify(self, code: str, n: int, body: str) -> None:
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
                    self._follow(room, ev)
                    if ev.kind in MOVES_GAME:
                        self.turns.after_game_change(room)
                    return
            except Exception:
                log.exception("room %s could not fold event %d", code, n)
        if room is not None and n > room.version:  # folded when the room's lock is free ("": read it)
            self._notified.setdefault(code, {})[n] = body
        rooms = list(self.rooms.values()) if not code else [r for r in (room,) if r]
        for room in rooms:
            if (not code or n > room.version) and room.code not in self._catching:
                self._catching[room.code] = asyncio.create_task(self._catch_up_task(room, refresh=not code))

    def on_note(self, note: dict[str, Any]) -> None:
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
                self.broadcaster.mutes(room, seat)
        elif kind in ("ask", "nonce"):
            task = asyncio.create_task(self._gathering_note(room, note))
            self._note_tasks.add(task)
            task.add_done_callback(self._note_tasks.discard)

    async def _gathering_note(self, room: Room, note: dict[str, Any]) -> None:
        async with room.lock:
            if room.evicted:
                return
            if note["kind"] == "ask":
                remote_gathering(self.table, room, note)
            else:
                await take_remote_nonce(self.table, room, note)

    async def _hand_over(self, room: Room) -> None:
        """Leave a room to the worker that serves it: another worker committed an event of a room
        nobody is connected to here, so folding its events and building messages here only
        doubles the work (a room whose sockets all reach one worker, as a load balancer routing
        by room sends them, then costs one worker, not two). The room leaves this worker's memory
        and its ownership (bots, timers, grace) goes to a worker that has it loaded at its next
        tick, as when a worker stops; if someone connected here meanwhile it stays."""
        try:
            if await self.evict(room, lambda r: not r.conns):
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
                    self._follow(room, ev)
                    if ev.kind in MOVES_GAME:
                        self.turns.after_game_change(room)
                if max(notified, default=0) > room.version or refresh or not notified:
                    self.catch_up(room)
                if refresh:
                    for index, muted in self.store.room_mutes(room.code).items():
                        if 0 <= index < len(room.seats):
                            room.seats[index].muted = muted
            except Exception:
                log.exception("room %s could not catch up", room.code)

    # ------------------------------------------------------------ the tick

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
                    self.catch_up(room)
                    self.turns.after_game_change(room)
                if room.status != "playing":
                    continue
                self.presence.follow(room, elsewhere)
                self.turns.wake(room)  # someone came, on another worker, to a game paused for nobody
