"""Two workers' runtimes and outboxes on one database and one real Redis: what one
worker knows of a table or a message, the other must know too. Each "worker" has its own
repository connection, caches, locks client and outbox, as two processes would."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass

import pytest
from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.enums import ChatMemberStatus
from redis.asyncio import Redis

from bot.caches.members import Members, Membership
from bot.caches.people import People
from bot.callbacks import Kind, Press
from bot.coordination.redis_locks import RedisLocks, connect
from bot.keys import outbox_key
from bot.refused import BotRefusal, Refused
from bot.rendered import Button, Keyboard, Rendered
from bot.runtime.chat_commands import OpenTable
from bot.runtime.commands import DeadlineDue, JoinByLink, LobbyPressed, StartReached
from bot.runtime.handle import Runtime
from bot.runtime.outcome import Note, Outcome, keys
from bot.sending.outbox import Outbox, OutboxLimits
from bot.sending.redis_book import RedisBook, RedisRates
from bot.storage import open_repository
from bot.storage.protocol import Store
from bot.storage.rows import DeadlineKind, TableRow
from tests.bot.book import KeyBook
from tests.databases import TestDatabase
from tests.fakeapi import FakeTelegram

BOOK = KeyBook()
GROUP = -100888
FAST = OutboxLimits(group_ops=8, group_window=1.0, edit_gap=0.1, private_ops=3, private_window=0.3)


@dataclass
class Worker:
    repo: Store
    redis: Redis
    runtime: Runtime


async def member(chat_id: int, user_id: int) -> Membership:
    return Membership(ChatMemberStatus.MEMBER)


@pytest.fixture
async def workers(
    database: TestDatabase, redis_url: str
) -> AsyncIterator[Callable[[], asyncio.Future[Worker]]]:
    async with AsyncExitStack() as stack:

        async def make() -> Worker:
            repo = await open_repository(database)
            stack.push_async_callback(repo.close)
            redis = connect(redis_url)
            stack.push_async_callback(redis.aclose)
            people = People(repo, "ru", keep=1.0)
            runtime = Runtime(repo, people, Members(member), BOOK, locks=RedisLocks(redis, lease=2))
            return Worker(repo, redis, runtime)

        def start() -> asyncio.Future[Worker]:
            return asyncio.ensure_future(make())

        yield start


async def no_admin() -> bool:
    return False


async def test_a_join_on_another_worker_during_start_is_held_back(
    workers: Callable[[], asyncio.Future[Worker]],
) -> None:
    """Worker A takes Start (its private notes go out); worker B gets a join meanwhile: it is
    refused, and the seating A checked is the one that starts."""
    a, b = await workers(), await workers()
    table_id, row, notes = await started_by(a)
    assert notes.screens and all(isinstance(s, Note) for s in notes.screens)
    assert [d.kind for d in notes.due] == [DeadlineKind.STARTING]

    with pytest.raises(Refused) as refused:  # on the other worker, in Start's gap
        await b.runtime.handle(JoinByLink(table_id, row.join_code, 3, "Late"))
    assert refused.value.reason is BotRefusal.GAME_STARTED
    join = Press(Kind.LOBBY, table_id, None, row.generation, "j")
    with pytest.raises(Refused):
        await b.runtime.handle(LobbyPressed(join, 3, "Late", BOOK.at(GROUP, keys(table_id).lobby)))
    assert [s.user_id for s in await b.repo.seats(table_id)] == [1, 2]

    started = await a.runtime.handle(StartReached(table_id, row.generation, {1: True, 2: True}))
    assert (table_id, DeadlineKind.STARTING) in started.undue
    after = await b.repo.table(table_id)
    assert after is not None and after.status == "running"
    assert [s.user_id for s in await b.repo.seats(table_id)] == [1, 2]
    assert all(d.kind != DeadlineKind.STARTING for d in await b.repo.deadlines(table_id))


async def test_a_start_whose_worker_died_lapses_and_the_lobby_seats_again(
    workers: Callable[[], asyncio.Future[Worker]],
) -> None:
    a, b = await workers(), await workers()
    table_id, row, notes = await started_by(a)
    (hold,) = notes.due  # worker A dies here; the leader (B) fires the deadline
    again = await b.runtime.handle(DeadlineDue(hold))
    assert (table_id, DeadlineKind.STARTING) in again.undue
    await b.runtime.handle(JoinByLink(table_id, row.join_code, 3, "Late"))  # it seats again
    assert [s.user_id for s in await b.repo.seats(table_id)] == [1, 2, 3]


async def started_by(a: Worker) -> tuple[int, TableRow, Outcome]:
    """Vera opens a Кончинка table, Olga joins, Vera presses Start (on worker ``a``): the
    table, its row, Start's first half (the private notes)."""
    async with a.repo.unit() as tx:
        await tx.upsert_chat(GROUP, "Table")
        for uid, name in ((1, "Vera"), (2, "Olga"), (3, "Late")):
            await tx.upsert_user(uid, name, None, "ru")
            await tx.set_private_ok(uid, True)
    opened = await a.runtime.handle(OpenTable(GROUP, None, 1, "Vera", "konchinka"))
    table_id = next(s.facts.table.id for s in opened.screens if hasattr(s, "facts"))
    row = await a.repo.table(table_id)
    assert row is not None
    await a.runtime.handle(JoinByLink(table_id, row.join_code, 2, "Olga"))
    start = Press(Kind.LOBBY, table_id, None, row.generation, "s")
    notes = await a.runtime.handle(
        LobbyPressed(start, 1, "Vera", BOOK.at(GROUP, keys(table_id).lobby))
    )
    return table_id, row, notes


