"""Shared fixtures: the fake Telegram Bot API and a database path."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.fakeapi import FakeTelegram


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
