"""SQLite's runner: the statement groups' statements on one :class:`~bot.storage.db.Database`
(parameters only). Writes run only inside a unit (one ``BEGIN IMMEDIATE``), but for the few
committed on their own (:meth:`SqliteRunner.write`: a group commit of the writer)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from bot.storage.db import Database
from bot.storage.repository import SqlRepository
from bot.storage.rows import Row
from bot.storage.runner import SQLITE, Dialect


class SqliteRunner:
    """Runs statements on the one connection. A unit of work is the task's open transaction
    (:meth:`Database.transaction`, a context variable), so the runner inside a unit is this
    one."""

    def __init__(self, db: Database) -> None:
        self.db = db

    @property
    def dialect(self) -> Dialect:
        return SQLITE

    async def all(self, sql: str, params: Sequence[Any] = ()) -> Sequence[Row]:
        return await self.db.all(sql, params)

    async def one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        return await self.db.one(sql, params)

    async def run(self, sql: str, params: Sequence[Any] = ()) -> None:
        await self.db.execute(sql, params)

    async def write(self, sql: str, params: Sequence[Any] = ()) -> None:
        await self.db.write(sql, params)

    async def write_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        return await self.db.write_one(sql, params)

    async def insert(self, sql: str, params: Sequence[Any]) -> int:
        return await self.db.insert(sql, params)

    async def lock(self, key: int) -> None:
        """Nothing to take: SQLite's units run one at a time already (one process, one
        writer: :mod:`bot.storage.db`)."""

    @asynccontextmanager
    async def unit(self) -> AsyncIterator[SqliteRunner]:
        async with self.db.transaction():
            yield self

    async def schema_version(self) -> int:
        return await self.db.user_version()

    async def close(self) -> None:
        await self.db.close()


def sqlite_repository(db: Database) -> SqlRepository:
    """The repository on an open database."""
    return SqlRepository(SqliteRunner(db))


async def open_sqlite(path: Path, *, readonly: bool = False) -> SqlRepository:
    """The file opened (:meth:`Database.open`: checked and migrated, or ``readonly``)."""
    return sqlite_repository(await Database.open(path, readonly=readonly))
