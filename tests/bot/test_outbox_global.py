"""All chats together: the outbox's global window counts new messages only — Telegram's
"about 30 a second" is about bulk messages to many chats, not edits made in answer to presses —
its size is a setting (``BOT_GLOBAL_PER_SECOND``), and an operator may send new messages as paid
broadcasts (``BOT_PAID_BROADCAST``: ``allow_paid_broadcast``, up to 1,000 a second)."""

from __future__ import annotations

import asyncio
import time

import pytest
from aiogram import Bot
from pydantic import SecretStr, ValidationError

from bot.config import Settings
from bot.keys import outbox_key
from bot.rendered import Rendered
from bot.sending.outbox import Outbox, OutboxLimits
from bot.sending.rates import LocalRates
from bot.storage.protocol import Store
from tests.fakeapi import FakeTelegram

CHATS = range(1, 31)  # thirty private chats
GLOBAL = 10  # new messages a second, all chats together


def started(fake: FakeTelegram, user_id: int) -> None:
    """A person who has a private chat with the bot (it may write to him)."""
    user = fake.add_user(user_id, f"P{user_id}")
    fake.private_chat(user)
    user.started = True


def limits(*, paid: bool = False) -> OutboxLimits:
    return OutboxLimits(private_ops=3, private_window=1.0, global_ops=GLOBAL, paid_broadcast=paid)


async def test_edits_to_many_chats_never_wait_for_the_global_window_and_sends_do(
    fake_telegram: FakeTelegram, outbox_bot: Bot, store: Store
) -> None:
    fake = fake_telegram
    for chat in CHATS:
        started(fake, chat)
    box = Outbox(outbox_bot, store, limits())
    await box.load()
    start = time.monotonic()
    for chat in CHATS:
        box.show(chat, outbox_key("hand:1:0"), Rendered("one"))
    await asyncio.wait_for(box.drain(), 20)
    sent = time.monotonic() - start
    assert sent >= (len(CHATS) / GLOBAL) - 1.2, sent  # 30 new messages at 10 a second
    start = time.monotonic()
    for chat in CHATS:
        box.show(chat, outbox_key("hand:1:0"), Rendered("two"))
    await asyncio.wait_for(box.drain(), 20)
    edited = time.monotonic() - start
    assert fake.count("editMessageText") == len(CHATS)
    assert edited < sent / 2, (edited, sent)  # the edits: each chat's own window only
    sends = fake.calls("sendMessage")
    assert sends and all("allow_paid_broadcast" not in c.params for c in sends)


async def test_paid_broadcasts_mark_every_new_message_and_no_edit(
    fake_telegram: FakeTelegram, outbox_bot: Bot, store: Store
) -> None:
    fake = fake_telegram
    started(fake, 1)
    box = Outbox(outbox_bot, store, limits(paid=True))
    await box.load()
    box.show(1, outbox_key("hand:1:0"), Rendered("one"))
    box.post(1, Rendered("a note"))
    box.post_document(1, "record.txt", b"record")
    await box.drain()
    box.show(1, outbox_key("hand:1:0"), Rendered("two"))
    await box.drain()
    sends = fake.calls("sendMessage") + fake.calls("sendDocument")
    assert len(sends) == 3
    assert all(str(c.params.get("allow_paid_broadcast")).lower() == "true" for c in sends)
    (edit,) = fake.calls("editMessageText")
    assert "allow_paid_broadcast" not in edit.params


async def test_the_global_window_counts_only_new_messages() -> None:
    now = [0.0]
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        now[0] += seconds

    rates = LocalRates(limits(), clock=lambda: now[0], sleep=sleep)
    for chat in CHATS:  # thirty edits in one instant: nothing waits
        await rates.turn(chat, None, new=False)
        await rates.spent(chat, new=False)
    assert not slept
    for chat in range(100, 100 + GLOBAL):  # ten new messages fill the window
        await rates.turn(chat, None)
        await rates.spent(chat)
    assert not slept
    await rates.turn(200, None, new=False)  # an edit still does not wait
    assert not slept
    await rates.turn(201, None)  # the eleventh new message waits for the second to pass
    assert slept and abs(sum(slept) - 1.0) < 1e-6


