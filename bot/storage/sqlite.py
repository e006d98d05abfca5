"""The SQLite implementation of :class:`bot.storage.protocol.Repository`: the statements of
:mod:`bot.storage.statements` run on one :class:`~bot.storage.db.Database` (parameters only),
rows as the frozen dataclasses of :mod:`bot.storage.rows`."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from bot.storage.db import Database
from bot.storage.protocol import SecretName, Writes
from bot.storage.rows import Row
from bot.storage.statements import SqlStatements


class SqliteRepository(SqlStatements):
    """All reads and writes; writes only inside :meth:`unit` (one ``BEGIN IMMEDIATE``), but for
    the few committed on their own (:meth:`_write`: a group commit of the writer)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    @classmethod
    async def open(cls, path: Path, *, readonly: bool = False) -> SqliteRepository:
        return cls(await Database.open(path, readonly=readonly))

    async def close(self) -> None:
        await self.db.close()

    @asynccontextmanager
    async def unit(self) -> AsyncIterator[Writes]:
        async with self.db.transaction():
            yield self

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> Sequence[Row]:
        return await self.db.all(sql, params)

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        return await self.db.one(sql, params)

    async def _run(self, sql: str, params: Sequence[Any] = ()) -> None:
        await self.db.execute(sql, params)

    async def _write(self, sql: str, params: Sequence[Any] = ()) -> None:
        await self.db.write(sql, params)

    async def _write_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        return await self.db.write_one(sql, params)

    async def _insert(self, sql: str, params: Sequence[Any]) -> int:
        return await self.db.insert(sql, params)

    # --- for the operator: /healthz and ``check`` -----------------------------------------

    async def ping(self) -> bool:
        return await self.db.one("SELECT 1", ()) is not None

    async def schema_version(self) -> int:
        return await self.db.user_version()

    async def secret(self, name: SecretName, fresh: str) -> str:
        await self.db.write(
            "INSERT INTO secrets(name, value) VALUES (?, ?) ON CONFLICT(name) DO NOTHING",
            (name, fresh),
        )
        row = await self.db.one("SELECT value FROM secrets WHERE name = ?", (name,))
        assert row is not None  # just stored, or stored before
        return str(row["value"])

    async def count(self, table: str) -> int:
        """Rows in ``table`` (a name the caller owns, never user input)."""
        row = await self.db.one(f"SELECT COUNT(*) FROM {table}", ())
        return int(row[0]) if row else 0
