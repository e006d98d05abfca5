"""Webhook mode: the bot's own aiohttp server on a loopback port, the fake Bot API
posting updates to it as Telegram does; the secret header; an update delivered twice acts once;
``/healthz`` in both modes."""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from pydantic import SecretStr

from bot.app import RunningBot, running_bot
from bot.config import Settings
from tests.bot.helpers import (
    db_execute,
    db_rows,
    fixed_seeds,
    hand_message,
    join_and_start,
    lobby_message,
    watched,
)
from tests.databases import TestDatabase
from tests.fakeapi import FakeTelegram
from tests.fakeapi.users import SimGroup, SimUser

SECRET = "s3cret-of-the-webhook_0123456789"
HEADER = "X-Telegram-Bot-Api-Secret-Token"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def hook_settings(settings: Settings) -> Settings:
    port = free_port()
    return settings.model_copy(
        update={
            "webhook_url": f"http://127.0.0.1:{port}/tg/hook",
            "webhook_secret": SecretStr(SECRET),
            "webhook_listen": f"127.0.0.1:{port}",
        }
    )


@pytest.fixture
async def hooked(hook_settings: Settings, fake_telegram: FakeTelegram) -> AsyncIterator[RunningBot]:
    async with watched(fake_telegram, running_bot(hook_settings, seeds=fixed_seeds())) as running:
        yield running


def players(fake: FakeTelegram) -> tuple[SimUser, SimUser, SimGroup]:
    anna = fake.add_user(101, "Anna", language_code="ru")
    boris = fake.add_user(102, "Boris", language_code="ru")
    return anna, boris, fake.add_group(-1001, "Пятница", members=[101, 102])


async def post(url: str, update: dict[str, Any], secret: str | None) -> int:
    headers = {} if secret is None else {HEADER: secret}
    async with (
        aiohttp.ClientSession() as session,
        session.post(url, json=update, headers=headers) as response,
    ):
        await response.read()
        return response.status


def lobbies(database: TestDatabase) -> list[tuple[object, ...]]:
    return db_rows(database, "SELECT id, status FROM tables ORDER BY id")


async def test_webhook_is_set_with_the_secret_and_the_dispatchers_update_types(
    fake_telegram: FakeTelegram, hooked: RunningBot, hook_settings: Settings
) -> None:
    fake = fake_telegram
    assert fake.webhook == {
        "url": hook_settings.webhook_url,
        "secret_token": SECRET,
        "allowed_updates": hooked.dispatcher.resolve_used_update_types(),
    }
    assert {"message", "callback_query", "inline_query"} <= set(fake.webhook["allowed_updates"])
    (call,) = fake.calls("setWebhook")
    assert call.params.get("drop_pending_updates") in (None, False)
    assert fake.count("getUpdates") == 0  # no polling in webhook mode


async def test_updates_through_the_webhook_open_a_lobby_and_seat_a_player(
    fake_telegram: FakeTelegram, hooked: RunningBot, database: TestDatabase
) -> None:
    fake = fake_telegram
    anna, boris, group = players(fake)
    await boris.start_bot()
    await anna.send(group, "/newgame mushka")
    await fake.wait_until(lambda: lobby_message(group) is not None, timeout=10)
    lobby = lobby_message(group)
    assert lobby is not None
    answer = await boris.press(lobby, "✋")
    assert answer.show_alert is False, answer.text
    await fake.wait_until(lambda: "Boris" in lobby.text, timeout=10)
    assert all(200 <= status < 300 for _, status in fake.webhook_posts)
    assert len(db_rows(database, "SELECT seat FROM seats")) == 2


async def test_a_post_without_the_secret_or_with_another_is_refused_and_changes_nothing(
    fake_telegram: FakeTelegram, hooked: RunningBot, hook_settings: Settings, database: TestDatabase
) -> None:
    fake = fake_telegram
    anna, _, group = players(fake)
    fake.hold_webhook = True
    await anna.send(group, "/newgame mushka")
    update = fake.updates[-1]
    url = hook_settings.webhook_url
    assert url is not None
    before = fake.mark()
    assert await post(url, update, None) == 401
    assert await post(url, update, "not-the-secret-at-all-000000") == 401
    assert await post(url, update, "") == 401
    await asyncio.sleep(0.2)
    assert fake.count(since=before) == 0  # the bot sent nothing
    assert lobbies(database) == []
    assert lobby_message(group) is None
    # the same update with the secret is still taken (the refused posts did not claim it)
    assert await post(url, update, SECRET) == 200
    await fake.wait_until(lambda: lobby_message(group) is not None, timeout=10)


