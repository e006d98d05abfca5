"""A handler that fails (here: a broken database) still answers the press and logs the update;
the bot carries on with the next update (STYLE.md §1.4, errors router)."""

from __future__ import annotations

import logging

import pytest

from bot.app import RunningBot
from tests.bot.helpers import db_execute, lobby_message
from tests.databases import TestDatabase
from tests.fakeapi import FakeTelegram


async def test_a_failing_press_is_answered_logged_and_the_bot_carries_on(
    fake_telegram: FakeTelegram,
    bot: RunningBot,
    database: TestDatabase,
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake = fake_telegram
    anna = fake.add_user(101, "Anna")
    boris = fake.add_user(102, "Boris", language_code="en")
    group = fake.add_group(-1001, "Пятница", admins=[101], members=[102])
    for user in (anna, boris):
        await user.start_bot()
    await anna.send(group, "/newgame мушка")
    await fake.wait_until(lambda: lobby_message(group) is not None, timeout=10)
    lobby = lobby_message(group)
    assert lobby is not None
    await fake.settle(quiet=0.2)  # the bot is idle
    db_execute(database, "ALTER TABLE seats RENAME TO seats_gone")  # it breaks under the bot
    caplog.set_level(logging.INFO, logger="bot.updates")
    with caplog.at_level(logging.ERROR, logger="bot.routers.errors"):
        answer = await boris.press(lobby, "✋")
    assert answer.text == "Something went wrong. Please try again."
    failed = [r for r in caplog.records if r.name == "bot.routers.errors"]
    assert failed and "update=" in failed[0].getMessage() and failed[0].exc_info is not None
    update_id = fake.updates[-1]["update_id"]
    assert f"update={update_id} " in failed[0].getMessage()
    lines = [
        r
        for r in caplog.records
        if r.name == "bot.updates" and f"update={update_id} " in r.getMessage()
    ]
    assert len(lines) == 1 and lines[0].levelno == logging.ERROR
    assert lines[0].getMessage().endswith(" outcome=error")  # the update's own line says so too
    db_execute(database, "ALTER TABLE seats_gone RENAME TO seats")  # mended: the press works
    answer = await boris.press(lobby, "✋")
    assert "seated" in (answer.text or "")
    await fake.wait_until(lambda: "Boris" in lobby.text, timeout=10)
