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
        self._queued: list[tuple[str, tuple[Any, ...], asyncio.Future[None]]] = []
        self._flusher: asyncio.Task[None] | None = None

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
        if self._flusher is not None:
            await self._flusher
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
        """One statement, committed when this returns, never inside another task's open
        transaction. The writes that wait for the writer together are committed together (a
        group commit: one transaction, one ``executemany`` for a run of the same statement);
        should the group fail, each is run again alone and fails or succeeds on its own."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queued.append((sql, tuple(params), done))
        if self._flusher is None:
            self._flusher = asyncio.create_task(self._flush())
        await asyncio.shield(done)

    async def _flush(self) -> None:
        batch: list[tuple[str, tuple[Any, ...], asyncio.Future[None]]] = []
        try:
            while self._queued:
                async with self._writer:
                    batch, self._queued = self._queued, []
                    await self._write_batch(batch)
        finally:
            self._flusher = None
            for _, _, done in batch:  # cancelled (the loop is closing): nobody waits forever
                if not done.done():
                    done.cancel()

    async def _write_batch(
        self, batch: list[tuple[str, tuple[Any, ...], asyncio.Future[None]]]
    ) -> None:
        if len(batch) > 1:
            try:
                await self.conn.execute("BEGIN IMMEDIATE")
                at = 0
                while at < len(batch):
                    end = at + 1
                    while end < len(batch) and batch[end][0] == batch[at][0]:
                        end += 1
                    await self.conn.executemany(batch[at][0], [p for _, p, _ in batch[at:end]])
                    at = end
                await self.conn.execute("COMMIT")
            except BaseException as error:
                if self.conn.in_transaction:
                    await self.conn.execute("ROLLBACK")
                if not isinstance(error, Exception):
                    raise
                # one of them failed: each is run on its own, below
            else:
                for _, _, done in batch:
                    if not done.done():
                        done.set_result(None)
                return
        for sql, params, done in batch:
            try:
                await self.execute(sql, params)
            except Exception as error:
                if not done.done():
                    done.set_exception(error)
            else:
                if not done.done():
                    done.set_result(None)

    async def write_one(self, sql: str, params: Iterable[Any] = ()) -> aiosqlite.Row | None:
        """Like :meth:`write`, for a statement with ``RETURNING``: its first row."""
        async with self._writer:
            return await self.one(sql, params)

    # One trip to aiosqlite's thread a statement: a statement is run to its end there (a write
    # on ``execute``, every row with ``execute_fetchall``), so its cursor holds nothing and is
    # left to be dropped rather than closed in a second trip.

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Run one statement; the last row id."""
        cursor = await self.conn.execute(sql, tuple(params))
        return cursor.lastrowid or 0

    async def one(self, sql: str, params: Iterable[Any] = ()) -> aiosqlite.Row | None:
        """The first row of a query of one row (a key, a count, ``RETURNING``)."""
        rows = await self.conn.execute_fetchall(sql, tuple(params))
        for row in rows:
            return row
        return None

    async def all(self, sql: str, params: Iterable[Any] = ()) -> list[aiosqlite.Row]:
        return list(await self.conn.execute_fetchall(sql, tuple(params)))


def _statements(sql: str) -> list[str]:
    lines = [ln for ln in sql.splitlines() if not ln.strip().startswith("--")]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]
