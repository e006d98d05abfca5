"""The outbox against faults: a Redis outage of a few seconds while two workers
send, a kill between a send and its settle, idle chats that must not stay in memory. Redis is
a real ``redis-server`` of the test's own (``tests/services.py``), stopped and started again on
its port; the database is the suite's (SQLite, or PostgreSQL with ``BOT_TEST_DATABASE``)."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from collections.abc import Iterator

import pytest
from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from redis.asyncio import Redis

from bot.coordination.redis_locks import connect
from bot.keys import outbox_key
from bot.rendered import Rendered
from bot.runtime.commands import OwedHeld
from bot.sending.outbox import Outbox, OutboxLimits
from bot.sending.redis_book import RedisBook, RedisRates
from bot.sending.session import TelegramLimits
from bot.storage.protocol import Store
from bot.storage.rows import OwedRef, OwedRow, OwedState
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import ApiCall
from tests.services import RedisProcess, redis_available, redis_process

GROUP = -100555
FAST = OutboxLimits(group_ops=8, group_window=1.0, edit_gap=0.1, private_ops=3, private_window=0.3)
OUTAGE_S = 2.5
needs_redis = pytest.mark.skipif(not redis_available(), reason="no redis-server installed")


@pytest.fixture
def redis() -> Iterator[RedisProcess]:
    if os.environ.get("BOT_TEST_REDIS") or not redis_available():
        pytest.skip("needs a redis-server of its own (it is stopped and started again)")
    with redis_process(persist=True) as server:  # as deployed: its data survive a restart
        yield server


def new_bot(fake: FakeTelegram) -> Bot:
    session = AiohttpSession(api=TelegramAPIServer.from_base(fake.base_url))
    session.middleware(TelegramLimits())
    return Bot(fake.token, session=session)


async def worker(bot: Bot, store: Store, client: Redis) -> Outbox:
    box = Outbox(bot, store, FAST, rates=RedisRates(client, FAST), book=RedisBook(client, lease=2))
    await box.load()
    return box


def people(fake: FakeTelegram, count: int) -> list[int]:
    ids = list(range(1, count + 1))
    for uid in ids:
        user = fake.add_user(uid, f"P{uid}")
        fake.private_chat(user)
        user.started = True
    fake.add_group(GROUP, "Table", members=ids)
    return ids


@needs_redis
async def test_a_redis_outage_of_seconds_delays_two_workers_messages_and_loses_none(
    fake_telegram: FakeTelegram,
    store: Store,
    redis: RedisProcess,
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake = fake_telegram
    users = people(fake, 3)
    bots = [new_bot(fake), new_bot(fake)]
    clients = [connect(redis.url), connect(redis.url)]
    boxes = [await worker(b, store, c) for b, c in zip(bots, clients, strict=True)]
    caplog.set_level(logging.WARNING, logger="bot.sending.patience")
    try:
        posts = 0
        for n in range(12):
            for i, box in enumerate(boxes):
                box.post(GROUP, Rendered(f"worker {i} note {n}"))
                box.post(users[n % 3], Rendered(f"worker {i} private {n}"))
                posts += 2
            shower = boxes[n % 2]
            # the table's turn (as the Presenter gives it)
            shower.show(GROUP, outbox_key("table:1:1"), Rendered(f"table at move {n}"), rev=n + 1)
        await asyncio.sleep(0.3)  # some gone, the rest queued (nothing is queued after)
        assert fake.calls("sendMessage")
        assert all(b.pending(GROUP) for b in boxes)
        redis.stop()
        await asyncio.sleep(OUTAGE_S)
        redis.start()
        async with asyncio.timeout(60):
            await asyncio.gather(*(b.drain() for b in boxes))
        assert [b.pending() for b in boxes] == [0, 0]
    finally:
        for box in boxes:
            await box.close()
        for client in clients:
            await client.aclose()
        for client_bot in bots:
            await client_bot.session.close()
    sent = [c.params["text"] for c in fake.calls("sendMessage")]
    notes = [t for t in sent if "note" in t or "private" in t]
    assert len(notes) == posts == len(set(notes))  # every message once: none lost, none twice
    tables = [m for m in fake.messages(GROUP) if m.text.startswith("table")]
    assert [m.version.text for m in tables] == ["table at move 11"]  # one message, final state
    began = [r for r in caplog.records if "retrying with back-off" in r.getMessage()]
    ended = [r for r in caplog.records if "working again" in r.getMessage()]
    assert 1 <= len(began) <= len(boxes), [r.getMessage() for r in began]  # once per outbox
    assert len(ended) == len(began)


def resume(stalled: list[int]) -> None:
    while stalled:
        os.kill(stalled.pop(), signal.SIGCONT)


@needs_redis
async def test_a_kill_after_telegram_answered_a_result_never_posts_it_twice(
    fake_telegram: FakeTelegram, store: Store, redis: RedisProcess
) -> None:
    """The answer comes back and Redis stalls at once (SIGSTOP): the result's id is stored
    before any Redis call, so the bot killed then and started again does not post it again."""
    fake = fake_telegram
    people(fake, 1)
    stalled: list[int] = []
    answered = asyncio.Event()

    def stall(call: ApiCall) -> None:
        if call.method == "sendMessage" and "result" in str(call.params.get("text")):
            assert redis.process is not None
            os.kill(redis.process.pid, signal.SIGSTOP)
            stalled.append(redis.process.pid)
            answered.set()

    fake.on_done.append(stall)
    result = Rendered("📋 result of deal 1")
    bot, client = new_bot(fake), connect(redis.url)
    try:
        box = await worker(bot, store, client)
        box.show(GROUP, outbox_key("deal:1:40"), result)
        await asyncio.wait_for(answered.wait(), 10)
        await asyncio.sleep(0.5)  # the bot has the answer; Redis answers nothing now
        resume(stalled)
        await box.close(grace=0)  # the kill: before any answer of Redis is read
    finally:
        resume(stalled)
        fake.on_done.clear()
        await client.aclose()
    client = connect(redis.url)
    try:
        again = await worker(bot, store, client)  # the restart shows what the table shows again
        again.show(GROUP, outbox_key("deal:1:40"), result)
        await asyncio.wait_for(again.drain(), 10)
        await again.close()
    finally:
        await client.aclose()
        await bot.session.close()
    assert [m.text for m in fake.messages(GROUP)] == [result.text]


async def test_a_kill_before_telegram_got_a_result_posts_it_after_the_restart(
    fake_telegram: FakeTelegram, store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    """Marked, then killed while its request waits: the restart knows it was being sent, says
    so, and sends it — once, and settled."""
    fake = fake_telegram
    people(fake, 1)
    held = fake.gate("sendMessage", chat_id=GROUP)
    result = Rendered("📋 result of deal 2")
    bot = new_bot(fake)
    try:
        box = Outbox(bot, store, FAST)
        await box.load()
        box.show(GROUP, outbox_key("deal:1:41"), result)
        await asyncio.sleep(0.5)
        assert len(fake.calls("sendMessage")) == 1  # it waits at the gate
        await box.close(grace=0)  # killed with the request on its way
        assert await store.intents() == [(GROUP, outbox_key("deal:1:41"))]
        held.set()
        await asyncio.sleep(0.1)
        assert fake.messages(GROUP) == []  # Telegram never got it
        caplog.set_level(logging.WARNING, logger="bot.sending.outbox")
        again = Outbox(bot, store, FAST)
        await again.load()
        again.show(GROUP, outbox_key("deal:1:41"), result)
        await asyncio.wait_for(again.drain(), 10)
    finally:
        await bot.session.close()
    assert [m.text for m in fake.messages(GROUP)] == [result.text]
    assert await store.intents() == []
    fake.fail_next("sendMessage", chat_id=GROUP)  # a send that fails leaves no mark behind
    bot = new_bot(fake)
    try:
        box = Outbox(bot, store, FAST)
        await box.load()
        box.show(GROUP, outbox_key("deal:1:42"), Rendered("📋 result of deal 3"))
        await asyncio.wait_for(box.drain(), 10)
    finally:
        await bot.session.close()
    assert len(fake.messages(GROUP)) == 1 and await store.intents() == []
    assert any("deal:1:41 was being sent" in r.getMessage() for r in caplog.records)


async def test_idle_chats_keep_nothing_in_the_outbox_memory(
    fake_telegram: FakeTelegram, store: Store
) -> None:
    """Anyone may write to the bot: each chat's queue and rate window go once it is idle."""
    fake = fake_telegram
    users = people(fake, 60)
    bot = new_bot(fake)
    try:
        box = Outbox(bot, store, FAST)
        await box.load()
        for uid in users:
            box.post(uid, Rendered("hello"))
        box.post(GROUP, Rendered("hello, group"))
        await asyncio.wait_for(box.drain(), 30)
        await asyncio.sleep(FAST.group_window + 0.1)  # every window has passed
        box.post(users[0], Rendered("one more"))  # the next call sweeps the idle windows
        await asyncio.wait_for(box.drain(), 10)
        sizes = box.tracked()
    finally:
        await bot.session.close()
    assert len(fake.calls("sendMessage")) == 62
    assert sizes["chats"] == 0, sizes  # no queue kept for an idle chat
    assert sizes["windows"] <= 1, sizes  # only the chat called within its window


