"""PostgreSQL's runner (asyncpg): the statement groups' statements in PostgreSQL's words —
``$n`` parameters, ``RETURNING id`` — with :mod:`bot.storage.sqlite`'s semantics.

A unit of work is one pooled connection in one transaction, committed once at its end (its reads
see its writes); reads outside a unit, the outbox's message store and the update claims each run
on a pooled connection by themselves (autocommit).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any, TypeAlias

import asyncpg

from bot.storage.pg_db import Conn, open_pool, schema_version
from bot.storage.repository import SqlRepository
from bot.storage.rows import Row
from bot.storage.runner import POSTGRES, Dialect

Record = asyncpg.Record
Pool: TypeAlias = "asyncpg.Pool[asyncpg.Record]"  # a string: generic only in asyncpg's stubs


def numbered(sql: str) -> str:
    """``sql`` with its ``?`` parameters numbered ``$1, $2, …`` (no statement of the bot has a
    ``?`` anywhere else)."""
    parts = sql.split("?")
    return "".join(f"{part}${i}" for i, part in enumerate(parts[:-1], start=1)) + parts[-1]


class PgRunner:
    """Runs statements on the pool (each by itself, autocommit) or on a unit of work's
    connection (in its transaction)."""

    def __init__(self, conn: Pool | Conn) -> None:
        self.conn = conn

    @property
    def dialect(self) -> Dialect:
        return POSTGRES

    async def all(self, sql: str, params: Sequence[Any] = ()) -> Sequence[Row]:
        return await self.conn.fetch(numbered(sql), *params)

    async def one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        return await self.conn.fetchrow(numbered(sql), *params)

    async def run(self, sql: str, params: Sequence[Any] = ()) -> None:
        await self.conn.execute(numbered(sql), *params)

    async def write(self, sql: str, params: Sequence[Any] = ()) -> None:
        await self.conn.execute(numbered(sql), *params)

    async def write_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        return await self.conn.fetchrow(numbered(sql), *params)

    async def insert(self, sql: str, params: Sequence[Any]) -> int:
        row = await self.conn.fetchrow(numbered(sql + " RETURNING id"), *params)
        assert row is not None
        return int(row["id"])

    async def lock(self, key: int) -> None:
        """A transaction-level advisory lock (several workers share the database)."""
        await self.conn.execute("SELECT pg_advisory_xact_lock($1)", key)

    @asynccontextmanager
    async def unit(self) -> AsyncIterator[PgRunner]:
        pool = self.conn
        if not isinstance(pool, asyncpg.Pool):  # a unit's connection: a unit in it is part of it
            yield self
            return
        async with pool.acquire() as conn, conn.transaction():
            yield PgRunner(conn)

    async def schema_version(self) -> int:
        return await schema_version(self.conn)

    async def close(self) -> None:
        """The pool closed (a unit's connection goes back to the pool with its unit)."""
        if isinstance(self.conn, asyncpg.Pool):
            await self.conn.close()


async def open_postgres(url: str, *, readonly: bool = False) -> SqlRepository:
    """A repository on a pool on ``url`` (:func:`open_pool`: migrated, or ``readonly``)."""
    return SqlRepository(PgRunner(await open_pool(url, readonly=readonly)))
