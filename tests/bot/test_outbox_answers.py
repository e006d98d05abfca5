"""The outbox's answers to commands in a group through the fake Bot API: a queue of their
own beside the table's, never ahead of a step the table owes and never past half of the group's
window; each member's quota of answers, the rest dropped; one answer per key a window, shown
in place meanwhile. The windows and quotas are every worker's (Redis) as they are one
process's."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable

import pytest
from aiogram import Bot
from redis.asyncio import Redis

from bot.coordination.redis_locks import connect
from bot.keys import outbox_key
from bot.rendered import Rendered
from bot.sending.outbox import Old, Outbox, OutboxLimits
from bot.sending.rates import LocalRates, Quota, Rates, share
from bot.sending.redis_book import RedisRates
from bot.storage.protocol import Store
from tests.fakeapi import FakeTelegram

GROUP = -100321
FAST = OutboxLimits(group_ops=6, group_window=1.0, edit_gap=0.05, private_ops=3, private_window=0.3)
SENDS = ("sendmessage", "editmessagetext", "deletemessage")


@pytest.fixture
async def clients(redis_url: str) -> AsyncIterator[Callable[[], Redis]]:
    made: list[Redis] = []

    def client() -> Redis:
        made.append(connect(redis_url))
        return made[-1]

    try:
        yield client
    finally:
        for one in made:
            await one.aclose()


def calls(fake: FakeTelegram) -> list[tuple[float, str, str]]:
    """(when, method, text) of every call to the group."""
    return [
        (c.at, c.method.lower(), str(c.params.get("text", "")))
        for c in fake.requests
        if c.chat_id == GROUP and c.method.lower() in SENDS
    ]


async def test_a_table_step_goes_ahead_of_every_waiting_answer(
    fake_telegram: FakeTelegram, outbox_bot: Bot, store: Store
) -> None:
    """Answers take half of the group's window; a table step queued while more wait goes at
    once, and the rest follow in the next windows — never a 429, never more than Telegram's."""
    fake = fake_telegram
    fake.add_group(GROUP, "Table")
    fake.rate_limit(per_chat=FAST.group_ops, window=FAST.group_window, groups_only=True)
    box = Outbox(outbox_bot, store, FAST)
    await box.load()
    half = share(FAST.group_ops)
    for asker in range(1, 2 * half + 1):  # each his own: no quota in the way
        box.answer(
            GROUP, outbox_key(f"answer:{asker}:help"), Rendered(f"help {asker}"), asker=asker
        )
    await fake.wait_until(lambda: len(calls(fake)) == half, timeout=5)
    box.show(GROUP, outbox_key("table:1"), Rendered("the table, moved on"))
    await fake.wait_until(lambda: any(t == "the table, moved on" for *_, t in calls(fake)))
    await asyncio.wait_for(box.drain(), 10)
    made = calls(fake)
    texts = [t for *_, t in made]
    assert texts.index("the table, moved on") == half  # ahead of the answers still waiting
    assert len(texts) == 2 * half + 1 and fake.count(ok=False) == 0
    answers = [at for at, _, t in made if t.startswith("help")]
    for first in answers:  # in any window, answers took half of it at most
        assert sum(1 for at in answers if first <= at < first + FAST.group_window) <= half


async def test_a_members_quota_drops_his_answers_beyond_it(
    fake_telegram: FakeTelegram, outbox_bot: Bot, store: Store
) -> None:
    fake = fake_telegram
    fake.add_group(GROUP, "Table")
    limits = OutboxLimits(group_ops=20, group_window=5.0, private_ops=3, private_window=0.3)
    box = Outbox(outbox_bot, store, limits)
    await box.load()
    for command in ("help", "rules", "score", "hand", "notify", "language", "start"):
        box.answer(GROUP, outbox_key(f"answer:7:{command}"), Rendered(f"to 7: {command}"), asker=7)
    box.answer(GROUP, outbox_key("answer:8:help"), Rendered("to 8: help"), asker=8)
    await asyncio.wait_for(box.drain(), 10)
    texts = [t for *_, t in calls(fake)]
    assert [t for t in texts if t.startswith("to 7")] == [
        f"to 7: {c}" for c in ("help", "rules", "score", "hand", "notify")
    ][: limits.answer_ops]
    assert "to 8: help" in texts and box.pending() == 0


