"""Ratings, the "Play now" queue and players' pages over HTTP; the worker's matchmaker task.

==============================  ================================================================
``GET /api/queue``              ``{entry, waiting, formats, time_controls}``: this account's entry
                                (``waiting``, ``matched`` or ``paired`` with ``code, seat, token``)
                                and how many wait per format
``POST /api/queue``             ``{format, time_control, bots_after?}``: wait for a game
``DELETE /api/queue``           leave the queue (``{cancelled}``; false once a room is being made)
``POST /api/queue/done``        the page has its room: the paired entry (and its token) goes
``GET /api/leaderboard``        ``?format=2p``: the best 50 by ``mu - 3 sigma``
``GET /api/players/{name}``     ratings per format, "plays like", rated games (unless hidden)
``POST /api/account/history``   ``{hide}``: hide one's rated games from others
==============================  ================================================================

The matchmaker runs on every worker (:class:`Matchmaker`): about once a second it gives back
claims a dead worker left, claims groups (:meth:`.matchmaking.Queue.claim`) and makes each
group's room: every seat taken with the account's name, the game started at once (as "Play a bot
now"), then the entries marked paired. The player's page polls ``GET /api/queue`` and goes to the
room. A finished game is rated by the worker that committed its last move (:meth:`Play.game_over`);
one left unrated by a worker killed meanwhile, by a sweep at start and every minute.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, Literal

from fastapi import FastAPI, Request
from pydantic import BaseModel, ConfigDict, Field

from ..i18n import N_
from .account_routes import AccountRoutes
from .account_store import AccountStore
from .manager import RoomManager
from .matchmaking import TABLES, TIME_CONTROLS, Group, Queue
from .names import BadName, check_name, name_key
from .protocol import CreateRoom, ProtocolError
from .ratings import FORMATS, SWEEP_SECONDS, GameOver, Ratings, bot_anchors, game_over_of, plays_like
from .report_routes import Reports
from .room_state import Room
from .store import Store, unreachable_errors

log = logging.getLogger(__name__)

#: Seconds between two rounds of pairing on a worker.
PAIR_SECONDS = 1.0


class JoinQueue(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    format: Literal["2p", "3p", "2t", "3t"]
    time_control: Literal["none", "3+2", "10+5"] = "none"
    bots_after: int | None = Field(default=None, ge=0, le=600)


class HideHistory(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    hide: bool


class Play:
    """Ratings, the queue and players' pages of one application."""

    def __init__(self, store: Store, manager: RoomManager, accounts: AccountRoutes, reports: Reports) -> None:
        self.manager = manager
        self.accounts = accounts
        self.reports = reports
        self.ratings = Ratings(store)
        self.queue = Queue(store)
        self.account_db = AccountStore(store)
        self.anchors = bot_anchors()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._loop: asyncio.Task[None] | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self.paired = 0
        """Groups this worker made rooms for (for ``/health``)."""
        manager.on_game_over = self.game_over

    # ---------------------------------------------------------------- ratings

    def game_over(self, room: Room) -> None:
        """A game this worker ended: rate it off the loop (once: :meth:`.ratings.Ratings.rate`)."""
        over = game_over_of(room)
        if over is not None:
            self._spawn(asyncio.to_thread(self._rate, over))

    def _rate(self, over: GameOver) -> None:
        """Rate a game, unless a banned account holds one of its seats (banned during the game:
        nobody's rating moves, the game stays casual)."""
        if self._void(over):
            log.info("room %s: game %d not rated, a banned account played it", over.code, over.game)
            return
        self.ratings.rate(over)

    def _void(self, over: GameOver) -> bool:
        """Whether a banned account held a seat of the game (then marked decided, unrated)."""
        return self.reports.db.void_if_banned(over.code, over.game, over.players, over.sides)

    async def _sweep_forever(self) -> None:
        """At start and every :data:`.ratings.SWEEP_SECONDS`: rate the finished games of rated
        rooms that a killed worker left unrated (:meth:`.ratings.Ratings.sweep`)."""
        while True:
            try:
                if rated := await asyncio.to_thread(self.ratings.sweep, None, self._void):
                    log.warning("rated %d finished game(s) left unrated (a worker stopped first)", rated)
            except asyncio.CancelledError:
                raise
            except unreachable_errors() as exc:
                log.warning("rating sweep paused: the database cannot be reached (%s)", type(exc).__name__)
            except Exception:
                log.warning("rating sweep failed", exc_info=True)
            await asyncio.sleep(SWEEP_SECONDS)

    def _spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if task.cancelled() or task.exception() is None:
            return
        exc = task.exception()
        if isinstance(exc, unreachable_errors()):
            log.warning("rating or pairing not done: the database cannot be reached (%s)", type(exc).__name__)
        else:
            log.error("rating or pairing failed", exc_info=exc)

    # ---------------------------------------------------------------- the matchmaker

    def start(self) -> None:
        if self._loop is None:
            self._loop = asyncio.create_task(self._forever())
            self._sweeper = asyncio.create_task(self._sweep_forever())

    async def close(self) -> None:
        tasks = [t for t in (self._loop, self._sweeper, *self._tasks) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task

    async def _forever(self) -> None:
        while True:
            try:
                await self.pair_once()
            except asyncio.CancelledError:
                raise
            except unreachable_errors() as exc:  # down or restarting: one line, the next round retries
                log.warning("pairing paused: the database cannot be reached (%s)", type(exc).__name__)
            except Exception:
                log.warning("pairing round failed", exc_info=True)
            await asyncio.sleep(PAIR_SECONDS)

    async def pair_once(self) -> int:
        """One round: give back dead claims, claim groups, make their rooms. Returns groups made."""
        await asyncio.to_thread(self.queue.recover)
        made = 0
        for group in await asyncio.to_thread(self.queue.claim):
            try:
                made += await self._seat(group)
            except Exception:
                log.exception("could not make a room for a queued group")
                await asyncio.to_thread(self.queue.release, group)
        return made

    async def _seat(self, group: Group) -> int:
        players, sides = TABLES[group.format]
        minutes, increment = TIME_CONTROLS[group.time_control]
        first = group.seats[0]
        body = CreateRoom(
            players=players,
            teams=sides if sides != players else None,
            name=first.name,
            seat=0,
            clock_minutes=minutes,
            clock_increment=increment,
            clock_flag="loss",
            rated=not group.bots,
        )
        manager = self.manager
        room, token = await manager.create(body, limited=False)
        tokens = {first.account_id: (0, token)}
        for seat, entry in enumerate(group.seats[1:], 1):
            tokens[entry.account_id] = (seat, await manager.take_seat(room, seat, entry.name))
        for account_id, (seat, _token) in tokens.items():
            await asyncio.to_thread(self.account_db.link_seat, room.code, seat, account_id, False)
        if not await asyncio.to_thread(self.queue.paired, group, room.code, tokens):
            return 0  # given back meanwhile (this worker was too slow): the lobby expires unused
        level = self._bot_level(group) if group.bots else "easy"
        await manager.fill_and_start(room, level)
        self.paired += 1
        return 1

    def _bot_level(self, group: Group) -> str:
        """The bot level nearest the queued people's ratings ("medium" where none is measured)."""
        mu = sum(e.mu for e in group.seats) / len(group.seats)
        return plays_like(group.format, mu, self.anchors) or "medium"

    # ---------------------------------------------------------------- HTTP

    def install(self, app: FastAPI) -> None:
        accounts, queue, ratings = self.accounts, self.queue, self.ratings

        @app.get("/api/queue")
        async def queue_status(request: Request) -> dict[str, Any]:
            found = await accounts.current(request)
            entry = None if found is None else await asyncio.to_thread(queue.status, found[0].id)
            return {
                "entry": entry,
                "waiting": await asyncio.to_thread(queue.counts),
                "formats": list(TABLES),
                "time_controls": list(TIME_CONTROLS),
            }

        @app.post("/api/queue", status_code=201)
        async def join_queue(body: JoinQueue, request: Request) -> dict[str, Any]:
            account, _token = await accounts.required(request)
            await self.reports.refuse_rated(account)  # a banned account plays no rated game
            mu = await asyncio.to_thread(ratings.mu, account.id, body.format)
            bots = None if body.bots_after is None else float(body.bots_after)
            await asyncio.to_thread(
                queue.join, account.id, account.name, body.format, body.time_control, mu, bots
            )
            return {"entry": await asyncio.to_thread(queue.status, account.id)}

        @app.delete("/api/queue")
        async def leave_queue(request: Request) -> dict[str, Any]:
            account, _token = await accounts.required(request)
            return {"cancelled": await asyncio.to_thread(queue.cancel, account.id)}

        @app.post("/api/queue/done")
        async def queue_done(request: Request) -> dict[str, Any]:
            account, _token = await accounts.required(request)
            await asyncio.to_thread(queue.done, account.id)
            return {"ok": True}

        @app.get("/api/leaderboard")
        async def leaderboard(format: str = "2p") -> dict[str, Any]:
            if format not in FORMATS:
                raise ProtocolError("bad_format", N_("no such format"))
            return {
                "format": format,
                "players": await asyncio.to_thread(ratings.leaderboard, format),
                "bots": self.anchors.get(format, {}),
            }

        @app.get("/api/players/{name}")
        async def player(name: str, request: Request) -> dict[str, Any]:
            try:  # a name no account can have (a NUL, a lone surrogate) never reaches the database
                key = name_key(check_name(name)) if len(name) <= 64 else None
            except BadName:
                key = None
            account = None if key is None else await asyncio.to_thread(self.account_db.by_key, key)
            if account is None:
                shown_name = name[:64].encode("utf-8", "replace").decode("utf-8")
                raise ProtocolError("no_player", N_("no player {name}"), params={"name": shown_name})
            found = await accounts.current(request)
            own = found is not None and found[0].id == account.id
            page = await asyncio.to_thread(ratings.page, account.id, own)
            for fmt, shown in page["ratings"].items():
                shown["plays_like"] = plays_like(fmt, shown["mu"], self.anchors)
            return {"name": account.name, "own": own, **page}

        @app.post("/api/account/history")
        async def hide_history(body: HideHistory, request: Request) -> dict[str, Any]:
            account, _token = await accounts.required(request)
            await asyncio.to_thread(ratings.set_hidden, account.id, body.hide)
            return {"hidden": body.hide}
