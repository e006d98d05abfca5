"""Per-table locks: one update per table at a time, tables in parallel; idle locks are dropped.
Also the scheduler's :class:`Leadership` of one process (it always leads).

:class:`TableLocks` serializes one process's tasks; :class:`bot.coordination.redis_locks.RedisLocks`
(``BOT_REDIS_URL``) serializes every worker's, behind the same small :class:`Locks` protocol.
A hold yields its :class:`Turn`: with shared locks the table's turn counter, which tells the
runtime whether another worker held the table since its own last turn (its copy is stale).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True)
class Turn:
    """One hold of a table's lock. ``version``: how many holds the table has had, by every
    worker, this one included (shared locks); 0 in-process, where no copy is ever stale."""

    version: int = 0


class Locks(Protocol):
    shared: bool  # True: other processes hold these locks too (versions count)

    def hold(self, table_id: int) -> AbstractAsyncContextManager[Turn]: ...


class TableLocks:
    shared = False

    def __init__(self) -> None:
        self._locks: dict[int, tuple[asyncio.Lock, int]] = {}

    @asynccontextmanager
    async def hold(self, table_id: int) -> AsyncIterator[Turn]:
        lock, users = self._locks.get(table_id, (asyncio.Lock(), 0))
        self._locks[table_id] = (lock, users + 1)
        try:
            async with lock:
                yield Turn()
        finally:
            lock, users = self._locks[table_id]
            if users <= 1:
                del self._locks[table_id]
            else:
                self._locks[table_id] = (lock, users - 1)

    def __len__(self) -> int:
        return len(self._locks)


class Leadership:
    """In one process: always the leader (the scheduler fires everything)."""

    shared = False

    async def lead(self) -> bool:
        return True

    async def claim(self, name: str) -> bool:
        return True

    async def resign(self) -> None:
        return None
