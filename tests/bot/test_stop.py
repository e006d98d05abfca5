"""A clean stop always ends: every step of it has a time (``bot.app.STOP_S``); a step that
hangs is logged by name and left, and the steps after it — the outbox's workers, Redis, the
Bot API session, the database — still run, so the process exits and Docker or the worker
supervisor sees it stop."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from bot import app
from bot.app import running_bot
from bot.config import Settings
from tests.fakeapi import FakeTelegram


async def never() -> None:
    await asyncio.Event().wait()


async def test_a_stop_step_that_hangs_is_logged_and_every_later_step_still_runs(
    fake_telegram: FakeTelegram,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.setattr(app, "STOP_S", 0.3)
    later: list[str] = []
    async with running_bot(settings) as running:
        services = running.services
        close_outbox, close_db = services.outbox.close, running.db.close

        async def outbox_closed() -> None:
            later.append("outbox")
            await close_outbox()

        async def db_closed() -> None:
            later.append("database")
            await close_db()

        monkeypatch.setattr(services.scheduler, "stop", never)  # e.g. a lease never answered
        monkeypatch.setattr(services.outbox, "close", outbox_closed)
        monkeypatch.setattr(running.db, "close", db_closed)
        caplog.set_level(logging.ERROR, logger="bot.app")
        started = time.monotonic()
    took = time.monotonic() - started
    assert later == ["outbox", "database"]
    assert "stop: the scheduler did not stop within" in caplog.text
    assert took < 0.3 + settings.drain_s + 5.0, took  # the hung step's time, not forever


async def test_a_stop_with_nothing_hanging_logs_no_stop_error(
    fake_telegram: FakeTelegram, settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR, logger="bot.app")
    async with running_bot(settings):
        pass
    assert "did not stop within" not in caplog.text
