"""A fair share of the bot pool's slots: owners take turns, least recently served first.

Why: the pool's slots went first come, first served, and each room had one job at a time, so
rooms took turns, but an address with ten rooms of search bots had ten turns for every one of
another address's room: its bots' replies went from 1.6 s to 5.8-8.8 s (issue 42). Here each job
names its owner (the address that created its room, or the room itself when that is not known);
a freed slot goes to the waiting owner served longest ago, and an owner's own jobs go in order.
Nothing is reserved: one owner alone uses every slot.

>>> async def demo() -> list[str]:
...     slots, order = FairSlots(1), []
...     await slots.acquire("a")  # a runs; two more of a's and one of b's wait
...     async def job(owner: str, name: str) -> None:
...         await slots.acquire(owner)
...         order.append(name)
...         slots.release(owner)
...     waiting = [asyncio.create_task(job(o, n)) for o, n in (("a", "a2"), ("a", "a3"), ("b", "b1"))]
...     await asyncio.sleep(0)
...     slots.release("a")
...     await asyncio.gather(*waiting)
...     return order
>>> asyncio.run(demo())
['b1', 'a2', 'a3']
"""

from __future__ import annotations

import asyncio
import itertools
from collections import deque


class FairSlots:
    """``slots`` jobs at once; a freed slot goes to the waiting owner served longest ago."""

    def __init__(self, slots: int) -> None:
        self.free = max(1, slots)
        self._waiting: dict[str, deque[asyncio.Future[None]]] = {}
        self._running: dict[str, int] = {}
        self._served: dict[str, int] = {}
        """When each owner with jobs waiting or running was last given a slot (a counter)."""
        self._clock = itertools.count()

    def waiting(self) -> int:
        """Jobs waiting for a slot."""
        return sum(len(q) for q in self._waiting.values())

    async def acquire(self, owner: str) -> None:
        """Wait for a slot for a job of ``owner``."""
        if self.free > 0 and not self._waiting:
            self.free -= 1
            self._grant(owner)
            return
        ticket: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(owner, deque()).append(ticket)
        try:
            await ticket
        except asyncio.CancelledError:
            if ticket.done() and not ticket.cancelled():
                self.release(owner)  # the slot came as the wait was cancelled: pass it on
            else:
                queue = self._waiting.get(owner)
                if queue is not None and ticket in queue:
                    queue.remove(ticket)
                    if not queue:
                        del self._waiting[owner]
                self._forget(owner)
            raise

    def release(self, owner: str) -> None:
        """A job of ``owner`` is done: its slot goes to the next waiting owner, or back to the pool."""
        self._running[owner] = self._running.get(owner, 1) - 1
        if self._running[owner] <= 0:
            del self._running[owner]
        self._forget(owner)
        while self._waiting:
            # never served (-1) first, then the one served longest ago
            chosen = min(self._waiting, key=lambda o: self._served.get(o, -1))
            queue = self._waiting[chosen]
            ticket = queue.popleft()
            if not queue:
                del self._waiting[chosen]
            if not ticket.done():
                self._grant(chosen)
                ticket.set_result(None)
                return
        self.free += 1

    def _grant(self, owner: str) -> None:
        self._running[owner] = self._running.get(owner, 0) + 1
        self._served[owner] = next(self._clock)

    def _forget(self, owner: str) -> None:
        """An owner with nothing waiting or running needs no turn kept (its next job comes first
        again, as nothing of it is in the pool)."""
        if owner not in self._waiting and owner not in self._running:
            self._served.pop(owner, None)
