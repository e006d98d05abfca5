"""Migrations against faults, on SQLite and on PostgreSQL (``BOT_TEST_DATABASE``):
one that fails stops the start with exit code 8 and is rolled back whole; connections starting
together on one new database each apply every migration once (``test_startup_faults`` does the
same with processes on a SQLite file)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.config import Settings
from bot.startup import Exit, StartFailed, open_database
from bot.storage import latest_schema, open_repository
from tests.databases import PgDatabases, TestDatabase, db_execute, db_rows


@pytest.fixture
def empty_database(tmp_path: Path, pg_databases: PgDatabases | None) -> Iterator[TestDatabase]:
    """A database with no tables at all (a new SQLite file, or a new PostgreSQL database)."""
    if pg_databases is None:
        yield tmp_path / "empty.sqlite3"
        return
    url = pg_databases.fresh(empty=True)
    try:
        yield url
    finally:
        pg_databases.drop(url)


def table_names(database: TestDatabase) -> list[str]:
    if isinstance(database, Path):
        query = "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
    else:
        query = (
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = 'public' ORDER BY table_name"
        )
    return [str(r[0]) for r in db_rows(database, query)]


async def test_a_failed_migration_stops_the_start_with_8_and_leaves_nothing(
    empty_database: TestDatabase, settings: Settings
) -> None:
    db_execute(empty_database, "CREATE TABLE chats (x INTEGER)")  # what migration 1 creates
    with pytest.raises(StartFailed) as failed:
        await open_database(settings.model_copy(update={"database": empty_database}))
    assert failed.value.code == Exit.DATABASE
    assert "cannot be migrated: migration 1 failed" in failed.value.message
    assert "the schema stays at 0" in failed.value.message
    assert table_names(empty_database) == ["chats"]  # migration 1 rolled back whole


async def test_connections_migrating_one_new_database_together_all_succeed(
    empty_database: TestDatabase,
) -> None:
    stores = await asyncio.gather(*(open_repository(empty_database) for _ in range(4)))
    try:
        versions = {await store.schema_version() for store in stores}
    finally:
        for store in stores:
            await store.close()
    assert versions == {latest_schema(empty_database)}
    assert "secrets" in table_names(empty_database) and "chats" in table_names(empty_database)


async def test_eight_connections_opening_one_new_sqlite_file_together_all_succeed(
    tmp_path: Path,
) -> None:
    """SQLite answers "database is locked" at once, without the busy timeout, to a switch to
    WAL while another connection is opening the same new file: the switch is tried again
    (before, about one round in twenty of these failed a worker's start)."""
    for round_no in range(20):
        path = tmp_path / f"new-{round_no}.sqlite3"
        stores = await asyncio.gather(*(open_repository(path) for _ in range(8)))
        try:
            versions = {await store.schema_version() for store in stores}
        finally:
            for store in stores:
                await store.close()
        assert versions == {latest_schema(path)}, round_no
