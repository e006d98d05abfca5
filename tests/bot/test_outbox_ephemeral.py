"""The outbox's messages in a group for one member alone (ephemeral messages) through the
fake Bot API: a lane of their own that never waits for the group's budget; sent, edited,
stripped and deleted by (group, receiver, ephemeral id), remembered across a restart; one gone
for him sent anew; a refused one told to its owner; a press too old let go; the budget of all a
group's members together (``BOT_EPHEMERAL_PER_MINUTE``)."""

from __future__ import annotations

import asyncio
import time

from aiogram import Bot

from bot.keys import MessageKey, outbox_key
from bot.rendered import Button, Keyboard, Rendered
from bot.runtime.commands import Command, DeliveryFailed
from bot.sending.outbox import Old, Outbox, OutboxLimits
from bot.sending.rates import LocalRates
from bot.storage.protocol import Store
from tests.fakeapi import FakeTelegram

GROUP = -100123
VERA, GLEB = 1, 2
KEY = outbox_key("ehand:1:0")
FAST = OutboxLimits(group_ops=2, group_window=1.5, edit_gap=0.1, private_ops=3, private_window=0.3)


def table(fake: FakeTelegram, *, admin: bool = True) -> None:
    fake.add_user(VERA, "Vera")
    fake.add_user(GLEB, "Gleb")
    fake.add_group(GROUP, "Table", members=[VERA, GLEB], bot_admin=admin)


def hand(text: str) -> Rendered:
    return Rendered(text, Keyboard(((Button("7♠", callback_data="h:7S"),),)))


async def outbox(
    bot: Bot,
    store: Store,
    limits: OutboxLimits = FAST,
    refused: list[tuple[int, MessageKey, str]] | None = None,
) -> Outbox:
    def told(report: Command) -> None:
        if refused is not None and isinstance(report, DeliveryFailed):
            refused.append((report.chat_id, report.message, report.why))

    box = Outbox(bot, store, limits, report=told)
    await box.load()
    return box


async def test_a_hand_for_one_member_never_waits_for_the_groups_budget(
    fake_telegram: FakeTelegram, outbox_bot: Bot, store: Store
) -> None:
    fake = fake_telegram
    table(fake)
    box = await outbox(outbox_bot, store)
    for k in range(3):  # the third waits for the group's window (2 a window)
        box.post(GROUP, Rendered(f"result {k}"))
    box.show(GROUP, KEY, hand("Vera's hand"), receiver=VERA)
    await fake.wait_until(lambda: len(fake.chat(GROUP).ephemeral) == 1, timeout=5)
    assert len(fake.messages(GROUP)) < 3  # the group's third is still waiting
    await asyncio.wait_for(box.drain(), 10)
    assert [m.text for m in fake.messages(GROUP)] == [f"result {k}" for k in range(3)]
    assert box.wire.ephemeral_calls == 1


async def test_an_ephemeral_hand_is_edited_stripped_and_deleted_by_its_own_id_across_a_restart(
    fake_telegram: FakeTelegram, outbox_bot: Bot, store: Store
) -> None:
    fake = fake_telegram
    table(fake)
    box = await outbox(outbox_bot, store)
    box.post(GROUP, Rendered("the table"))  # message 1 of the group: the same number as …
    box.show(GROUP, KEY, hand("one"), receiver=VERA)  # … ephemeral message 1
    await box.drain()
    (shown,) = fake.chat(GROUP).ephemeral.values()
    assert shown.receiver_id == VERA and shown.text == "one"
    assert box.key_of(GROUP, shown.ephemeral_id or 0, ephemeral=True) == KEY
    assert box.key_of(GROUP, 1) is None  # the group's message 1 is not the hand
    assert box.message_id(GROUP, KEY) == shown.ephemeral_id
    await box.close()

    box = await outbox(outbox_bot, store)  # a restart: what it shows is remembered
    mark = fake.mark()
    box.show(GROUP, KEY, hand("one"), receiver=VERA)
    await box.drain()
    assert fake.count(since=mark) == 0
    box.show(GROUP, KEY, hand("two"), receiver=VERA)
    await box.drain()
    assert shown.text == "two" and fake.count("editEphemeralMessageText", since=mark) == 1
    assert len(fake.chat(GROUP).ephemeral) == 1
    box.strip(GROUP, KEY, receiver=VERA)
    await box.drain()
    assert shown.text == "two" and not shown.all_buttons
    box.delete(GROUP, KEY, receiver=VERA)
    await box.drain()
    assert shown.deleted and box.message_id(GROUP, KEY) is None