async def test_an_update_delivered_twice_acts_once(
    fake_telegram: FakeTelegram, hooked: RunningBot, hook_settings: Settings, database: TestDatabase
) -> None:
    fake = fake_telegram
    anna, boris, group = players(fake)
    url = hook_settings.webhook_url
    assert url is not None
    await boris.start_bot()
    await fake.settle(quiet=0.05)
    fake.hold_webhook = True
    await anna.send(group, "/newgame mushka")
    newgame = fake.updates[-1]
    assert await post(url, newgame, SECRET) == 200
    assert await post(url, newgame, SECRET) == 200  # Telegram's redelivery after a slow answer
    await fake.wait_until(lambda: lobby_message(group) is not None, timeout=10)
    fake.hold_webhook = False  # the fake delivers it a third time: still one lobby
    await fake.settle(quiet=0.1)
    assert len(lobbies(database)) == 1
    assert len([m for m in group.messages if m.from_bot]) == 1
    lobby = lobby_message(group)
    assert lobby is not None

    fake.hold_webhook = True
    pressing = asyncio.create_task(boris.press(lobby, "✋"))
    await fake.wait_until(lambda: "callback_query" in fake.updates[-1], timeout=5)
    join = fake.updates[-1]
    assert await post(url, join, SECRET) == 200
    answer = await pressing
    assert answer.show_alert is False, answer.text  # the first delivery seated him
    assert await post(url, join, SECRET) == 200
    fake.hold_webhook = False
    await fake.settle(quiet=0.1)
    assert len(db_rows(database, "SELECT seat FROM seats")) == 2
    assert len(fake.calls("answerCallbackQuery")) == 1  # the repeat reached no handler
    assert len(db_rows(database, "SELECT update_id FROM updates")) >= 2


async def test_healthz_in_webhook_mode(hooked: RunningBot, hook_settings: Settings) -> None:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://{hooked.listening}/healthz") as response,
    ):
        assert response.status == 200
        assert await response.json() == {"ok": True, "database": True, "mode": "webhook"}


async def test_healthz_in_polling_mode_only_when_asked(
    settings: Settings, fake_telegram: FakeTelegram
) -> None:
    async with running_bot(settings) as running:
        assert running.listening is None  # no HTTP server by default in polling mode
    port = free_port()
    asked = settings.model_copy(update={"health_listen": f"127.0.0.1:{port}"})
    async with running_bot(asked) as running:
        assert running.listening == f"127.0.0.1:{port}"
        async with (
            aiohttp.ClientSession() as session,
            session.get(f"http://127.0.0.1:{port}/healthz") as response,
            session.post(f"http://127.0.0.1:{port}/tg/hook", json={}) as hook,
        ):
            assert response.status == 200
            assert await response.json() == {"ok": True, "database": True, "mode": "polling"}
            assert hook.status in (404, 405)  # no webhook in polling mode
        assert fake_telegram.count("getWebhookInfo") >= 1  # a webhook left set stops the start


async def test_polling_skips_an_update_an_earlier_run_already_took(
    settings: Settings, fake_telegram: FakeTelegram, database: TestDatabase
) -> None:
    """A crash after handling but before getUpdates confirmed: the restarted bot gets the same
    update again, and the id the first run claimed in the database makes it a no-op."""
    fake = fake_telegram
    anna, _, group = players(fake)
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await fake.settle(quiet=0.05)
    taken = fake._next_update_id  # the id the next update will get
    # the earlier run's claim
    db_execute(
        database, "INSERT INTO updates(update_id, seen_at) VALUES (?, ?)", taken, time.time()
    )
    await anna.send(group, "/newgame mushka")
    assert fake.updates[-1]["update_id"] == taken
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await fake.settle(quiet=0.2)
        assert lobbies(database) == [] and lobby_message(group) is None
        await anna.send(group, "/newgame mushka")  # a new update id: taken
        await fake.wait_until(lambda: lobby_message(group) is not None, timeout=10)
    assert len(lobbies(database)) == 1


async def test_start_answers_its_post_at_once_while_the_players_notes_are_on_their_way(
    fake_telegram: FakeTelegram, hooked: RunningBot
) -> None:
    """Start's second half waits (up to half a minute) for the players' private notes: it runs
    on its own, so the press's POST is answered at once and the next update is not held behind
    it (Telegram delivers over a bounded number of connections: here one)."""
    fake = fake_telegram
    anna, boris = fake.add_user(101, "Anna"), fake.add_user(102, "Boris")
    vera = fake.add_user(103, "Vera")
    group = fake.add_group(-1001, "Пятница", members=[101, 102, 103])
    for user in (anna, boris, vera):
        await user.start_bot()
    await fake.wait_until(lambda: all(u.messages for u in (anna, boris, vera)), timeout=10)
    held = fake.gate("sendMessage", chat_id=boris.id)  # Boris's note is slow to arrive
    await join_and_start(fake, group, [anna, boris, vera], options="")
    start = fake.updates[-1]["update_id"]
    await fake.wait_until(lambda: (start, 200) in fake.webhook_posts, timeout=5)
    await anna.send(group, "/score")  # the next update is handled meanwhile
    scored = fake.updates[-1]["update_id"]
    await fake.wait_until(lambda: (scored, 200) in fake.webhook_posts, timeout=5)
    assert not held.is_set() and hand_message(anna) is None  # the start still waits
    held.set()
    await fake.wait_until(
        lambda: all(hand_message(u) is not None for u in (anna, boris, vera)), timeout=10
    )
