"""Membership across workers: two webhook workers — two running bots in this process,
each with its own caches, on one database and one Redis, as two processes would be — and the
fake posts each update to the worker the test names. A ban one worker is told of drops every
worker's cached answer; a ban nobody is told of is found by the other worker too, once the
table's seats changed hands after its answer. On SQLite and PostgreSQL (``BOT_TEST_DATABASE``)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import pytest
from pydantic import SecretStr

from bot.app import RunningBot, running_bot
from bot.config import Settings
from tests.bot.helpers import db_rows, fixed_seeds, hand_message, lobby_message, open_table, watched
from tests.bot.test_e2e_membership import asked
from tests.bot.test_e2e_seats import LEFT_NOTE, seat_of, texts, three, toggle
from tests.bot.test_webhook import SECRET, free_port
from tests.databases import TestDatabase
from tests.fakeapi import FakeTelegram

NOT_A_MEMBER = "Этот стол в группе «Пятница», а вы не её участник."
Workers = tuple[RunningBot, RunningBot]


def worker(settings: Settings, redis_url: str, url: str, index: int) -> Settings:
    port = free_port()
    return settings.model_copy(
        update={
            "webhook_url": url,
            "webhook_secret": SecretStr(SECRET),
            "webhook_listen": f"127.0.0.1:{port}",
            "redis_url": redis_url,
            "worker_index": index,  # the first sets the webhook, as in BOT_WORKERS
        }
    )


@pytest.fixture
async def workers(
    settings: Settings, fake_telegram: FakeTelegram, redis_url: str
) -> AsyncIterator[Workers]:
    url = f"http://127.0.0.1:{free_port()}/tg/hook"  # the public URL: never posted to here
    async with contextlib.AsyncExitStack() as stack:
        a, b = [
            await stack.enter_async_context(
                watched(
                    fake_telegram,
                    running_bot(worker(settings, redis_url, url, i), seeds=fixed_seeds()),
                )
            )
            for i in (0, 1)
        ]
        yield a, b


def to(fake: FakeTelegram, running: RunningBot) -> None:
    """What comes next goes to this worker."""
    assert running.listening is not None
    fake.deliver_to(f"http://{running.listening}/tg/hook")


async def test_a_ban_one_worker_is_told_of_drops_the_others_answer_too(
    fake_telegram: FakeTelegram, workers: Workers, database: TestDatabase
) -> None:
    fake = fake_telegram
    a, b = workers
    (anna, boris, _), group = three(fake, bot_admin=True)  # an admin bot is told of bans
    await boris.start_bot()
    to(fake, a)
    await anna.send(group, "/newgame mushka")
    await fake.wait_until(lambda: lobby_message(group) is not None, timeout=10)
    lobby = lobby_message(group)
    assert lobby is not None
    to(fake, b)  # worker B asks about Boris, and keeps the answer
    answer = await boris.press(lobby, "⚙️")
    assert answer.text == "Опции меняет только Anna."
    to(fake, a)  # the ban reaches worker A alone
    group.ban(boris, by=anna)
    await fake.settle(quiet=0.1)
    to(fake, b)
    join = lobby.button("✋").callback_data or ""
    before = asked(fake, boris.id)
    answer = await boris.press_raw(lobby, data=join)
    assert answer.text == NOT_A_MEMBER
    assert asked(fake, boris.id) == before + 1  # worker B asked again
    assert db_rows(database, "SELECT user_id FROM seats") == [(anna.id,)]
    assert "Boris" not in lobby.text


async def test_a_ban_nobody_is_told_of_is_found_by_the_other_worker(
    fake_telegram: FakeTelegram, workers: Workers, database: TestDatabase
) -> None:
    fake = fake_telegram
    a, b = workers
    players, group = three(fake)  # no admin: nobody tells the bot of a ban
    to(fake, a)
    await open_table(fake, group, players, options="target=25")
    vera = players[2]
    for running in workers:
        running.services.runtime.parts.absent.toggle_gap = 0.0
    menu = hand_message(vera)
    assert menu is not None
    to(fake, b)  # worker B asks about Vera (the seat menu, opened and closed)
    assert not (await vera.press(menu, "⋯")).text
    await fake.wait_until(lambda: menu.has_button("↩️"), timeout=5)
    assert not (await vera.press(menu, "↩️")).text
    await fake.settle(quiet=0.1)
    to(fake, a)  # on worker A she lets the computer play: the seats change hands
    assert await toggle(fake, vera) in (None, "")
    await fake.wait_until(lambda: seat_of(database, vera) == (1, ""), timeout=5)
    await fake.settle(quiet=0.1)
    group.state.members[vera.id] = "kicked"  # banned; worker B's answer is still fresh
    to(fake, b)
    hand = hand_message(vera)
    assert hand is not None and hand.has_button("🙋")
    assert not (await vera.press(hand, "🙋")).text
    await fake.wait_until(lambda: seat_of(database, vera) == (1, "left"), timeout=5)
    await fake.settle(quiet=0.1)
    assert LEFT_NOTE in texts(vera)
