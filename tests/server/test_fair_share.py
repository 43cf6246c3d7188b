"""Issue 42: the bot pool's slots are shared by address, not first come, first served.

Ten rooms of search bots opened from one address made another address's room wait behind all ten
(its bot's reply went from 1.6 s to 5.8-8.8 s). With :class:`FairSlots` a freed slot goes to the
owner served longest ago, so the other address waits for at most one job of the crowd per slot.
"""

from __future__ import annotations

import asyncio

from sequence_game.server.fair_share import FairSlots


async def _run(slots: FairSlots, owner: str, name: str, order: list[str], gate: asyncio.Event) -> None:
    await slots.acquire(owner)
    try:
        order.append(name)
        await gate.wait()
    finally:
        slots.release(owner)


async def _crowd_then_one(workers: int) -> list[str]:
    slots, order = FairSlots(workers), []
    gates = {}
    tasks = []
    for i in range(10):  # the crowd's ten rooms queue first
        gates[f"a{i}"] = asyncio.Event()
        tasks.append(asyncio.create_task(_run(slots, "crowd", f"a{i}", order, gates[f"a{i}"])))
        await asyncio.sleep(0)
    gates["b"] = asyncio.Event()
    tasks.append(asyncio.create_task(_run(slots, "other", "b", order, gates["b"])))
    await asyncio.sleep(0)
    while len(order) < 11:  # finish the running jobs one at a time, oldest first
        running = [name for name in order if not gates[name].is_set()]
        gates[running[0]].set()
        for _ in range(5):
            await asyncio.sleep(0)
    for gate in gates.values():  # the last job still runs: let it finish
        gate.set()
    await asyncio.wait_for(asyncio.gather(*tasks), 30)
    return order


def test_another_address_waits_for_one_job_of_the_crowd_not_ten() -> None:
    order = asyncio.run(_crowd_then_one(workers=1))
    assert order.index("b") == 1  # right after the job that held the only slot
    assert [n for n in order if n != "b"] == [f"a{i}" for i in range(10)]  # the crowd keeps its order


def test_with_several_slots_the_other_address_gets_the_first_free_one() -> None:
    order = asyncio.run(_crowd_then_one(workers=3))
    assert order.index("b") == 3


def test_an_owner_alone_uses_every_slot() -> None:
    async def main() -> int:
        slots = FairSlots(4)
        for _ in range(4):
            await asyncio.wait_for(slots.acquire("solo"), 5)
        return slots.free

    assert asyncio.run(main()) == 0


def test_a_cancelled_wait_gives_its_turn_on() -> None:
    async def main() -> list[str]:
        slots, order = FairSlots(1), []
        await slots.acquire("a")
        gone = asyncio.create_task(slots.acquire("b"))
        await asyncio.sleep(0)
        gone.cancel()
        await asyncio.gather(gone, return_exceptions=True)
        waiting = asyncio.create_task(slots.acquire("c"))
        await asyncio.sleep(0)
        slots.release("a")
        await asyncio.wait_for(waiting, 5)
        order.append("c")
        slots.release("c")
        return [*order, str(slots.free)]

    assert asyncio.run(main()) == ["c", "1"]
