"""``python -m bot export`` only reads (issue #28): the database opened read-only, never
migrated, a schema other than its own refused with a clear line and exit 8; on SQLite and on
PostgreSQL (``BOT_TEST_DATABASE``). The files' modes are checked beside the export of played
games (``test_e2e_records``)."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import sqlite3
from pathlib import Path

import pytest

from bot.export import export_main
from bot.startup import Exit
from bot.storage import latest_schema, open_repository
from bot.storage.db import _statements, migrations
from tests.databases import TestDatabase, db_execute, db_rows


async def migrated(database: TestDatabase) -> None:
    store = await open_repository(database)
    await store.close()


def version_of(database: TestDatabase) -> int:
    if isinstance(database, Path):
        return int(db_rows(database, "PRAGMA user_version")[0][0])
    return int(db_rows(database, "SELECT COALESCE(MAX(version), 0) FROM schema_version")[0][0])


def set_version(database: TestDatabase, version: int) -> None:
    """The schema's recorded version changed by hand (the tables stay as they are)."""
    if isinstance(database, Path):
        db_execute(database, f"PRAGMA user_version = {version}")
        return
    db_execute(database, "DELETE FROM schema_version WHERE version > ?", version)
    for number in range(version_of(database) + 1, version + 1):
        db_execute(database, "INSERT INTO schema_version(version) VALUES (?)", number)


def untouched(path: Path) -> tuple[str, list[str]]:
    """The file's digest and the names in its folder."""
    return hashlib.sha256(path.read_bytes()).hexdigest(), sorted(
        p.name for p in path.parent.iterdir()
    )


def garbage(path: Path) -> Path:
    path.write_bytes(b"not a database " * 100)
    return path


async def export(database: TestDatabase, out: Path) -> int:
    return await asyncio.to_thread(export_main, ["--database", str(database), "--out", str(out)])


@pytest.mark.parametrize("offset", [-1, +1], ids=["older", "newer"])
async def test_a_schema_export_does_not_know_is_refused_and_left_as_it_is(
    database: TestDatabase, tmp_path: Path, capsys: pytest.CaptureFixture[str], offset: int
) -> None:
    await migrated(database)
    known = latest_schema(database)
    set_version(database, known + offset)
    out = tmp_path / "records"
    assert await export(database, out) == Exit.DATABASE
    err = capsys.readouterr().err.strip()
    who = "an older" if offset < 0 else "a newer"
    assert err.startswith("export: database "), err
    assert f"has schema {known + offset}, this export reads {known}" in err
    assert f"written by {who} version of the bot" in err and "nothing was written" in err
    assert len(err.splitlines()) == 1
    assert version_of(database) == known + offset  # never migrated
    assert not out.exists()


async def test_an_older_sqlite_file_is_not_upgraded(
    sqlite_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with contextlib.closing(sqlite3.connect(sqlite_path)) as conn:  # as an older bot left it
        for number, sql in migrations()[:-1]:
            for statement in _statements(sql):
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {number}")
        conn.commit()
    before = untouched(sqlite_path)
    assert await export(sqlite_path, tmp_path / "records") == Exit.DATABASE
    assert "start this bot on it once (it migrates)" in capsys.readouterr().err
    assert untouched(sqlite_path) == before  # the same bytes, and no -wal or -shm beside it


async def test_a_database_opened_for_export_refuses_every_write(database: TestDatabase) -> None:
    await migrated(database)
    store = await open_repository(database, readonly=True)
    try:
        assert await store.schema_version() == latest_schema(database)
        with pytest.raises(Exception, match=r"(?i)read.?only"):  # sqlite3's and asyncpg's words
            async with store.unit() as tx:
                await tx.upsert_chat(-1001, "Пятница")
    finally:
        await store.close()
    assert db_rows(database, "SELECT COUNT(*) FROM chats") == [(0,)]


async def test_a_sqlite_file_that_cannot_be_read_is_one_line(
    sqlite_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert await export(garbage(sqlite_path), tmp_path / "records") == Exit.DATABASE
    err = capsys.readouterr().err
    assert err == f"export: database {sqlite_path} cannot be read (file is not a database)\n"