async def test_a_hand_gone_for_him_is_sent_anew_and_a_fresh_one_replaces_the_old(
    fake_telegram: FakeTelegram, outbox_bot: Bot, store: Store
) -> None:
    fake = fake_telegram
    table(fake)
    box = await outbox(outbox_bot, store)
    box.show(GROUP, KEY, hand("one"), receiver=VERA)
    await box.drain()
    (first,) = fake.chat(GROUP).ephemeral.values()
    first.deleted = True  # gone on Telegram's side (so an edit is "not found")
    box.show(GROUP, KEY, hand("two"), receiver=VERA)
    await box.drain()
    again = [m for m in fake.chat(GROUP).ephemeral.values() if not m.deleted]
    assert [m.text for m in again] == ["two"] and again[0] is not first
    box.show(GROUP, KEY, hand("three"), receiver=VERA, fresh=True, old=Old.DELETE)
    await box.drain()
    live = [m for m in fake.chat(GROUP).ephemeral.values() if not m.deleted]
    assert [m.text for m in live] == ["three"]


async def test_a_hand_telegram_will_not_take_is_told_to_its_owner_and_nothing_is_kept(
    fake_telegram: FakeTelegram, outbox_bot: Bot, store: Store
) -> None:
    fake = fake_telegram
    table(fake, admin=False)  # no administrator, no press to answer: refused
    refused: list[tuple[int, MessageKey, str]] = []
    box = await outbox(outbox_bot, store, refused=refused)
    box.show(GROUP, KEY, hand("one"), receiver=VERA)
    box.show(GROUP, outbox_key("table:1"), Rendered("the table"))
    await box.drain()
    assert refused == [(GROUP, KEY, "ephemeral")]
    assert not fake.chat(GROUP).ephemeral and box.message_id(GROUP, KEY) is None
    assert not box.is_closed(GROUP)  # the group itself still takes the table
    assert [m.text for m in fake.messages(GROUP)] == ["the table"]
    assert all(m.key != KEY for m in await store.messages())


async def test_a_press_telegram_no_longer_knows_is_let_go_and_an_admin_sends_anyway(
    fake_telegram: FakeTelegram, outbox_bot: Bot, store: Store
) -> None:
    fake = fake_telegram
    table(fake)
    refused: list[tuple[int, MessageKey, str]] = []
    box = await outbox(outbox_bot, store, refused=refused)
    box.show(GROUP, KEY, hand("one"), receiver=VERA, answering="404", replace=True, fresh=True)
    await box.drain()
    (shown,) = fake.chat(GROUP).ephemeral.values()
    assert shown.text == "one" and shown.replaces is None and not refused
    assert fake.count("sendMessage", GROUP) == 2  # with the press, then without it


async def test_all_members_of_a_group_together_keep_within_its_ephemeral_budget() -> None:
    now = [0.0]
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        now[0] += seconds

    limits = OutboxLimits(group_window=60.0, private_ops=3, private_window=3.0, ephemeral_ops=4)
    rates = LocalRates(limits, clock=lambda: now[0], sleep=sleep)
    for receiver in range(1, 5):  # four members, one message each: within both windows
        await rates.turn(GROUP, None, receiver)
        await rates.spent(GROUP, receiver)
    assert not slept
    await rates.turn(GROUP, None, None)  # the group's own window is apart
    await rates.spent(GROUP)
    assert not slept
    await rates.turn(GROUP, None, 5)  # a fifth member: the group's ephemeral window is full
    assert slept and abs(sum(slept) - 60.0) < 1e-6
    for _ in range(3):  # one member's own: a private chat's budget
        await rates.turn(GROUP, None, 6)
        await rates.spent(GROUP, 6)
    before = sum(slept)
    await rates.turn(GROUP, None, 6)
    assert sum(slept) > before


async def test_ephemeral_steps_of_two_members_do_not_wait_for_each_other(
    fake_telegram: FakeTelegram, outbox_bot: Bot, store: Store
) -> None:
    fake = fake_telegram
    table(fake)
    slow = OutboxLimits(group_ops=20, group_window=60, private_ops=1, private_window=2.0)
    box = await outbox(outbox_bot, store, slow)
    start = time.monotonic()
    box.show(GROUP, outbox_key("ehand:1:0"), hand("Vera 1"), receiver=VERA)
    box.show(GROUP, outbox_key("eping:1:0"), Rendered("Vera, your turn"), receiver=VERA, fresh=True)
    box.show(GROUP, outbox_key("ehand:1:1"), hand("Gleb 1"), receiver=GLEB)
    await fake.wait_until(
        lambda: {m.text for m in fake.chat(GROUP).ephemeral.values()} >= {"Vera 1", "Gleb 1"},
        timeout=5,
    )
    assert time.monotonic() - start < 1.5  # Gleb's did not wait behind Vera's second
    assert box.pending(GROUP) >= 1  # Vera's second waits for her own window
    await asyncio.wait_for(box.drain(), 10)
    assert len(fake.chat(GROUP).ephemeral) == 3
