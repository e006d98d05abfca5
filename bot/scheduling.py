"""The one task that runs scheduled work: stored deadlines, fired when due.

Deadlines live in the database (a restart loses none); this task keeps them in a heap, sleeps
until the earliest, and hands it as :class:`~bot.runtime.commands.DeadlineDue` to its inbox
(:meth:`bot.bus.Bus.fire`: the runtime's ``handle``, then delivery), one after another. New
deadlines arrive with each outcome (:meth:`add`); stale ones are dropped by the runtime when
they fire.

Several workers (``BOT_REDIS_URL``): one of them leads (a lease, :class:`RedisLeader`), and
only the leader fires; it reads the stored deadlines every ``poll`` seconds, so the deadlines
other workers' outcomes stored reach it, and each firing is claimed once. When the leader dies
its lease runs out and another worker leads, reading every deadline from the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
import time
from collections.abc import Awaitable, Callable

from bot.clock import Clock
from bot.coordination.locks import Leadership
from bot.runtime.commands import DeadlineDue, Inbox
from bot.storage.protocol import Repository
from bot.storage.rows import Deadline, DeadlineKind
from bot.tasks import cancelled

logger = logging.getLogger(__name__)


class Scheduler:
    def __init__(
        self,
        *,
        clock: Clock = time.time,
        leader: Leadership | None = None,
        stored: Callable[[], Awaitable[list[Deadline]]] | None = None,
        on_lead: Callable[[], Awaitable[object]] | None = None,
        poll: float = 0.25,
        lease: float = 10.0,
        look: float = 30.0,
    ) -> None:
        self._inbox: Inbox | None = None
        self._clock = clock
        self._leader = leader or Leadership()
        self._stored = stored
        self._on_lead = on_lead
        self._poll = poll
        self._look = look  # the longest sleep: the wall clock is looked at again this often
        self._lead_every = lease / 3
        self._next_lead = self._next_sync = 0.0
        self.leading = not self._leader.shared  # several workers: only the leader fires
        self._heap: list[tuple[float, int, DeadlineKind | str, int]] = []
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._current: dict[tuple[int, DeadlineKind | str], Deadline] = {}
        self.firing = False  # a fallen-due deadline's work is running now (a computer thinking)

    def add(self, deadline: Deadline) -> None:
        self._current[(deadline.table_id, deadline.kind)] = deadline
        heapq.heappush(
            self._heap, (deadline.due_at, deadline.table_id, deadline.kind, deadline.moves)
        )
        self._wake.set()

    def discard(self, table_id: int, kind: DeadlineKind | str) -> None:
        self._current.pop((table_id, kind), None)

    def pending(self) -> int:
        return len(self._current)

    def next_due(self) -> float | None:
        """When the earliest deadline falls due (None: nothing is scheduled)."""
        return min((d.due_at for d in self._current.values()), default=None)

    def start(self, deadlines: list[Deadline], inbox: Inbox) -> None:
        """Fire ``deadlines`` and every one added later into ``inbox`` as each falls due."""
        self._inbox = inbox
        for deadline in deadlines:
            self.add(deadline)
        self._task = asyncio.create_task(self._run(), name="scheduler")

    async def stop(self) -> None:
        await cancelled(self._task)
        self._task = None
        if self._leader.shared and self.leading:
            with contextlib.suppress(Exception):
                await self._leader.resign()
            self.leading = False

    async def _refresh(self) -> None:
        """Several workers: lead (or keep leading), and, leading, read the stored deadlines."""
        now = time.monotonic()
        if now >= self._next_lead:
            self._next_lead = now + self._lead_every
            was = self.leading
            try:
                self.leading = await self._leader.lead()
            except Exception:
                logger.exception("scheduler: could not reach the leader lease")
                self.leading = False
            if self.leading and not was:
                logger.info("scheduler: this worker leads now")
                self._next_sync = 0.0
                if self._on_lead is not None:
                    await self._on_lead()  # the heartbeat's downtime, counted once
            if not self.leading:
                self._current.clear()
                self._heap.clear()
        if self.leading and self._stored is not None and now >= self._next_sync:
            self._next_sync = now + self._poll
            self._current.clear()
            self._heap.clear()
            for deadline in await self._stored():
                self.add(deadline)

    def _waited(self, wait: float | None) -> float | None:
        if not self._leader.shared:
            return wait
        until = min(self._next_lead, self._next_sync if self.leading else self._next_lead)
        refresh = max(0.0, until - time.monotonic())
        return refresh if wait is None else min(wait, refresh)

    async def _run(self) -> None:
        while True:
            if self._leader.shared:
                try:
                    await self._refresh()
                except Exception:
                    logger.exception("scheduler: reading the deadlines failed")
            self._wake.clear()
            while self.leading and self._heap:
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
                if self._leader.shared and not await self._leader.claim(
                    f"{table_id}:{kind}:{due_at}:{moves}"
                ):
                    continue  # fired by another worker already
                self.firing = True
                try:
                    assert self._inbox is not None  # started
                    await self._inbox(DeadlineDue(current))
                except Exception:
                    logger.exception("deadline %s of table %s failed", kind, table_id)
                finally:
                    self.firing = False
            due = max(0.0, self._heap[0][0] - self._clock()) if self._heap else None
            pause = self._waited(None if due is None else min(due, self._look))
            # asyncio.timeout, not wait_for: Python 3.11's wait_for returns when the event is
            # set in the same loop step as a cancel (a stop), and the cancel is lost
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(pause):
                    await self._wake.wait()


class Heartbeat:
    """When the bot was last alive, written every ``every`` seconds (and at a clean stop), so
    that the time it was down is not counted against anyone (PRODUCT.md §13): at the start every
    stored deadline moves on by the downtime — one that fell due while the bot was down becomes
    now plus what was left of it when the bot stopped."""

    def __init__(
        self,
        repo: Repository,
        *,
        clock: Clock = time.time,
        every: float = 2.0,
        beating: Callable[[], bool] = lambda: True,
    ) -> None:
        self._repo = repo
        self._clock = clock
        self._every = every
        self._beating = beating  # several workers: only the scheduler's leader beats
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
        if not self._beating():
            return
        async with self._repo.unit() as tx:
            await tx.set_alive(self._clock())

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self._every)
            try:
                await self._beat()
            except Exception:
                logger.exception("heartbeat failed")
