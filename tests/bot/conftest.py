"""Bot fixtures: settings pointing at the fake Bot API, and the bot running against it.

``BOT_TEST_WITH_REDIS=1`` runs every bot of the ``settings`` fixture with Redis on (the
session's ``redis-server``, emptied for each test: ``tests/conftest.py``): the table locks,
the outbox's rate windows and message book, and the scheduler's leadership are then the ones
several workers share (``.ci/run`` runs a sample of the suite so, one for every router)."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from pydantic import SecretStr

from bot.app import RunningBot, running_bot
from bot.config import Settings
from bot.sending.session import TelegramLimits
from bot.storage import open_repository
from bot.storage.protocol import Store
from tests.bot.helpers import fixed_seeds, watched
from tests.databases import PgDatabases, TestDatabase
from tests.fakeapi import FakeTelegram

WITH_REDIS = os.environ.get("BOT_TEST_WITH_REDIS") == "1"


@pytest.fixture
def settings(
    fake_telegram: FakeTelegram, database: TestDatabase, request: pytest.FixtureRequest
) -> Settings:
    shared: str | None = request.getfixturevalue("redis_url") if WITH_REDIS else None
    return Settings(
        token=SecretStr(fake_telegram.token),
        database=database,
        api_base=fake_telegram.base_url,
        polling_timeout_s=1,
        computer_delay_s=0,
        away_level="easy",  # the tests' games stay quick; the strong player is tested in engine
        outbox_time_scale=0,
        ping_quiet_s=0,  # every turn pinged: the quiet rule has its own test (test_e2e_economy)
        notify_delay_s=0,  # /notify pings at once: the delay has its own test (…_notify_pacing)
        default_language="ru",
        redis_url=shared,
        _env_file=None,  # type: ignore[call-arg]  # tests never read a developer's .env
    )


@pytest.fixture
async def store(database: TestDatabase) -> AsyncIterator[Store]:
    """The suite's database opened as the bot opens it (a repository, closed after)."""
    repo = await open_repository(database)
    try:
        yield repo
    finally:
        await repo.close()


@pytest.fixture
async def bot(settings: Settings, fake_telegram: FakeTelegram) -> AsyncIterator[RunningBot]:
    async with watched(fake_telegram, running_bot(settings, seeds=fixed_seeds())) as running:
        yield running


@pytest.fixture
async def outbox_bot(fake_telegram: FakeTelegram) -> AsyncIterator[Bot]:
    """An aiogram Bot on the fake with the outbox's session middleware: for tests that drive an
    :class:`~bot.sending.outbox.Outbox` themselves, no dispatcher running."""
    session = AiohttpSession(api=TelegramAPIServer.from_base(fake_telegram.base_url))
    session.middleware(TelegramLimits())
    async with Bot(fake_telegram.token, session=session) as client:
        yield client


@pytest.fixture(params=["sqlite", "postgresql"])
def target(  # a database of each backend (PostgreSQL's skip without BOT_TEST_DATABASE)
    request: pytest.FixtureRequest, tmp_path: Path, pg_databases: PgDatabases | None
) -> Iterator[TestDatabase]:
    if request.param == "sqlite":
        yield tmp_path / "bot.sqlite3"
        return
    if pg_databases is None:
        pytest.skip("BOT_TEST_DATABASE is not set")
    url = pg_databases.fresh()
    try:
        yield url
    finally:
        pg_databases.drop(url)


@pytest.fixture
async def repo(target: TestDatabase) -> AsyncIterator[Store]:
    opened = await open_repository(target)
    try:
        yield opened
    finally:
        await opened.close()
