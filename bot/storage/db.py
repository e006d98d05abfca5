"""The one SQLite connection (aiosqlite, WAL, foreign keys) and numbered migrations.

Migrations are ``migrations/NNNN_*.sql`` files; ``PRAGMA user_version`` says how many ran. Each
runs in its own transaction at start-up.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
PG_MIGRATIONS = MIGRATIONS.parent / "pg_migrations"  # PostgreSQL's twins, the same numbers
_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


def migrations(folder: Path = MIGRATIONS) -> list[tuple[int, str]]:
    """``(number, sql)`` of every migration file, in order; numbers are 1, 2, … without gaps."""
    found = sorted(
        (int(m.group(1)), p.read_text(encoding="utf-8"))
        for p in folder.iterdir()
        if (m := _NAME.match(p.name))
    )
    if [n for n, _ in found] != list(range(1, len(found) + 1)):
        raise RuntimeError("migrations must be numbered 0001, 0002, … without gaps")
    return found


class Database:
    """Owns the connection. ``transaction()`` is one explicit write transaction."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn
        self._writer = asyncio.Lock()  # one connection: transactions of tasks must not interleave

    @classmethod
    async def open(cls, path: Path) -> Database:
        if str(path) != ":memory:":
            path.parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(path, isolation_level=None)
        conn.row_factory = aiosqlite.Row
        await conn.execute("PRAGMA journal_mode=WAL")
        await conn.execute("PRAGMA synchronous=NORMAL")
        await conn.execute("PRAGMA foreign_keys=ON")
        await conn.execute("PRAGMA busy_timeout=5000")
        db = cls(conn)
        await db.migrate()
        return db

    async def close(self) -> None:
        await self.conn.close()

    async def user_version(self) -> int:
        row = await self.one("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def migrate(self) -> int:
        current = await self.user_version()
        for number, sql in migrations():
            if number <= current:
                continue
            await self.conn.execute("BEGIN IMMEDIATE")
            try:
                for statement in _statements(sql):
                    await self.conn.execute(statement)
                await self.conn.execute(f"PRAGMA user_version = {number}")
                await self.conn.execute("COMMIT")
            except BaseException:
                await self.conn.execute("ROLLBACK")
                raise
            current = number
        return current

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        async with self._writer:
            await self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                await self.conn.execute("ROLLBACK")
                raise
            await self.conn.execute("COMMIT")

    async def write(self, sql: str, params: Iterable[Any] = ()) -> None:
        """One statement that is a transaction of its own (autocommit), never inside another
        task's open transaction."""
        async with self._writer:
            await self.execute(sql, params)

    async def write_one(self, sql: str, params: Iterable[Any] = ()) -> aiosqlite.Row | None:
        """Like :meth:`write`, for a statement with ``RETURNING``: its first row."""
        async with self._writer:
            return await self.one(sql, params)

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Run one statement; the last row id."""
        cursor = await self.conn.execute(sql, tuple(params))
        rowid = cursor.lastrowid or 0
        await cursor.close()
        return rowid

    async def one(self, sql: str, params: Iterable[Any] = ()) -> aiosqlite.Row | None:
        async with self.conn.execute(sql, tuple(params)) as cursor:
            row: aiosqlite.Row | None = await cursor.fetchone()
            return row

    async def all(self, sql: str, params: Iterable[Any] = ()) -> list[aiosqlite.Row]:
        async with self.conn.execute(sql, tuple(params)) as cursor:
            return list(await cursor.fetchall())


def _statements(sql: str) -> list[str]:
    lines = [ln for ln in sql.splitlines() if not ln.strip().startswith("--")]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]
