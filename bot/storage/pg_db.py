"""The PostgreSQL connection pool (asyncpg) and its numbered migrations.

asyncpg, not an ORM: a direct, fast driver whose parameters and rows are typed by the server,
and the SQL is written by hand for each backend anyway (:mod:`bot.storage.sqlite` beside it).

Migrations are ``pg_migrations/NNNN_*.sql``, the twins of SQLite's ``migrations/NNNN_*.sql``
with the same numbers (``tests/bot/test_storage_backends.py`` checks both build the same tables
and columns). ``schema_version`` records the ones applied. Each runs in its own transaction that
first takes a transaction-scoped advisory lock, so workers starting together apply each one once:
the second waits for the first and then finds the number already recorded.
"""

from __future__ import annotations

from typing import TypeAlias

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from bot.storage.db import PG_MIGRATIONS, MigrationFailed, migrations

MIGRATION_LOCK = 0x6D75_736B_6100  # pg_advisory_xact_lock's key: "muska" in hex, any fixed number
POOL_SIZE = (1, 10)  # connections: units of work of different tables run side by side
Conn: TypeAlias = (  # a string: asyncpg's classes are generic only in its stubs
    "asyncpg.Connection[asyncpg.Record] | PoolConnectionProxy[asyncpg.Record]"
)


async def open_pool(url: str, *, readonly: bool = False) -> asyncpg.Pool[asyncpg.Record]:
    """A pool on ``url``, its schema migrated to the newest version; ``readonly``: not
    migrated, and every transaction of its connections is read-only (the server refuses any
    write)."""
    pool: asyncpg.Pool[asyncpg.Record] = await asyncpg.create_pool(
        url,
        min_size=POOL_SIZE[0],
        max_size=POOL_SIZE[1],
        reset=_keep_session,
        server_settings={"default_transaction_read_only": "on"} if readonly else None,
    )
    if readonly:
        return pool
    try:
        async with pool.acquire() as conn:
            await migrate(conn)
    except BaseException:
        await pool.close()
        raise
    return pool


async def _keep_session(conn: Conn) -> None:
    """A released connection keeps its session: the bot sets nothing on it (no SET, LISTEN or
    session lock), and asyncpg still rolls back a transaction left open. The default reset
    would cost a round trip per pooled statement."""


async def schema_version(conn: Conn | asyncpg.Pool[asyncpg.Record]) -> int:
    """How many migrations ran (0 before the first)."""
    exists = await conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
    if not exists:
        return 0
    return int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version"))


async def migrate(conn: Conn) -> int:
    """Apply every migration not recorded yet, each in its own locked transaction."""
    pending = migrations(PG_MIGRATIONS)
    current = await schema_version(conn)
    if current >= len(pending):
        return current  # the usual start: nothing to lock
    for number, sql in pending:
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_version ("
                " version INTEGER PRIMARY KEY,"
                " applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
            )
            current = await schema_version(conn)
            if number <= current:
                continue
            try:
                await conn.execute(sql)  # the file's statements, in this transaction
            except asyncpg.PostgresError as error:
                raise MigrationFailed(number, error) from error
            await conn.execute("INSERT INTO schema_version(version) VALUES ($1)", number)
            current = number
    return current
