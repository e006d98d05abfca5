"""Shared fixtures: the fake Telegram Bot API, a database path, a Redis server."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from redis.asyncio import Redis

from tests.fakeapi import FakeTelegram
from tests.services import redis_available, redis_server


@pytest.fixture
async def fake_telegram() -> AsyncIterator[FakeTelegram]:
    """A started fake Bot API on 127.0.0.1 (token ``123456:TEST-token``, ``@mushka_test_bot``)."""
    fake = FakeTelegram(token="123456:TEST-token", bot_username="mushka_test_bot")
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
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
