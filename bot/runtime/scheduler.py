"""The one task that runs scheduled work: stored deadlines, fired when due.

Deadlines live in the database (a restart loses none); this task keeps them in a heap, sleeps
until the earliest, and hands it to ``fire`` (the app: runtime, then delivery). New deadlines
arrive with each outcome (:meth:`add`); stale ones are dropped by the runtime when they fire.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
import time
from collections.abc import Awaitable, Callable

from bot.storage.protocol import Repository
from bot.storage.rows import Deadline

logger = logging.getLogger(__name__)
Clock = Callable[[], float]


async def cancelled(task: asyncio.Task[None] | None) -> None:
    """Cancel a background task and wait until it has stopped."""
    if task is not None:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


class Scheduler:
    def __init__(
        self, fire: Callable[[Deadline], Awaitable[None]], *, clock: Clock = time.time
    ) -> None:
        self._fire = fire
        self._clock = clock
        self._heap: list[tuple[float, int, str, int]] = []
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._current: dict[tuple[int, str], Deadline] = {}
        self.firing = False  # a fallen-due deadline's work is running now (a computer thinking)

    def add(self, deadline: Deadline) -> None:
        self._current[(deadline.table_id, deadline.kind)] = deadline
        heapq.heappush(
            self._heap, (deadline.due_at, deadline.table_id, deadline.kind, deadline.moves)
        )
        self._wake.set()

    def discard(self, table_id: int, kind: str) -> None:
        self._current.pop((table_id, kind), None)

    def pending(self) -> int:
        return len(self._current)

    def next_due(self) -> float | None:
        """When the earliest deadline falls due (None: nothing is scheduled)."""
        return min((d.due_at for d in self._current.values()), default=None)

    def start(self, deadlines: list[Deadline]) -> None:
        for deadline in deadlines:
            self.add(deadline)
        self._task = asyncio.create_task(self._run(), name="scheduler")

    async def stop(self) -> None:
        await cancelled(self._task)
        self._task = None

    async def _run(self) -> None:
        while True:
            self._wake.clear()
            while self._heap:
                due_at, table_id, kind, moves = self._heap[0]
                current = self._current.get((table_id, kind))
                if current is None or (current.due_at, current.moves) != (due_at, moves):
                    heapq.heappop(self._heap)  # replaced or discarded since
                    continue
                wait = due_at - self._clock()
                if wait > 0:
                    break
                heapq.heappop(self._heap)
                del self._current[(table_id, kind)]
                self.firing = True
                try:
                    await self._fire(current)
                except Exception:
                    logger.exception("deadline %s of table %s failed", kind, table_id)
                finally:
                    self.firing = False
            if self._heap:
                wait = max(0.0, self._heap[0][0] - self._clock())
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), timeout=wait)
            else:
                await self._wake.wait()


class Heartbeat:
    """When the bot was last alive, written every ``every`` seconds (and at a clean stop), so
    that the time it was down is not counted against anyone (PRODUCT.md §13): at the start every
    stored deadline moves on by the downtime — one that fell due while the bot was down becomes
    now plus what was left of it when the bot stopped."""

    def __init__(self, repo: Repository, *, clock: Clock = time.time, every: float = 2.0) -> None:
        self._repo = repo
        self._clock = clock
        self._every = every
        self._task: asyncio.Task[None] | None = None

    async def resume(self) -> float:
        """Move every deadline on by the time since the last beat; that time (0: none)."""
        last = await self._repo.alive_at()
        now = self._clock()
        down = max(0.0, now - last) if last is not None else 0.0
        async with self._repo.unit() as tx:
            if down > 0:
                await tx.shift_deadlines(down)
            await tx.set_alive(now)
        return down

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="heartbeat")

    async def stop(self) -> None:
        await cancelled(self._task)
        self._task = None
        await self._beat()

    async def _beat(self) -> None:
        async with self._repo.unit() as tx:
            await tx.set_alive(self._clock())

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self._every)
            try:
                await self._beat()
            except Exception:
                logger.exception("heartbeat failed")
