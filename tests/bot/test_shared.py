"""What workers share through a real Redis (``tests/services.py``): the table lock, the
outbox's per-chat budget and message book, the scheduler's leader lease, the update gate.
Each "worker" here is its own client with its own objects, as two processes would have."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from redis.asyncio import Redis
from redis.asyncio.lock import Lock

from bot.coordination.redis_locks import PREFIX, RedisLeader, RedisLocks, UpdateGate, connect
from bot.keys import outbox_key
from bot.rendered import Rendered
from bot.runtime.commands import Command, DeadlineDue
from bot.scheduling import Scheduler
from bot.sending.outbox import Outbox
from bot.sending.rates import OutboxLimits
from bot.sending.redis_book import RedisBook, RedisRates
from bot.storage.db import Database
from bot.storage.rows import Deadline
from bot.storage.sqlite import sqlite_repository
from tests.fakeapi import FakeTelegram

GROUP = -100777
LIMITS = OutboxLimits(
    group_ops=5, group_window=1.0, edit_gap=0.1, private_ops=3, private_window=0.3
)


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


async def test_two_holders_of_one_table_exclude_each_other_and_count_turns(
    clients: Callable[[], Redis],
) -> None:
    a, b = RedisLocks(clients(), lease=2), RedisLocks(clients(), lease=2)
    inside: list[str] = []
    overlaps = 0
    turns: list[int] = []

    async def work(locks: RedisLocks, name: str) -> None:
        nonlocal overlaps
        for _ in range(5):
            async with locks.hold(7) as turn:
                turns.append(turn.version)
                inside.append(name)
                overlaps += len(inside) > 1
                await asyncio.sleep(0.01)
                inside.remove(name)

    await asyncio.gather(work(a, "a"), work(b, "b"), work(a, "a2"))
    assert overlaps == 0
    assert sorted(turns) == list(range(1, 16))  # each hold one turn, none shared
    async with a.hold(8) as other:  # another table: its own counter, no waiting
        assert other.version == 1


async def test_a_dead_holders_lease_runs_out_and_the_table_is_taken_over(
    clients: Callable[[], Redis],
) -> None:
    dead = Lock(clients(), f"{PREFIX}lock:9", timeout=1.0, thread_local=False)
    assert await dead.acquire(blocking=False)  # held by a worker that never lets go (kill -9)
    locks = RedisLocks(clients(), lease=1.0)
    started = time.monotonic()
    async with asyncio.timeout(5), locks.hold(9):
        waited = time.monotonic() - started
    assert 0.5 <= waited <= 3.0, waited


async def test_a_living_holder_keeps_its_lease_past_the_timeout(
    clients: Callable[[], Redis],
) -> None:
    a, b = RedisLocks(clients(), lease=1.0), RedisLocks(clients(), lease=1.0)
    order: list[str] = []

    async def long_turn() -> None:
        async with a.hold(3):
            order.append("a in")
            await asyncio.sleep(2.5)  # longer than the lease: renewed meanwhile
            order.append("a out")

    async def second() -> None:
        await asyncio.sleep(0.2)
        async with b.hold(3):
            order.append("b in")

    await asyncio.gather(long_turn(), second())
    assert order == ["a in", "a out", "b in"]


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(tmp_path / "bot.sqlite3")
    try:
        yield database
    finally:
        await database.close()


def new_bot(fake: FakeTelegram) -> Bot:
    return Bot(fake.token, session=AiohttpSession(api=TelegramAPIServer.from_base(fake.base_url)))


async def test_two_outboxes_stay_within_one_groups_budget_in_total(
    fake_telegram: FakeTelegram, db: Database, clients: Callable[[], Redis]
) -> None:
    fake = fake_telegram
    fake.add_user(1, "Vera")
    fake.add_group(GROUP, "Table", members=[1])
    bots = [new_bot(fake), new_bot(fake)]
    try:
        boxes = []
        for client_bot in bots:
            redis = clients()
            box = Outbox(
                client_bot,
                sqlite_repository(db),
                LIMITS,
                rates=RedisRates(redis, LIMITS),
                book=RedisBook(redis, lease=2),
            )
            await box.load()
            boxes.append(box)
        for n in range(8):
            for i, box in enumerate(boxes):
                box.post(GROUP, Rendered(f"worker {i} note {n}"))
        await asyncio.wait_for(asyncio.gather(*(b.drain() for b in boxes)), 20)
    finally:
        for client_bot in bots:
            await client_bot.session.close()
    times = sorted(c.at for c in fake.calls("sendMessage") if c.chat_id == GROUP)
    assert len(times) == 16
    worst = max(
        sum(1 for t in times if start <= t < start + LIMITS.group_window) for start in times
    )
    assert worst <= LIMITS.group_ops, worst  # one budget for both (alone each would send 5+5)
    assert times[-1] - times[0] >= 2 * LIMITS.group_window * 0.9  # 16 calls need 3 windows


async def test_two_outboxes_edit_one_message_and_the_later_turn_wins(
    fake_telegram: FakeTelegram, db: Database, clients: Callable[[], Redis]
) -> None:
    fake = fake_telegram
    fake.add_user(1, "Vera")
    fake.add_group(GROUP, "Table", members=[1])
    bots = [new_bot(fake), new_bot(fake)]
    try:
        a, b = (
            Outbox(
                bot_, sqlite_repository(db), LIMITS, rates=RedisRates(r, LIMITS), book=RedisBook(r)
            )
            for bot_, r in zip(bots, (clients(), clients()), strict=True)
        )
        a.show(GROUP, outbox_key("table:1:1"), Rendered("turn 1"), rev=1)
        await a.drain()
        b.show(
            GROUP, outbox_key("table:1:1"), Rendered("turn 3"), rev=3
        )  # the same message, found in the book
        await b.drain()
        a.show(
            GROUP, outbox_key("table:1:1"), Rendered("turn 2 (late)"), rev=2
        )  # an older turn: never shown
        await a.drain()
        assert a.book is not None
        assert await a.book.key_of(GROUP, fake.messages(GROUP)[0].message_id) == outbox_key(
            "table:1:1"
        )
    finally:
        for client_bot in bots:
            await client_bot.session.close()
    shown = fake.messages(GROUP)
    assert len(shown) == 1  # one message, edited — never sent twice by two workers
    assert shown[0].version.text == "turn 3"


def deadlines_in(store: list[Deadline]) -> Callable[[], asyncio.Future[list[Deadline]]]:
    def read() -> asyncio.Future[list[Deadline]]:
        future: asyncio.Future[list[Deadline]] = asyncio.get_running_loop().create_future()
        future.set_result(list(store))
        return future

    return read


async def test_two_schedulers_fire_a_deadline_once_and_the_other_takes_over(
    clients: Callable[[], Redis],
) -> None:
    store: list[Deadline] = []  # the database's deadlines, as both workers read them
    fired: list[tuple[str, int]] = []

    def firing(name: str) -> Callable[[Command], asyncio.Future[None]]:
        def fire(due: Command) -> asyncio.Future[None]:
            assert isinstance(due, DeadlineDue)
            deadline = due.deadline
            fired.append((name, deadline.table_id))
            store.remove(deadline)
            future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            future.set_result(None)
            return future

        return fire

    lease = 1.0
    schedulers = {
        name: Scheduler(
            leader=RedisLeader(clients(), lease=lease),
            stored=deadlines_in(store),
            poll=0.05,
            lease=lease,
        )
        for name in ("a", "b")
    }
    for name, scheduler in schedulers.items():
        scheduler.start([], firing(name))
    try:
        store.append(Deadline(1, "computer", time.time() + 0.2, 4))
        for scheduler in schedulers.values():
            scheduler.add(store[0])  # both heard of it (each worker's own outcome, say)
        await asyncio.sleep(1.0)
        assert len(fired) == 1, fired
        leader = fired[0][0]
        assert schedulers[leader].leading and not schedulers[other(leader)].leading
        # the leader dies without a word (no resign): its lease runs out, the other leads
        task = schedulers[leader]._task
        assert task is not None
        task.cancel()
        store.append(Deadline(2, "turn", time.time() + 0.1, 9))
        await asyncio.sleep(lease * 2.5)
        assert fired[1:] == [(other(leader), 2)]
    finally:
        for scheduler in schedulers.values():
            await scheduler.stop()


def other(name: str) -> str:
    return "b" if name == "a" else "a"


async def test_an_update_is_handled_once_and_again_after_its_handler_died(
    clients: Callable[[], Redis],
) -> None:
    a, b = UpdateGate(clients(), lease=1.0), UpdateGate(clients(), lease=1.0)
    assert await a.begin(10) == "new"
    assert await b.begin(10) == "busy"  # a redelivery while the first is being handled: 503
    await a.end(10, True)
    assert await b.begin(10) == "done"  # handled: skipped
    assert await a.begin(11) == "new"  # … and a's worker is killed here
    await asyncio.sleep(1.2)
    assert await b.begin(11) == "new"  # its lease ran out: handled anew, nothing lost
    await b.end(11, False)  # a handler that failed lets go at once
    assert await a.begin(11) == "new"


async def test_every_worker_keeps_a_groups_ephemeral_messages_in_one_budget(
    clients: Callable[[], Redis],
) -> None:
    """Two workers' messages for members of one group alone count in the group's ephemeral
    window (``BOT_EPHEMERAL_PER_MINUTE``), and never in the group's own."""
    limits = OutboxLimits(group_ops=1, group_window=1.0, ephemeral_ops=2)
    one, two = RedisRates(clients(), limits), RedisRates(clients(), limits)
    start = time.monotonic()
    for rates, receiver in ((one, 1), (two, 2)):
        await rates.turn(-5, None, receiver)
        await rates.spent(-5, receiver)
        await rates.done(-5, receiver)
    await one.turn(-5, None)  # the group's own window: apart, and empty
    await one.spent(-5)
    await one.done(-5)
    assert time.monotonic() - start < 0.5
    await two.turn(-5, None, 3)  # a third member: the group's ephemeral window is full
    assert time.monotonic() - start >= 0.9