async def test_an_owed_message_is_settled_once_shown_and_held_while_telegram_fails(
    fake_telegram: FakeTelegram, store: Store
) -> None:
    """An owed deal result whose send fails past the session's patience (a 500) is held, and
    the chat's later entries behind it, unsent (the chat sees them in order); the runtime
    is told when to try again. Sent again, each goes once, in order, and is settled; one refused
    for good is settled; of two senders of one entry read at the same count, one sends."""
    fake = fake_telegram
    people(fake, 1)
    refs = [OwedRef("deal:1:1:50"), OwedRef("note:1:over:1:0"), OwedRef("deal:1:1:51")]
    async with store.unit() as tx:
        for ref in refs:
            key = outbox_key(ref.ref) if ref.ref.startswith("deal") else None
            await tx.owe(ref.ref, GROUP, key, "{}")
    shown = [Rendered("📋 deal 1"), Rendered("🤖 Boris"), Rendered("📋 deal 2")]
    fake.fail_next("sendMessage", 500, "Internal Server Error", chat_id=GROUP)
    told: list[tuple[int, OwedRef, float]] = []
    bot = new_bot(fake)

    def owe_again(box: Outbox, rows: list[OwedRow]) -> None:
        """What the runtime does when a held entry's time comes: each shown again, in order."""
        for row, rendered in zip(rows, shown, strict=True):
            if row.key is not None:
                box.show(GROUP, row.key, rendered, owed=row.ref)
            else:
                box.post(GROUP, rendered, owed=row.ref)

    try:
        box = Outbox(bot, store, FAST)
        box.report = lambda held: told.append(  # an OwedHeld
            (held.chat_id, held.owed, held.seconds)
            if isinstance(held, OwedHeld)
            else (0, OwedRef(""), -1.0)
        )
        await box.load()
        owe_again(box, [OwedRow(r, GROUP, None, "{}", OwedState.PENDING) for r in refs])
        await asyncio.wait_for(box.drain(), 10)
        assert fake.messages(GROUP) == []  # nothing overtakes the first
        rows = await store.owed()
        assert [(r.ref.ref, r.state, r.ref.tries) for r in rows] == [
            (refs[0].ref, OwedState.HELD, 1),
            (refs[1].ref, OwedState.HELD, 0),
            (refs[2].ref, OwedState.HELD, 0),
        ]
        assert told == [(GROUP, OwedRef(refs[0].ref, 1), FAST.owed_first)]
        assert await store.intents() == []
        owe_again(box, rows)  # its time came
        await asyncio.wait_for(box.drain(), 10)
        assert [m.text for m in fake.messages(GROUP)] == [r.text for r in shown]
        again = Outbox(bot, store, FAST)  # another sender that read them before they went
        await again.load()
        owe_again(again, rows)
        await asyncio.wait_for(again.drain(), 10)
    finally:
        await bot.session.close()
    assert [m.text for m in fake.messages(GROUP)] == [r.text for r in shown]  # each once
    assert await store.owed() == [] and await store.intents() == []


