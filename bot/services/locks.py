"""Per-table locks: one update per table at a time, tables in parallel; idle locks are dropped."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager


class TableLocks:
    def __init__(self) -> None:
        self._locks: dict[int, tuple[asyncio.Lock, int]] = {}

    @asynccontextmanager
    async def hold(self, table_id: int) -> AsyncIterator[None]:
        lock, users = self._locks.get(table_id, (asyncio.Lock(), 0))
        self._locks[table_id] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[table_id]
            if users <= 1:
                del self._locks[table_id]
            else:
                self._locks[table_id] = (lock, users - 1)

    def __len__(self) -> int:
        return len(self._locks)
