"""How a statement runs: the :class:`Runner` every statement group is given.

A statement group (``chats_sql``, ``tables_sql``, ``play_sql``, ``upkeep_sql``, ``outbox_sql``,
``ratings_sql``, ``pacing_sql``) is a plain class written once for both backends: its SQL uses
``?`` parameters and the SQL both backends speak (``ON CONFLICT``, ``TRUE``/``FALSE``), the few
words that differ come from the runner's :class:`Dialect`, and it runs each statement through its
runner. Each backend has one runner: :class:`bot.storage.sqlite.SqliteRunner` (aiosqlite, the
group-committing writer of :mod:`bot.storage.db`) and :class:`bot.storage.postgres.PgRunner`
(asyncpg; numbers the parameters ``$1, $2, …``). :class:`bot.storage.repository.SqlRepository`
composes the groups over a runner. Rows come back as the frozen dataclasses of
:mod:`bot.storage.rows`.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, Protocol, Self

from bot.storage.rows import Row


@dataclass(frozen=True, slots=True)
class Dialect:
    """The words of SQL the two backends spell differently."""

    same: str  # null-safe equality: ``a IS b`` / ``a IS NOT DISTINCT FROM b``
    by_bytes: str  # after a text column: sort it by its bytes (SQLite's default; PostgreSQL's "C")


SQLITE = Dialect(same="IS", by_bytes="")
POSTGRES = Dialect(same="IS NOT DISTINCT FROM", by_bytes=' COLLATE "C"')


class Runner(Protocol):
    """Runs one statement (``?`` parameters) on a backend's connection.

    :meth:`all` and :meth:`one` read; :meth:`run` writes as part of the current unit of work;
    :meth:`write` and :meth:`write_one` write on their own, committed when they return (SQLite
    commits a group of them together); :meth:`insert` returns the new row's id."""

    @property
    def dialect(self) -> Dialect: ...

    async def all(self, sql: str, params: Sequence[Any] = ()) -> Sequence[Row]: ...

    async def one(self, sql: str, params: Sequence[Any] = ()) -> Row | None: ...

    async def run(self, sql: str, params: Sequence[Any] = ()) -> None: ...

    async def write(self, sql: str, params: Sequence[Any] = ()) -> None: ...

    async def write_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        """Like :meth:`write`, for a statement with ``RETURNING``: its first row."""
        ...

    async def insert(self, sql: str, params: Sequence[Any]) -> int:
        """Run one ``INSERT`` in the current unit of work: the new row's ``id``."""
        ...

    async def lock(self, key: int) -> None:
        """Hold the lock ``key`` for the rest of the unit of work (units that take it run one
        after the other; SQLite's units do anyway: one writer)."""
        ...

    def unit(self) -> AbstractAsyncContextManager[Self]:
        """One unit of work: the runner its statements run on, committed together at the end,
        or not at all."""
        ...


class Backend(Runner, Protocol):
    """A runner on a whole database: what a repository is opened on."""

    async def schema_version(self) -> int:
        """How many migrations ran."""
        ...

    async def close(self) -> None: ...


def where(conditions: Sequence[tuple[str, int | None]]) -> tuple[str, list[int]]:
    """A ``WHERE`` clause of the conditions whose value is given, and those values."""
    given = [(sql, value) for sql, value in conditions if value is not None]
    clause = ("WHERE " + " AND ".join(sql for sql, _ in given)) if given else ""
    return clause, [value for _, value in given]
