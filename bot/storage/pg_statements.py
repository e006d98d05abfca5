"""The statements of :mod:`bot.storage.statements` in PostgreSQL's words: ``$n`` parameters,
``IS NOT DISTINCT FROM``, ``RETURNING id``, ``COLLATE "C"`` (to sort as SQLite sorts), with
:mod:`bot.storage.sqlite`'s semantics.

:class:`Statements` says only what runs; :mod:`bot.storage.postgres` says on which connection
(the pool, or a unit of work's transaction).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import asyncpg

from bot.storage.rows import Row
from bot.storage.statements import SqlStatements

Record = asyncpg.Record
RATINGS_LOCK = 0x35_4A71  # the ratings' advisory lock key (any number no other lock of ours uses)


def numbered(sql: str) -> str:
    """``sql`` with its ``?`` parameters numbered ``$1, $2, …`` (no statement of the bot has a
    ``?`` anywhere else)."""
    parts = sql.split("?")
    return "".join(f"{part}${i}" for i, part in enumerate(parts[:-1], start=1)) + parts[-1]


class Statements(SqlStatements):
    """Every statement; the subclass says which connection runs it (:meth:`_fetch`,
    :meth:`_fetchrow`, :meth:`_execute`, with ``$n`` parameters)."""

    SAME: ClassVar[str] = "IS NOT DISTINCT FROM"
    BYTES: ClassVar[str] = ' COLLATE "C"'

    async def _fetch(self, sql: str, *args: Any) -> list[Record]:
        raise NotImplementedError

    async def _fetchrow(self, sql: str, *args: Any) -> Record | None:
        raise NotImplementedError

    async def _execute(self, sql: str, *args: Any) -> None:
        raise NotImplementedError

    async def lock_ratings(self) -> None:
        """A transaction-level advisory lock (several workers rate at once; #35)."""
        await self._execute("SELECT pg_advisory_xact_lock($1)", RATINGS_LOCK)

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> Sequence[Row]:
        return await self._fetch(numbered(sql), *params)

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        return await self._fetchrow(numbered(sql), *params)

    async def _run(self, sql: str, params: Sequence[Any] = ()) -> None:
        await self._execute(numbered(sql), *params)

    async def _write(self, sql: str, params: Sequence[Any] = ()) -> None:
        await self._execute(numbered(sql), *params)

    async def _write_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        return await self._fetchrow(numbered(sql), *params)

    async def _insert(self, sql: str, params: Sequence[Any]) -> int:
        row = await self._fetchrow(numbered(sql + " RETURNING id"), *params)
        assert row is not None
        return int(row["id"])
