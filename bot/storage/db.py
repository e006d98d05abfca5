"""The one SQLite connection (aiosqlite, WAL, foreign keys) and numbered migrations.

Migrations are ``migrations/NNNN_*.sql`` files; ``PRAGMA user_version`` says how many ran. Each
runs in its own transaction at start-up.

Every call of aiosqlite is a trip to its thread and back (a queue, a future, a wake-up of the
event loop), and a card press writes in several statements (``BEGIN IMMEDIATE``, its rows,
``COMMIT``, its update's claim). A :meth:`Database.transaction` therefore collects its
statements and runs them, with ``BEGIN IMMEDIATE`` and ``COMMIT``, in one trip when it ends;
a read or an insert whose row id is wanted inside it starts it for real first (the statements
so far, in one trip), so the transaction reads its own writes. Group-committed writes
(:meth:`Database.write`) take one trip per group. The trip is aiosqlite's own ``_execute`` (what
each of its methods calls) with a function of ``sqlite3``'s connection.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
PG_MIGRATIONS = MIGRATIONS.parent / "pg_migrations"  # PostgreSQL's twins, the same numbers
_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
T = TypeVar("T")
BUSY_S = 30.0  # how long a write waits for another process's write lock (several workers)
# a queued write: its statement and parameters, its caller's future, whether it is RETURNING
_Queued = tuple[str, tuple[Any, ...], "asyncio.Future[Any]", bool]
Run = tuple[str, Sequence[tuple[Any, ...]], bool]  # a statement, its parameters, RETURNING?


class _Unit:
    """The statements of an open :meth:`Database.transaction` not run yet (``live``: begun)."""

    __slots__ = ("live", "open", "pending")

    def __init__(self) -> None:
        self.pending: list[Run] = []  # each with its one set of parameters
        self.live = False
        self.open = True


# The transaction the running task is in (a context variable: per task; a task started inside
# one sees it only while it is open, and then shares it as it would share the connection).
_UNIT: ContextVar[_Unit | None] = ContextVar("sqlite_unit", default=None)


def _run_all(conn: sqlite3.Connection, runs: Sequence[Run], commit: bool) -> list[Any]:
    """In aiosqlite's thread: ``BEGIN IMMEDIATE``, each run of a statement, ``COMMIT`` (with
    ``commit``; else the transaction is left open). Anything failing rolls it all back. Each
    run's result: the first row of a ``RETURNING`` statement (run once), else ``None``."""
    conn.execute("BEGIN IMMEDIATE")
    results: list[Any] = []
    try:
        for sql, params, returning in runs:
            if returning:
                results.append(conn.execute(sql, params[0]).fetchone())
                continue
            if len(params) == 1:
                conn.execute(sql, params[0])
            else:
                conn.executemany(sql, params)
            results.append(None)
        if commit:
            conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return results


async def _when_free(attempt: Callable[[], Awaitable[T]]) -> T:
    """Run a write that has not begun yet, again while the file is locked by another process.

    With several worker processes on one file, SQLite answers "database is locked" at once
    (without its busy timeout) when this connection's read snapshot is older than another
    process's commit; nothing was written then, so trying again is safe."""
    deadline = time.monotonic() + BUSY_S
    pause = 0.002
    while True:
        try:
            return await attempt()
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
        await asyncio.sleep(pause)
        pause = min(pause * 2, 0.05)


QUICK_CHECK_ROWS = 3  # what ``PRAGMA quick_check`` reports at most (the first is said)


class Damaged(Exception):
    """SQLite's ``PRAGMA quick_check`` found the file damaged (overwritten pages, a torn copy):
    its first finding. Nothing was migrated or written."""


async def check_intact(conn: aiosqlite.Connection) -> None:
    """``PRAGMA quick_check``: every page of the file read once and every b-tree's structure
    checked (not the indexes' agreement with their tables, which ``integrity_check`` adds at
    about four times the cost) — about 0.3 s for a 200 MB file whose pages are cached, else as
    long as the disk takes to read it. A damaged file raises :class:`Damaged`."""
    try:
        rows = await conn.execute_fetchall(f"PRAGMA quick_check({QUICK_CHECK_ROWS})")
    except sqlite3.DatabaseError as error:  # too damaged even to be checked
        raise Damaged(str(error)) from error
    found = [line for row in rows for line in str(row[0]).splitlines()]
    if found != ["ok"]:
        said = [line for line in found if not line.startswith("***")]
        raise Damaged(said[0] if said else "quick_check failed")


