"""Shared fixtures: the fake Telegram Bot API and the database a test runs against (SQLite, or
PostgreSQL when ``BOT_TEST_DATABASE`` is set: see :mod:`tests.databases`), a Redis
server (:mod:`tests.services`); a test that hangs is shown where, and stopped
(:mod:`tests.hangs`)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from redis.asyncio import Redis

from tests.bot.proof_figures import figures_of
from tests.databases import PgDatabases, TestDatabase, test_url
from tests.fakeapi import FakeTelegram
from tests.hangs import pytest_runtest_protocol, slow_timeouts
from tests.services import redis_available, redis_server

__all__ = ["pytest_runtest_protocol"]  # a hook of this conftest (tests/hangs.py)


# Files whose tests run bot processes of their own (several workers, kill -9): with pytest-xdist
# they go to one worker, one after another (``--dist loadgroup``), so two such fleets never
# share the two cores with each other
PROCESS_FILES = frozenset(
    {
        "test_workers.py",
        "test_workers_seats.py",
        "test_workers_shared.py",
        "test_workers_answers.py",
        "test_proof_kill.py",
    }
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    slow_timeouts(items)
    for item in items:
        if item.path.name in PROCESS_FILES:
            item.add_marker(pytest.mark.xdist_group("processes"))


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, config: pytest.Config
) -> None:
    """The reliability proofs' figures, for the note: kills, forged presses, 429s."""
    figures = figures_of(r for reports in terminalreporter.stats.values() for r in reports)
    if figures:
        terminalreporter.section("reliability figures")
        for name, value in figures.items():
            terminalreporter.write_line(f"{name}: {value}")


@pytest.fixture
async def fake_telegram() -> AsyncIterator[FakeTelegram]:
    """A started fake Bot API on 127.0.0.1 (token ``123456:TEST-token``, ``@mushka_test_bot``)."""
    fake = FakeTelegram(token="123456:TEST-token", bot_username="mushka_test_bot")
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()


@pytest.fixture(scope="session")
def pg_databases() -> Iterator[PgDatabases | None]:
    """The PostgreSQL server of ``BOT_TEST_DATABASE`` with its migrated template (None: unset)."""
    url = test_url()
    if url is None:
        yield None
        return
    databases = PgDatabases(url)
    databases.prepare()
    try:
        yield databases
    finally:
        databases.close()


@pytest.fixture
def database(tmp_path: Path, pg_databases: PgDatabases | None) -> Iterator[TestDatabase]:
    """The bot's database for one test: a SQLite file, or a fresh PostgreSQL database."""
    if pg_databases is None:
        yield tmp_path / "bot.sqlite3"
        return
    url = pg_databases.fresh()
    try:
        yield url
    finally:
        pg_databases.drop(url)


@pytest.fixture
def sqlite_path(tmp_path: Path) -> Path:
    """A SQLite file, whatever the suite's backend (tests of SQLite itself)."""
    return tmp_path / "bot.sqlite3"


@pytest.fixture(scope="session")
def redis_server_url() -> Iterator[str]:
    """One Redis for the session (``tests/services.py``)."""
    if not redis_available():
        pytest.skip("no redis-server installed and BOT_TEST_REDIS unset")
    with redis_server() as url:
        yield url


@pytest.fixture
async def redis_url(redis_server_url: str) -> AsyncIterator[str]:
    """The session's Redis, emptied for this test."""
    client = Redis.from_url(redis_server_url)
    try:
        await client.flushdb()
    finally:
        await client.aclose()
    yield redis_server_url