async def test_an_answer_is_shown_in_place_within_the_window_then_sent_anew(
    fake_telegram: FakeTelegram, outbox_bot: Bot, store: Store
) -> None:
    fake = fake_telegram
    fake.add_group(GROUP, "Table")
    limits = OutboxLimits(group_ops=20, group_window=0.5, edit_gap=0.01, private_window=0.3)
    box = Outbox(outbox_bot, store, limits)
    await box.load()
    key = outbox_key("answer:7:score")
    box.answer(GROUP, key, Rendered("score: 1"), asker=7, reply_to=None)
    await asyncio.wait_for(box.drain(), 5)
    box.answer(GROUP, key, Rendered("score: 1"), asker=7)  # the same: no call at all
    await asyncio.wait_for(box.drain(), 5)
    assert [m for _, m, _ in calls(fake)] == ["sendmessage"]
    box.answer(GROUP, key, Rendered("score: 2"), asker=7)  # another text: an edit
    await asyncio.wait_for(box.drain(), 5)
    first = fake.messages(GROUP)[0]
    assert first.text == "score: 2" and len(fake.messages(GROUP)) == 1
    await asyncio.sleep(limits.group_window)  # the window is over: sent anew, the old goes
    box.answer(GROUP, key, Rendered("score: 2"), asker=7, old=Old.DELETE)
    await asyncio.wait_for(box.drain(), 5)
    assert [m for _, m, _ in calls(fake)] == [
        "sendmessage",
        "editmessagetext",
        "sendmessage",
        "deletemessage",
    ]
    assert first.deleted and fake.messages(GROUP)[-1].text == "score: 2"


async def quotas_and_windows(one: Rates, two: Rates, limits: OutboxLimits) -> None:
    """What two holders of the rates (two workers, or one) see of each other's."""
    ops = limits.answer_ops
    assert all([await one.take(GROUP, 7, Quota.ANSWERS) for _ in range(ops - 1)])
    assert await two.take(GROUP, 7, Quota.ANSWERS, count=False)  # room, left as it is
    assert await two.take(GROUP, 7, Quota.ANSWERS)
    assert not await one.take(GROUP, 7, Quota.ANSWERS)  # his quota is spent, for both …
    assert await two.take(GROUP, 8, Quota.ANSWERS)  # … not another member's
    assert await one.take(GROUP, 7, Quota.TABLES)  # nor his other quota
    assert not await two.recent(GROUP, outbox_key("answer:7:help"))
    await one.sent_anew(GROUP, outbox_key("answer:7:help"))
    assert await two.recent(GROUP, outbox_key("answer:7:help"))
    half = share(limits.group_ops)
    for _ in range(half):  # answers fill half of the group's window …
        assert await one.turn(GROUP, None, wait=False, answer=True)
        await one.spent(GROUP, answer=True)
        await one.done(GROUP, answer=True)
    assert not await two.turn(GROUP, None, wait=False, answer=True)  # … no more answers …
    assert await two.turn(GROUP, None, wait=False)  # … and the table's turn still goes
    await two.done(GROUP)
    await asyncio.sleep(limits.group_window)
    assert await two.take(GROUP, 7, Quota.ANSWERS)  # a window later: room again
    assert not await one.recent(GROUP, outbox_key("answer:7:help"))
    assert await two.turn(GROUP, None, wait=False, answer=True)


async def test_answers_share_and_quotas_hold_across_workers(
    clients: Callable[[], Redis],
) -> None:
    limits = OutboxLimits(group_ops=6, group_window=0.5)
    started = time.monotonic()
    await quotas_and_windows(RedisRates(clients(), limits), RedisRates(clients(), limits), limits)
    assert time.monotonic() - started < 5


async def test_answers_share_and_quotas_hold_in_one_process() -> None:
    limits = OutboxLimits(group_ops=6, group_window=0.5)
    rates = LocalRates(limits)
    await quotas_and_windows(rates, rates, limits)