def hand(*data: str) -> Rendered:
    return Rendered("your cards", Keyboard(tuple((Button(d, callback_data=d),) for d in data)))


async def test_a_press_on_another_worker_is_checked_against_the_last_queued_screen(
    fake_telegram: FakeTelegram, database: TestDatabase, redis_url: str
) -> None:
    """Worker A queues a hand's new screen (new buttons) that Telegram has not got yet; worker
    B checks a press against what that screen offers, as worker A itself would."""
    fake = fake_telegram
    vera = fake.add_user(1, "Vera")
    fake.private_chat(vera)
    vera.started = True
    async with AsyncExitStack() as stack:
        boxes = []
        for _ in range(2):
            repo = await open_repository(database)
            stack.push_async_callback(repo.close)
            redis = connect(redis_url)
            stack.push_async_callback(redis.aclose)
            api = AiohttpSession(api=TelegramAPIServer.from_base(fake.base_url))
            bot = Bot(fake.token, session=api)
            stack.push_async_callback(bot.session.close)
            box = Outbox(bot, repo, FAST, rates=RedisRates(redis, FAST), book=RedisBook(redis))
            await box.load()
            stack.push_async_callback(box.close)
            boxes.append(box)
        a, b = boxes
        assert a.book is not None and b.book is not None
        a.show(vera.id, outbox_key("hand:1:0"), hand("h:1:0:1:p:AS", "h:1:0:1:p:KS"), rev=1)
        await a.drain()
        assert await b.book.offers(vera.id, outbox_key("hand:1:0")) == frozenset(
            {"h:1:0:1:p:AS", "h:1:0:1:p:KS"}
        )
        held = fake.gate("editMessageText", chat_id=vera.id)  # the new screen is on its way
        a.show(
            vera.id, outbox_key("hand:1:0"), hand("h:1:0:1:m:AS"), rev=2
        )  # a mark: the same move
        assert a.telling(
            vera.id, outbox_key("hand:1:0")
        )  # on its way to Redis: A answers from memory
        await asyncio.sleep(0.2)
        assert not a.telling(vera.id, outbox_key("hand:1:0"))
        assert await b.book.offers(vera.id, outbox_key("hand:1:0")) == frozenset({"h:1:0:1:m:AS"})
        assert a.offers(vera.id, outbox_key("hand:1:0")) == frozenset(
            {"h:1:0:1:m:AS"}
        )  # what A checks, the same
        # an older turn's screen, queued late by B, never takes its place
        b.show(vera.id, outbox_key("hand:1:0"), hand("h:1:0:1:p:AS"), rev=1)
        await asyncio.sleep(0.2)
        assert await a.book.offers(vera.id, outbox_key("hand:1:0")) == frozenset({"h:1:0:1:m:AS"})
        held.set()
        await asyncio.wait_for(asyncio.gather(a.drain(), b.drain()), 10)
    (shown,) = fake.messages(vera.id)
    assert [x.callback_data for x in shown.all_buttons] == ["h:1:0:1:m:AS"]
