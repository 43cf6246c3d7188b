"""The turn loop: after each change of the game, who must act and what happens if they do not.

Why a module of its own: a move by a person, a bot's move, the turn timer running out and a
chess clock's flag all end in the same place (:meth:`Turns.apply_action`, then the table's
``commit``), and after every change of the game the loop is armed again
(:meth:`Turns.after_game_change`): bots are woken, the turn timer and the running clock are set.
Only the worker that owns the room runs its bots and timers (:func:`.cluster.runs_here`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from typing import Any

from ..actions import DEAD, DISCARD, DRAW
from ..cards import card_name
from ..errors import IllegalActionError
from ..i18n import N_
from . import events, room_clocks
from .bot_runner import BotRunner
from .clocks import flag_result
from .cluster import Cluster, room_key, runs_here
from .commands import Table
from .eviction import unattended
from .protocol import ProtocolError
from .room_state import Room
from .rooms import need_state, played_card

log = logging.getLogger(__name__)

#: Seconds a bot waits, in a game with manual draws, for a person who owes a draw before it plays
#: (and so, by R5.3, takes that draw away): time to see one's play land and press Draw.
DRAW_WINDOW = 10.0


class Turns:
    """Plays for bots, runs the turn timer and the clocks, and applies every move."""

    def __init__(
        self,
        table: Table,
        cluster: Cluster | None,
        bots: BotRunner,
        rng: random.Random,
        *,
        bot_delay: float,
        stand_in_level: str,
    ) -> None:
        self.table = table
        self.cluster = cluster
        self.bots = bots
        self.rng = rng
        self.bot_delay = bot_delay
        """Seconds a bot waits before it moves, so people can follow the game."""
        self.stand_in_level = stand_in_level
        """The bot that plays for a person who is away."""

    def _owns(self, room: Room) -> bool:
        return runs_here(self.cluster, room.code)

    async def apply_action(
        self, room: Room, seat: int, action: int, card: int | None, auto: str = ""
    ) -> None:
        """Try ``seat``'s action on a copy of the game and commit it. Holds ``room.lock``."""
        state = need_state(room)
        if room_clocks.overdue(room, seat, time.time()):  # a move that arrives after the flag fell
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
        await self.table.commit(room, "action", seat, data, game_change=True, after=trial)

    def after_game_change(self, room: Room) -> None:
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
        self.wake(room)
        seconds = room.config.get("turn_seconds") or 0
        actor = state.current_seat
        if not self._owns(room):  # another worker runs this room's bots and timers
            if seconds > 0 and not room.bot_controls(actor):
                room.deadline = time.time() + seconds
            return
        if seconds > 0 and not room.bot_controls(actor):
            room.deadline = time.time() + seconds
            room.timer_task = asyncio.create_task(self._turn_timer(room, room.game_version, actor, seconds))

    def wake(self, room: Room) -> None:
        """Start the bots if one must act and someone is at the table (a spectator who came to a
        paused game, a player back); nothing if they already play. Holds ``room.lock``."""
        state = room.state
        if (
            room.bot_task is None
            and state is not None
            and room.status == "playing"
            and not room.evicted
            and self._owns(room)
            and any(room.bot_controls(s) for s in state.seats_to_act())
            and not self.nobody_at_table(room)
        ):
            room.bot_task = asyncio.create_task(self._drive_bots(room))

    def nobody_at_table(self, room: Room) -> bool:
        """No person is at this game, on this worker or another (:func:`.eviction.unattended`):
        its bots wait rather than play it out for nobody."""
        if not unattended(room):
            return False
        if self.cluster is None:
            return True
        key = room_key(room.code)
        return not any(k == key for k, _seat in self.cluster.seen_elsewhere)

    def _bot_level(self, room: Room, seat: int) -> str:
        s = room.seats[seat]
        return s.bot_level if s.kind == "bot" and s.bot_level else self.stand_in_level

    async def _drive_bots(self, room: Room) -> None:
        """Play for every bot-controlled seat that must act; the thinking runs in :class:`BotRunner`.

        With manual draws a bot waits up to :data:`DRAW_WINDOW` seconds for a person who owes a
        draw before it plays: R5.3's lost draw is about people at one table, and a bot's instant
        play must not take a person's draw before they could reach the button."""
        owing_since: dict[int, float] = {}  # each person who owes a draw: since when (monotonic)
        try:
            while True:
                async with room.lock:
                    state = room.state
                    actors = [] if state is None or room.status != "playing" else state.seats_to_act()
                    seat = next((s for s in actors if room.bot_controls(s)), None)
                    if seat is None or state is None or room.evicted or self.nobody_at_table(room):
                        room.bot_task = None
                        return
                    view = state.view(seat)
                    version = room.game_version
                    level = self._bot_level(room, seat)
                    kind = room.seats[seat].kind
                    now = time.monotonic()
                    owing = [s for s in actors if state.owes_draw(s) and not room.bot_controls(s)]
                    owing_since = {s: owing_since.get(s, now) for s in owing}
                if any(now - since < DRAW_WINDOW for since in owing_since.values()):
                    await asyncio.sleep(0.1)  # a person owes a draw: give them the window first
                    continue
                delay, think = room_clocks.bot_pace(
                    room, seat, self.bot_delay, self.bots.seconds, time.time()
                )
                if delay:
                    await asyncio.sleep(delay)
                action, used = await self.bots.choose(level, view, room.bot_seconds, think, room=room.code)
                room.bot_seconds += used
                async with room.lock:
                    if room.game_version != version or room.state is None or room.status != "playing":
                        continue
                    if not room.bot_controls(seat) or room.seats[seat].kind != kind:
                        continue  # the player came back meanwhile (``back``): the move is theirs
                    if action not in room.state.legal_actions(seat):
                        legal = room.state.legal_actions(seat)
                        action = legal[self.rng.randrange(len(legal))]
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
        data = room_clocks.flag_data(room, seat, time.time())
        fields: dict[str, Any] | None = None
        if data["on_flag"] == "loss":
            state = need_state(room)
            sequences = [len(state.sequences(s)) for s in range(room.sides)]
            fields = {"status": "over", "result": flag_result(room.sides, seat, sequences)}
        await self.table.commit(room, "flag", seat, data, room_fields=fields, game_change=True)

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
            pick = pool[self.rng.randrange(len(pool))]
            with contextlib.suppress(ProtocolError):  # stale: another worker moved first
                await self.apply_action(room, seat, pick, None, auto="turn timer")