async def test_every_worker_counts_only_new_messages_in_the_window_of_all_chats(
    clients: Callable[[], Redis],
) -> None:
    """Edits and deletes never wait for the window of all chats together; new messages
    from two workers share it."""
    limits = OutboxLimits(private_ops=100, private_window=1.0, global_ops=3)
    one, two = RedisRates(clients(), limits), RedisRates(clients(), limits)
    start = time.monotonic()
    for chat in range(1, 11):  # ten edits at once
        rates = one if chat % 2 else two
        await rates.turn(chat, None, new=False)
        await rates.spent(chat, new=False)
        await rates.done(chat)
    for chat in range(11, 14):  # three new messages fill the window …
        rates = one if chat % 2 else two
        await rates.turn(chat, None)
        await rates.spent(chat)
        await rates.done(chat)
    assert time.monotonic() - start < 0.5
    await two.turn(20, None, new=False)  # … an edit still goes at once …
    assert time.monotonic() - start < 0.5
    assert not await two.turn(22, None, wait=False)  # … a new message is told it would wait …
    assert await two.turn(23, None, new=False, wait=False)  # (an edit is not)
    await one.turn(21, None)  # … and a fourth new message waits for the window
    assert time.monotonic() - start >= 0.9


async def test_every_worker_lets_a_ping_in_only_while_half_the_window_of_all_chats_is_free(
    clients: Callable[[], Redis],
) -> None:
    limits = OutboxLimits(private_ops=100, private_window=1.0, global_ops=4)
    one, two = RedisRates(clients(), limits), RedisRates(clients(), limits)
    for chat, rates in ((1, one), (2, two)):  # half of the second's new messages are out
        assert await rates.turn(chat, None)
        await rates.spent(chat)
        await rates.done(chat)
    assert not await one.turn(3, None, notice=True, wait=False)  # a ping would wait …
    assert await two.turn(4, None, wait=False)  # … a deal's result goes
