"""Bot thinking off the event loop: a bounded pool of processes, a fair share for every room and
every address, and a cap on the thinking one room may use.

Thinking in a thread held the interpreter lock, so six rooms of search bots slowed every other
room's moves by a hundredfold. Here a search bot thinks in a separate process; each room has at
most one job in the pool at a time (its bots act one after another), and a freed slot goes to
the address (the room's creator, :attr:`BotRunner.owners`) served longest ago
(:class:`.fair_share.FairSlots`), so addresses take turns and, within one, its rooms do: ten rooms
opened from one address cannot crowd out another's. A room that has used its budget of thinking
(``Limits.room_bot_seconds``) gets instant moves instead. The easy bot (``random``) costs
microseconds and runs in place.

>>> from sequence_game import GameConfig, new_game
>>> state = new_game(GameConfig(players=2), seed=1)
>>> think_in_worker("greedy", 1, state.view(state.current_seat), 0.1)[0] in state.legal_actions()
True
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import random
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any, TypeVar

from ..actions import DEAD, DISCARD, DRAW
from ..analysis.threads import ONE_THREAD
from ..bots import Limit, available_bots, make_bot, table_spec
from ..views import PlayerView
from .children import BOT_NICE, leave_with_parent
from .fair_share import FairSlots

if TYPE_CHECKING:
    from ..evaluator.advice import Advice

log = logging.getLogger(__name__)

#: Bots that decide at once: not worth a trip to another process.
INSTANT = frozenset({"random"})


def think_in_worker(level: str, seed: int, view: PlayerView, seconds: float) -> tuple[int, float]:
    """Runs in a pool process: a fresh bot (bots keep nothing between moves) picks one action.

    Returns it with the seconds it took, so a room is billed for thinking, not for waiting."""
    start = time.monotonic()
    bot = make_bot(table_spec(level), seed=seed)  # a level's bot plays with the level's options
    action = int(bot.select_action(view, Limit(seconds=seconds)))
    return action, time.monotonic() - start


def advise_in_worker(view: PlayerView, seed: int) -> Advice:
    """Runs in a pool process: the hint for ``view``, the expert's play explained by the
    evaluator (:mod:`sequence_game.analysis.hint`)."""
    from ..analysis.hint import hint

    return hint(view, random.Random(seed))


def _start_child(parent: int, nice: int) -> None:
    """A pool process's start: one BLAS thread for the evaluator's small products (before NumPy
    loads: ``analysis.threads`` says why), then tied to the server's life at a lower priority."""
    for name in ONE_THREAD:
        os.environ.setdefault(name, "1")
    leave_with_parent(parent, nice)


def instant_action(view: PlayerView, rng: random.Random) -> int:
    """A random legal move that draws when a draw is owed (R5.3) and exchanges dead cards (R5.1)."""
    acts = list(view.legal_actions)
    if DRAW in acts:
        return DRAW
    dead = [a for a in acts if DEAD <= a < DISCARD]
    pool = dead or acts
    return int(pool[rng.randrange(len(pool))])


class PoolUnavailable(RuntimeError):
    """The bot pool could not take a job (its processes cannot start)."""


class PoolJobFailed(RuntimeError):
    """A job in the bot pool failed or overran its time (the cause says which)."""


T = TypeVar("T")


class BotRunner:
    """Chooses bot moves: in ``workers`` processes, one job per room at a time, within a budget."""

    def __init__(self, *, workers: int, seconds: float, room_budget: float, rng: random.Random) -> None:
        self.workers = max(1, workers)
        self.seconds = seconds
        self.room_budget = room_budget
        self._rng = rng
        self._pool: Executor | None = None
        self._slots = FairSlots(self.workers)
        self.owners: dict[str, str] = {}
        """Who each room belongs to for its share of the pool (its creator's address, by room
        code); a room not listed (loaded from the store) is its own owner."""

    def _executor(self) -> Executor:
        if self._pool is None:
            # spawn: a fresh interpreter, not a fork of a process running an event loop and threads
            ctx = multiprocessing.get_context("spawn")
            # the pool's processes exit with the server and think at a lower priority than the
            # event loop (server/children.py)
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=ctx,
                initializer=_start_child,
                initargs=(os.getpid(), BOT_NICE),
            )
        return self._pool

    async def choose(
        self, level: str, view: PlayerView, spent: float, seconds: float | None = None, *, room: str = ""
    ) -> tuple[int, float]:
        """An action for ``view`` by a bot of ``level``, and the seconds of thinking it used.

        ``spent``: the room's thinking so far. ``seconds``: a fixed budget instead of the server's
        (hints). ``room``: its code, for its owner's turn in the pool. A failing or overrunning
        bot, or a room over its budget, gets :func:`instant_action`."""
        if level not in available_bots():
            level = "random"
        left = self.room_budget - spent
        if level in INSTANT or left <= 0:
            return instant_action(view, self._rng), 0.0
        seconds = min(self.seconds if seconds is None else seconds, left)
        try:
            # generous: the first job also waits for the pool's process to start
            return await self._in_pool(
                seconds * 2 + 10, room, think_in_worker, level, self._rng.getrandbits(32), view, seconds
            )
        except PoolUnavailable:  # a pool that cannot start must not stop the game
            return instant_action(view, self._rng), 0.0
        except PoolJobFailed as exc:  # a slow or failing bot plays a random legal move
            log.warning("bot %s failed (%r): a random legal move instead", level, exc.__cause__)
            return instant_action(view, self._rng), seconds

    async def advise(self, view: PlayerView, timeout: float = 30, *, room: str = "") -> Advice | None:
        """The hint for ``view``, worked out in the pool (its NumPy work stays off the
        event loop); ``None`` if the pool fails or takes over ``timeout`` seconds (the first job
        also waits for the pool's process to start and load NumPy; it goes on, so the next is quick)."""
        try:
            return await self._in_pool(timeout, room, advise_in_worker, view, self._rng.getrandbits(32))
        except PoolUnavailable:
            return None
        except PoolJobFailed as exc:
            log.warning("hint failed (%r)", exc.__cause__)
            return None

    async def _in_pool(self, timeout: float, room: str, job: Callable[..., T], *args: Any) -> T:
        """``job(*args)`` for ``room`` in a pool process, a slot held until the process is really
        done (owners take turns for the slots: :class:`.fair_share.FairSlots`). Raises
        :class:`PoolUnavailable` if the pool cannot take it, :class:`PoolJobFailed` if it fails or
        takes over ``timeout`` seconds."""
        owner = self.owners.get(room) or room
        slots = self._slots
        await slots.acquire(owner)
        try:
            future = asyncio.get_running_loop().run_in_executor(self._executor(), job, *args)
        except Exception as exc:
            slots.release(owner)
            log.exception("bot pool unavailable")
            self._reset()
            raise PoolUnavailable from exc
        # the slot is freed when the process is really done, even if we stop waiting for it
        future.add_done_callback(lambda _f: slots.release(owner))
        try:
            return await asyncio.wait_for(asyncio.shield(future), timeout=timeout)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if isinstance(exc, BrokenProcessPool):
                self._reset()
            raise PoolJobFailed from exc

    def _reset(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            with contextlib.suppress(Exception):
                pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        self._reset()
