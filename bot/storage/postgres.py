"""The PostgreSQL implementation of :class:`bot.storage.protocol.Repository` (asyncpg).

Its statements are :mod:`bot.storage.pg_statements`; here is where they run: a unit of work
is one pooled connection in one transaction, committed once at its end (its reads see its
writes); reads outside a unit, the outbox's message store and the update claims each run on a
pooled connection by themselves (autocommit).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import asyncpg

from bot.storage.pg_db import Conn, open_pool, schema_version
from bot.storage.pg_statements import Record, Statements
from bot.storage.protocol import SecretName, Writes


class _Unit(Statements):
    """The statements of one unit of work: one connection inside its transaction."""

    def __init__(self, conn: Conn) -> None:
        self.conn = conn

    async def _fetch(self, sql: str, *args: Any) -> list[Record]:
        return await self.conn.fetch(sql, *args)

    async def _fetchrow(self, sql: str, *args: Any) -> Record | None:
        return await self.conn.fetchrow(sql, *args)

    async def _execute(self, sql: str, *args: Any) -> None:
        await self.conn.execute(sql, *args)


class PgRepository(Statements):
    """Reads and the autocommit writes on the pool; :meth:`unit` for everything else."""

    def __init__(self, pool: asyncpg.Pool[Record]) -> None:
        self.pool = pool

    @classmethod
    async def open(cls, url: str, *, readonly: bool = False) -> PgRepository:
        return cls(await open_pool(url, readonly=readonly))

    async def close(self) -> None:
        await self.pool.close()

    @asynccontextmanager
    async def unit(self) -> AsyncIterator[Writes]:
        async with self.pool.acquire() as conn, conn.transaction():
            yield _Unit(conn)

    async def _fetch(self, sql: str, *args: Any) -> list[Record]:
        return await self.pool.fetch(sql, *args)

    async def _fetchrow(self, sql: str, *args: Any) -> Record | None:
        return await self.pool.fetchrow(sql, *args)

    async def _execute(self, sql: str, *args: Any) -> None:
        await self.pool.execute(sql, *args)

    # --- for the operator: /healthz and ``check`` -----------------------------------------

    async def ping(self) -> bool:
        return bool(await self.pool.fetchval("SELECT 1") == 1)

    async def schema_version(self) -> int:
        return await schema_version(self.pool)

    async def secret(self, name: SecretName, fresh: str) -> str:
        await self._execute(
            "INSERT INTO secrets(name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
            name,
            fresh,
        )
        return str(await self.pool.fetchval("SELECT value FROM secrets WHERE name = $1", name))

    async def count(self, table: str) -> int:
        """Rows in ``table`` (a name the caller owns, never user input)."""
        return int(await self.pool.fetchval(f"SELECT COUNT(*) FROM {table}"))