class MigrationFailed(Exception):
    """Migration ``number`` failed (rolled back; the schema stays at the one before it)."""

    def __init__(self, number: int, error: BaseException) -> None:
        super().__init__(f"migration {number} failed: {error}")
        self.number = number
        self.error = error


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
        self._queued: list[_Queued] = []
        self._flusher: asyncio.Task[None] | None = None

    @classmethod
    async def open(cls, path: Path, *, readonly: bool = False) -> Database:
        """The file opened (created), checked (:func:`check_intact`: a damaged one raises
        :class:`Damaged`) and migrated; ``readonly``: opened with SQLite's
        ``mode=ro`` instead — nothing is created, migrated or written (``python -m bot
        export``). Should anything fail, the connection (and aiosqlite's thread, which would
        keep the process alive) is closed before the error goes on."""
        if readonly:
            conn = await aiosqlite.connect(_readonly(path), uri=True, isolation_level=None)
        else:
            if str(path) != ":memory:":
                path.parent.mkdir(parents=True, exist_ok=True)
            conn = await aiosqlite.connect(path, isolation_level=None)
        try:
            conn.row_factory = aiosqlite.Row
            # first: several worker processes on one file wait for its locks in
            # turn, the journal mode's switch on a new file and each migration too
            await conn.execute("PRAGMA busy_timeout=30000")
            if not readonly:
                # SQLite answers "locked" at once, without the busy timeout, when another
                # connection is opening the same new file and holds its lock: tried again
                await _when_free(lambda: conn.execute("PRAGMA journal_mode=WAL"))
                await conn.execute("PRAGMA synchronous=NORMAL")
            await conn.execute("PRAGMA foreign_keys=ON")
            db = cls(conn)
            if not readonly:
                if str(path) != ":memory:":
                    await check_intact(conn)  # before a migration writes to a damaged file
                await db.migrate()
        except BaseException:
            await conn.close()
            raise
        return db

    async def close(self) -> None:
        if self._flusher is not None:
            await self._flusher
        await self.conn.close()

    async def user_version(self) -> int:
        row = await self.one("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def migrate(self) -> int:
        """Run the migrations not run yet, each in its own ``BEGIN IMMEDIATE``; the version is
        read again under that write lock, so processes starting together on one file apply
        each migration once (the second waits, then finds it done)."""
        current = await self.user_version()
        for number, sql in migrations():
            if number <= current:
                continue
            await self.conn.execute("BEGIN IMMEDIATE")
            try:
                current = await self.user_version()
                if number > current:
                    for statement in _statements(sql):
                        await self.conn.execute(statement)
                    await self.conn.execute(f"PRAGMA user_version = {number}")
                    current = number
                await self.conn.execute("COMMIT")
            except BaseException as error:
                await self.conn.execute("ROLLBACK")
                if isinstance(error, sqlite3.Error):
                    raise MigrationFailed(number, error) from error
                raise
        return current

    async def _in_thread(self, runs: Sequence[Run], *, commit: bool = True) -> list[Any]:
        """:func:`_run_all` in one trip (again while another process holds the file)."""
        conn = self.conn
        return await _when_free(lambda: conn._execute(_run_all, conn._conn, runs, commit))  # type: ignore[no-untyped-call]

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        """One write transaction: its statements run together when it ends (see the module)."""
        async with self._writer:
            unit = _Unit()
            token = _UNIT.set(unit)
            try:
                yield
            except BaseException:
                unit.open = False
                if unit.live:
                    await self.conn.execute("ROLLBACK")
                raise
            finally:
                _UNIT.reset(token)
            unit.open = False
            if unit.live:  # begun for a read: its later statements ran as they came
                await self.conn.execute("COMMIT")
            elif unit.pending:
                await self._in_thread(unit.pending)

    async def _begun(self) -> None:
        """Inside an open transaction not begun yet: begin it with what it wrote so far."""
        unit = _UNIT.get()
        if unit is None or not unit.open or unit.live:
            return
        runs, unit.pending = unit.pending, []
        await self._in_thread(runs, commit=False)
        unit.live = True

    async def write(self, sql: str, params: Iterable[Any] = ()) -> None:
        """One statement, committed when this returns, never inside another task's open
        transaction. The writes that wait for the writer together are committed together (a
        group commit: one transaction in one trip, one ``executemany`` for a run of the same
        statement); should the group fail, each is run again alone and fails or succeeds on its
        own."""
        await self._queue(sql, tuple(params), returning=False)

    async def write_one(self, sql: str, params: Iterable[Any] = ()) -> aiosqlite.Row | None:
        """Like :meth:`write` (and committed with the group), for a statement with
        ``RETURNING``: its first row."""
        row: aiosqlite.Row | None = await self._queue(sql, tuple(params), returning=True)
        return row

    async def _queue(self, sql: str, params: tuple[Any, ...], *, returning: bool) -> Any:
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queued.append((sql, params, done, returning))
        if self._flusher is None:
            self._flusher = asyncio.create_task(self._flush())
        return await asyncio.shield(done)

    async def _flush(self) -> None:
        batch: list[_Queued] = []
        try:
            while self._queued:
                async with self._writer:
                    batch, self._queued = self._queued, []
                    await self._write_batch(batch)
        finally:
            self._flusher = None
            for _, _, done, _ in batch:  # cancelled (the loop is closing): nobody waits forever
                if not done.done():
                    done.cancel()

    async def _write_batch(self, batch: list[_Queued]) -> None:
        if len(batch) > 1:
            runs: list[tuple[str, list[tuple[Any, ...]], bool]] = []
            owners: list[list[asyncio.Future[Any]]] = []  # each run's callers
            for sql, params, done, returning in batch:  # a run of one statement: executemany
                if runs and runs[-1][0] == sql and not returning and not runs[-1][2]:
                    runs[-1][1].append(params)
                    owners[-1].append(done)
                else:
                    runs.append((sql, [params], returning))
                    owners.append([done])
            try:
                results = await self._in_thread(runs)
            except Exception:  # one of them failed: each is run on its own, below
                pass
            else:
                for result, waiting in zip(results, owners, strict=True):
                    for done in waiting:
                        if not done.done():
                            done.set_result(result)
                return
        for sql, params, done, returning in batch:
            try:
                (result,) = await self._in_thread([(sql, [params], returning)])
            except Exception as error:
                if not done.done():
                    done.set_exception(error)
            else:
                if not done.done():
                    done.set_result(result)

    # One trip to aiosqlite's thread a statement: a statement is run to its end there (a write
    # on ``execute``, every row with ``execute_fetchall``), so its cursor holds nothing and is
    # left to be dropped rather than closed in a second trip.

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> None:
        """Run one statement: inside an open transaction, with the others when it ends."""
        unit = _UNIT.get()
        if unit is not None and unit.open and not unit.live:
            unit.pending.append((sql, [tuple(params)], False))
            return
        await self.conn.execute(sql, tuple(params))

    async def insert(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Run one ``INSERT`` now (a transaction begun first); the new row's id."""
        await self._begun()
        cursor = await self.conn.execute(sql, tuple(params))
        return cursor.lastrowid or 0

    async def one(self, sql: str, params: Iterable[Any] = ()) -> aiosqlite.Row | None:
        """The first row of a query of one row (a key, a count, ``RETURNING``)."""
        await self._begun()
        rows = await self.conn.execute_fetchall(sql, tuple(params))
        for row in rows:
            return row
        return None

    async def all(self, sql: str, params: Iterable[Any] = ()) -> list[aiosqlite.Row]:
        await self._begun()
        return list(await self.conn.execute_fetchall(sql, tuple(params)))


def _readonly(path: Path) -> str:
    """SQLite's URI of the file, opened read-only (never created, never written)."""
    return f"{path.resolve().as_uri()}?mode=ro"


def _statements(sql: str) -> list[str]:
    lines = [ln for ln in sql.splitlines() if not ln.strip().startswith("--")]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]