def test_the_global_setting_defaults_to_30_or_1000_with_paid_broadcasts() -> None:
    def settings(**values: object) -> Settings:
        return Settings(token=SecretStr("123456:" + "a" * 35), _env_file=None, **values)  # type: ignore[call-arg, arg-type]

    assert settings().global_ops == 30
    assert settings(paid_broadcast=True).global_ops == 1000
    assert settings(global_per_second=12).global_ops == 12
    assert settings(paid_broadcast=True, global_per_second=300).global_ops == 300
    for bad in (0, 1001, "fast"):
        with pytest.raises(ValidationError, match="global_per_second"):
            settings(global_per_second=bad)


async def test_a_ping_deleted_before_it_could_go_is_never_sent(
    fake_telegram: FakeTelegram, outbox_bot: Bot, store: Store
) -> None:
    """A turn ping still waiting in a private chat's queue when its turn is over goes unsent
    (no new message, no delete); the hand's edit queued before it is still made."""
    fake = fake_telegram
    started(fake, 1)
    box = Outbox(outbox_bot, store, OutboxLimits(private_ops=1, private_window=0.5))
    await box.load()
    box.show(1, outbox_key("hand:1:0"), Rendered("hand, deal 1"))
    box.show(
        1, outbox_key("hand:1:0"), Rendered("hand, your turn")
    )  # waits for the chat's window …
    box.show(
        1, outbox_key("ping:1"), Rendered("🔔 your turn"), fresh=True
    )  # … and the ping behind it
    box.delete(1, outbox_key("ping:1"))  # he played before it could go
    await asyncio.wait_for(box.drain(), 10)
    assert [m.text for m in fake.messages(1)] == ["hand, your turn"]
    assert fake.count("sendMessage") == 1 and fake.count("deleteMessage") == 0


@pytest.mark.parametrize("notice", [True, False])
async def test_a_hands_edit_never_waits_behind_a_ping_that_waits_for_the_global_window(
    fake_telegram: FakeTelegram, outbox_bot: Bot, store: Store, notice: bool
) -> None:
    fake = fake_telegram
    player = 99
    for chat in [*CHATS, player]:
        started(fake, chat)
    box = Outbox(outbox_bot, store, limits())
    await box.load()
    box.show(player, outbox_key("hand:1:0"), Rendered("your cards"))
    await box.drain()
    await asyncio.sleep(1.1)  # the hand's send has left all chats' window
    for chat in CHATS:  # three seconds of new messages at ten a second
        box.post(chat, Rendered("a result"))
    await asyncio.sleep(0)
    box.show(player, outbox_key("ping:1"), Rendered("🔔 your turn"), fresh=True, notice=notice)
    box.show(player, outbox_key("hand:1:0"), Rendered("your cards, your turn"))
    await asyncio.wait_for(box.drain(), 20)
    to_him = [c.method for c in fake.requests if c.params.get("chat_id") == player]
    assert to_him == ["sendMessage"] + (
        ["editMessageText", "sendMessage"] if notice else ["sendMessage", "editMessageText"]
    )
    edit = next(c for c in fake.requests if c.method == "editMessageText")
    late = [c.at for c in fake.requests if c.method == "sendMessage"][-1]
    if notice:  # at once, while the ping waits for its place
        assert edit.at < late - 1.0, (edit.at, late)


async def test_a_ping_takes_a_place_only_while_half_the_global_window_is_free() -> None:
    now = [0.0]

    async def sleep(seconds: float) -> None:
        now[0] += seconds

    rates = LocalRates(limits(), clock=lambda: now[0], sleep=sleep)
    for chat in range(1, GLOBAL // 2 + 1):  # half the second's new messages are out
        assert await rates.turn(chat, None)
        await rates.spent(chat)
    assert not await rates.turn(50, None, notice=True, wait=False)  # a ping would wait …
    assert await rates.turn(51, None, wait=False)  # … a deal's result goes
    await rates.spent(51)
    await rates.turn(50, None, notice=True)  # the ping, once the first ones are a second old
    assert now[0] >= 1.0