async def no_wait(seconds: float) -> None:
    """The session's sleep between 429s, without the wait."""


async def test_six_429s_in_a_row_hold_an_owed_result_tried_again_with_bounded_back_off(
    fake_telegram: FakeTelegram, store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    """Six 429s in a row (the session waits out five) hold the result; each try that fails so
    again waits twice as long as the one before, never longer than the bound; the outage is
    logged once, and once when the result goes."""
    fake = fake_telegram
    people(fake, 1)
    ref = OwedRef("deal:1:1:60")
    async with store.unit() as tx:
        await tx.owe(ref.ref, GROUP, outbox_key(ref.ref), "{}")
    tries = 6
    fake.fail_next(
        "sendMessage",
        429,
        "Too Many Requests: retry after 1",
        chat_id=GROUP,
        times=6 * tries,
        parameters={"retry_after": 1},
    )
    caplog.set_level(logging.WARNING, logger="bot.sending.outbox")
    session = AiohttpSession(api=TelegramAPIServer.from_base(fake.base_url))
    session.middleware(TelegramLimits(sleep=no_wait))
    bot = Bot(fake.token, session=session)
    told: list[float] = []
    try:
        box = Outbox(bot, store, FAST)
        box.report = lambda held: told.append(held.seconds if isinstance(held, OwedHeld) else -1)
        await box.load()
        for _ in range(tries + 1):  # the runtime shows it again each time it is told to
            (row,) = await store.owed()
            box.show(GROUP, outbox_key(ref.ref), Rendered("📋 deal 1"), owed=row.ref)
            await asyncio.wait_for(box.drain(), 10)
    finally:
        await bot.session.close()
    assert told == [5.0, 10.0, 20.0, 40.0, 60.0, 60.0]  # 5 s, twice as long each time, ≤ 1 min
    assert [m.text for m in fake.messages(GROUP)] == ["📋 deal 1"]
    assert fake.count("sendMessage", GROUP, ok=False) == 6 * tries
    assert await store.owed() == []
    said = [r.getMessage() for r in caplog.records]
    assert len([s for s in said if "can't be sent now" in s]) == 1, said
    assert len([s for s in said if "goes out again" in s]) == 1, said
