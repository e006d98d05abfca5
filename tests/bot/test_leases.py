"""A lease's renewal (``bot.coordination.redis_locks.kept``) is never cancelled mid-way when its
block ends: redis-py's asyncio client may wait for ever after a command cancelled between its
request and its answer, and with it every later call on that lock (the capacity benchmark's
2-worker run)."""

from __future__ import annotations

import asyncio

from bot.coordination.redis_locks import kept


async def test_a_renewal_on_its_way_when_the_block_ends_is_let_finish() -> None:
    started, finished, cancelled = 0, 0, 0

    async def renew() -> None:
        nonlocal started, finished, cancelled
        started += 1
        try:
            await asyncio.sleep(0.2)  # a slow answer from Redis
        except asyncio.CancelledError:
            cancelled += 1
            raise
        finished += 1

    async with kept(0.01, renew):
        await asyncio.sleep(0.05)  # the first renewal is on its way now
    assert (started, finished, cancelled) == (1, 1, 0)
    await asyncio.sleep(0.05)
    assert started == 1  # none after the block


async def test_renewals_come_every_period_while_the_block_runs() -> None:
    times: list[float] = []
    loop = asyncio.get_running_loop()

    async def renew() -> None:
        times.append(loop.time())

    async with kept(0.02, renew):
        await asyncio.sleep(0.15)
    assert 4 <= len(times) <= 8, times
