"""The database a test runs against, and plain SQL on it from the test's side.

Unset ``BOT_TEST_DATABASE``: a SQLite file in the test's temporary folder. Set to a PostgreSQL
URL (``postgresql://postgres@127.0.0.1:PORT/postgres``, what ``.ci/services.sh`` starts): each
test gets a database of its own, created from a template migrated once per session (``CREATE
DATABASE … TEMPLATE``, a file copy: far quicker than migrating each) and dropped after it.

:func:`db_rows` and :func:`db_execute` take SQLite's ``?`` placeholders for either backend and
run on a connection of their own, as a person with a database shell would; PostgreSQL's run in
a thread with its own event loop, so that a synchronous check works inside the test's loop, and
give values back as SQLite does (booleans as 0/1), so one assertion holds for both.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import re
import sqlite3
import threading
from collections.abc import Awaitable, Callable
from decimal import Decimal
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

ENV = "BOT_TEST_DATABASE"
T = TypeVar("T")
TestDatabase = Path | str  # a SQLite file, or a PostgreSQL URL


def test_url() -> str | None:
    """The PostgreSQL server the suite runs against (None: SQLite)."""
    return os.environ.get(ENV) or None


class _SqlThread:
    """One thread with its own event loop that runs the tests' own PostgreSQL statements, and
    keeps one connection per database open (a fresh connection per check would cost more than
    the check: the bot's loop waits while a test polls the database)."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._conns: dict[str, Any] = {}
        self._start = threading.Lock()

    def run(self, work: Callable[[], Awaitable[T]]) -> T:
        """``work()`` run on the thread's loop; the caller blocks until it ends (60 s at most)."""
        with self._start:
            if self._loop is None:
                self._loop = asyncio.new_event_loop()
                threading.Thread(
                    target=self._loop.run_forever, name="test-sql", daemon=True
                ).start()

        async def main() -> T:
            return await work()

        return asyncio.run_coroutine_threadsafe(main(), self._loop).result(60)

    async def conn(self, url: str) -> Any:
        import asyncpg

        if url not in self._conns or self._conns[url].is_closed():
            self._conns[url] = await asyncpg.connect(url, server_settings={"lock_timeout": "10s"})
        return self._conns[url]

    async def forget(self, url: str) -> None:
        conn = self._conns.pop(url, None)
        if conn is not None:
            await conn.close()


_SQL = _SqlThread()  # the tests' one helper thread (started on first use, a daemon)


def in_thread(work: Callable[[], Awaitable[T]]) -> T:
    """``work()`` run to its end on the helper thread's loop (blocks the caller)."""
    return _SQL.run(work)


def with_database(url: str, name: str) -> str:
    """``url`` naming the database ``name`` instead."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + name))


def _placeholders(sql: str) -> str:
    numbers = itertools.count(1)
    return re.sub(r"\?", lambda _: f"${next(numbers)}", sql)


def _as_sqlite(value: Any) -> Any:
    """A PostgreSQL value as SQLite gives it back: a boolean as 0/1, a whole SUM as an int."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, Decimal) and value == value.to_integral_value():
        return int(value)
    return value


async def _pg(url: str, sql: str, params: tuple[object, ...], fetch: bool) -> list[tuple[Any, ...]]:
    import asyncpg

    conn = await asyncpg.connect(url, server_settings={"lock_timeout": "10s"})
    try:
        if fetch:
            return [
                tuple(map(_as_sqlite, r)) for r in await conn.fetch(_placeholders(sql), *params)
            ]
        await conn.execute(_placeholders(sql), *params)
        return []
    finally:
        await conn.close()


def db_rows(database: TestDatabase, query: str, *params: object) -> list[tuple[Any, ...]]:
    """Rows of a read-only query against the bot's database (a separate connection)."""
    if isinstance(database, str):
        return in_thread(lambda: _pg(database, query, params, fetch=True))
    with sqlite3.connect(database) as conn:
        return list(conn.execute(query, params).fetchall())


def db_execute(database: TestDatabase, sql: str, *params: object) -> None:
    """One statement committed on a separate connection (a test breaking or preparing data)."""
    if isinstance(database, str):
        in_thread(lambda: _pg(database, sql, params, fetch=False))
        return
    with sqlite3.connect(database, timeout=15) as conn:
        conn.execute(sql, params)


class PgDatabases:
    """Fresh PostgreSQL databases for tests, from a template migrated once."""

    def __init__(self, server: str) -> None:
        self.server = server  # the maintenance database's URL
        self._names = (f"bot_test_{os.getpid()}_{n}" for n in itertools.count(1))
        self.template = f"bot_test_{os.getpid()}_template"  # runs side by side don't clash

    def prepare(self) -> None:
        from bot.storage.pg_db import open_pool

        async def work() -> None:
            await _admin(self.server, f"DROP DATABASE IF EXISTS {self.template} WITH (FORCE)")
            await _admin(self.server, f"CREATE DATABASE {self.template}")
            pool = await open_pool(with_database(self.server, self.template))
            await pool.close()

        in_thread(work)

    def fresh(self, *, empty: bool = False) -> str:
        """A new database: migrated (a copy of the template), or ``empty``."""
        name = next(self._names)
        source = "" if empty else f" TEMPLATE {self.template}"
        in_thread(lambda: _admin(self.server, f"CREATE DATABASE {name}{source}"))
        return with_database(self.server, name)

    def drop(self, url: str) -> None:
        name = urlsplit(url).path.lstrip("/")

        async def work() -> None:
            await _SQL.forget(url)
            await _admin(self.server, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

        in_thread(work)

    def close(self) -> None:
        in_thread(
            lambda: _admin(self.server, f"DROP DATABASE IF EXISTS {self.template} WITH (FORCE)")
        )


async def _admin(url: str, sql: str) -> None:
    """A statement outside any transaction (CREATE/DROP DATABASE), names from this module."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()
