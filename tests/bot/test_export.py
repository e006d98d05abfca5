"""``python -m bot export`` only reads: the database opened read-only, never
migrated, a schema other than its own refused with a clear line and exit 8; on SQLite and on
PostgreSQL (``BOT_TEST_DATABASE``). It only creates files: never through a link planted in its
folder, never over an earlier file. The files' modes are checked beside the export of played
games (``test_e2e_records``)."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import sqlite3
import stat
from pathlib import Path

import pytest

from bot.export import export_main
from bot.startup import Exit
from bot.storage import latest_schema, open_repository
from bot.storage.db import _statements, migrations
from bot.storage.rows import SeatKind, TableStatus
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


async def two_tables(database: TestDatabase) -> list[str]:
    """Two running Мушка tables written as the bot writes them; the names export gives their
    files."""
    store = await open_repository(database)
    try:
        async with store.unit() as tx:
            await tx.upsert_chat(-1001, "Пятница")
            for uid, name in ((101, "Anna"), (102, "Boris"), (103, "Vera")):
                await tx.upsert_user(uid, name, None, "ru")
            ids = []
            for code in ("abc123", "def456"):
                table = await tx.create_table(-1001, "mushka", {}, 101, code, 0.0)
                seats = [
                    (SeatKind.HUMAN, uid, name)
                    for uid, name in ((101, "Anna"), (102, "Boris"), (103, "Vera"))
                ]
                await tx.replace_seats(table, seats)
                await tx.update_table(table, status=TableStatus.RUNNING)
                await tx.add_match(table, 1, 7, None, 0)
                ids.append(table)
    finally:
        await store.close()
    return [f"table-{t}-mushka.jsonl" for t in ids]


async def test_export_never_writes_through_a_link_planted_in_its_folder(
    database: TestDatabase, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A link by the name of an export's file (to a file of the operator's, or dangling): the
    export stops with one line before writing anything; the link's target keeps its bytes and
    its mode, and no file appears where a dangling link points."""
    names = await two_tables(database)
    out = tmp_path / "records"
    out.mkdir(mode=0o700)
    precious = tmp_path / "precious.txt"
    precious.write_text("the operator's own file\n")
    precious.chmod(0o644)
    nowhere = tmp_path / "nowhere.txt"
    (out / names[0]).symlink_to(nowhere)  # dangling
    (out / names[1]).symlink_to(precious)
    assert await export(database, out) == Exit.CONFIGURATION
    err = capsys.readouterr().err
    assert err == (
        f"export: {out / names[0]} is already there (2 of the export's files are): "
        "nothing is written over — export into a new folder\n"
    )
    assert precious.read_text() == "the operator's own file\n"
    assert stat.S_IMODE(precious.stat().st_mode) == 0o644
    assert not nowhere.exists()
    assert sorted(p.name for p in out.iterdir()) == sorted(names)
    assert all((out / name).is_symlink() for name in names)


async def test_export_into_a_folder_with_an_earlier_export_overwrites_nothing(
    database: TestDatabase, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    names = await two_tables(database)
    out = tmp_path / "records"
    assert await export(database, out) == 0
    assert sorted(p.name for p in out.iterdir()) == sorted(names)
    assert {stat.S_IMODE((out / n).stat().st_mode) for n in names} == {0o600}
    first = {n: (out / n).read_bytes() for n in names}
    (out / names[1]).write_text("kept\n")  # the operator's notes in an earlier file
    assert await export(database, out) == Exit.CONFIGURATION
    assert "is already there (2 of the export's files are)" in capsys.readouterr().err
    assert (out / names[0]).read_bytes() == first[names[0]]
    assert (out / names[1]).read_text() == "kept\n"
    assert await export(database, tmp_path / "fresh") == 0  # a new folder: written
    assert (tmp_path / "fresh" / names[1]).read_bytes() == first[names[1]]
