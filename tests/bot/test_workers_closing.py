"""Closing a game in play on several workers: two workers' runtimes on one database
and one real Redis, as two processes would be (each its own repository connection, caches and
locks client). The question asked on one is answered on the other; its lapse fires on the
other; a close after the first deal on the other rates the match as it stands, once."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass

import pytest
from aiogram.enums import ChatMemberStatus

from bot.caches.members import Members, Membership
from bot.caches.people import People
from bot.callbacks import Kind, LobbyAct, Press
from bot.coordination.redis_locks import RedisLocks, connect
from bot.refused import Refused
from bot.runtime.as_it_stands import money_so_far, places_by, played_deals
from bot.runtime.chat_commands import OpenTable
from bot.runtime.closing import begun
from bot.runtime.commands import AskToClose, DeadlineDue, JoinByLink, LobbyPressed, StartReached
from bot.runtime.handle import Runtime
from bot.runtime.outcome import CloseQuestion, Note, Outcome, keys
from bot.storage import open_repository
from bot.storage.protocol import Store
from bot.storage.rows import Deadline, DeadlineKind, TableStatus
from tests.bot.book import KeyBook
from tests.databases import TestDatabase

BOOK = KeyBook()
GROUP = -100777
VERA, OLGA = 1, 2


@dataclass
class Worker:
    repo: Store
    runtime: Runtime


async def member(chat_id: int, user_id: int) -> Membership:
    """Everyone is a member; Gleb (99) an admin."""
    if user_id == 99:
        return Membership(ChatMemberStatus.ADMINISTRATOR)
    return Membership(ChatMemberStatus.MEMBER)


async def no() -> bool:
    return False


async def yes() -> bool:
    return True


@pytest.fixture
async def workers(
    database: TestDatabase, redis_url: str
) -> AsyncIterator[Callable[[], Awaitable[Worker]]]:
    async with AsyncExitStack() as stack:

        async def make() -> Worker:
            repo = await open_repository(database)
            stack.push_async_callback(repo.close)
            redis = connect(redis_url)
            stack.push_async_callback(redis.aclose)
            people = People(repo, "ru", keep=1.0)
            locks = RedisLocks(redis, lease=2)
            runtime = Runtime(repo, people, Members(member), BOOK, locks=locks, away_level="easy")
            return Worker(repo, runtime)

        yield make


async def begun_on(a: Worker) -> int:
    """Vera opens a Кончинка table, Olga joins, it starts (on worker ``a``), and Vera's first
    turn times out, so the computer makes the match's first move for her: it has begun."""
    async with a.repo.unit() as tx:
        await tx.upsert_chat(GROUP, "Table")
        for uid, name in ((VERA, "Vera"), (OLGA, "Olga")):
            await tx.upsert_user(uid, name, None, "ru")
            await tx.set_private_ok(uid, True)
    opened = await a.runtime.handle(OpenTable(GROUP, None, VERA, "Vera", "konchinka"))
    table_id = next(s.facts.table.id for s in opened.screens if hasattr(s, "facts"))
    row = await a.repo.table(table_id)
    assert row is not None
    await a.runtime.handle(JoinByLink(table_id, row.join_code, OLGA, "Olga"))
    start = Press(Kind.LOBBY, table_id, None, row.generation, "s")
    await a.runtime.handle(LobbyPressed(start, VERA, "Vera", BOOK.at(GROUP, keys(table_id).lobby)))
    await a.runtime.handle(StartReached(table_id, row.generation, {VERA: True, OLGA: True}))
    await move(a, table_id)
    table = await a.runtime.ctx.load(table_id)
    assert table is not None and begun(table)
    return table_id


async def move(w: Worker, table_id: int) -> None:
    """The seat to act moves: its person's time runs out (the computer plays the turn for
    him), or the computer plays the seat it holds."""
    table = await w.runtime.ctx.load(table_id)
    assert table is not None and table.match is not None
    seat = table.match.state.to_act
    assert seat is not None
    kind = DeadlineKind.COMPUTER if table.seats[seat].computer else DeadlineKind.TURN
    await w.runtime.handle(DeadlineDue(Deadline(table_id, kind, time.time(), table.row.moves)))


def press(table_id: int, generation: int, act: LobbyAct) -> Press:
    return Press(Kind.LOBBY, table_id, None, generation, act)


async def test_a_question_asked_on_one_worker_is_answered_and_lapses_on_another(
    workers: Callable[[], Awaitable[Worker]],
) -> None:
    a, b = await workers(), await workers()
    table_id = await begun_on(a)
    row = await a.repo.table(table_id)
    assert row is not None
    asked = await a.runtime.handle(AskToClose(GROUP, None, VERA, 1))
    assert any(isinstance(s, CloseQuestion) for s in asked.screens)
    (due,) = asked.due
    cancel = keys(table_id).cancel
    agree = press(table_id, row.generation, LobbyAct.AGREE)
    await b.runtime.handle(
        LobbyPressed(agree, VERA, "Vera", BOOK.at(GROUP, cancel))
    )  # Vera agrees on B
    with pytest.raises(Refused):  # … and B knows it, when she presses again on A
        await a.runtime.handle(LobbyPressed(agree, VERA, "Vera", BOOK.at(GROUP, cancel)))
    assert [s.agreed for s in await a.repo.seats(table_id)] == [True, False]
    await b.runtime.handle(DeadlineDue(due))  # the question's time is up: B, the leader, fires it
    assert [s.agreed for s in await a.repo.seats(table_id)] == [False, False]
    with pytest.raises(Refused):  # the question went: its button is out of date on A too
        await a.runtime.handle(LobbyPressed(agree, OLGA, "Olga", BOOK.at(GROUP, cancel)))
    again = await b.runtime.handle(AskToClose(GROUP, None, VERA, 2))
    await a.runtime.handle(LobbyPressed(agree, VERA, "Vera", BOOK.at(GROUP, cancel)))
    closed = await b.runtime.handle(LobbyPressed(agree, OLGA, "Olga", BOOK.at(GROUP, cancel)))
    assert any(isinstance(s, Note) for s in closed.screens) and again.due
    after = await a.repo.table(table_id)
    assert after is not None and after.status == TableStatus.CLOSED
    assert await a.repo.results() == []  # before the first deal was over: no result


async def test_an_admin_s_close_on_another_worker_rates_the_match_as_it_stands_once(
    workers: Callable[[], Awaitable[Worker]],
) -> None:
    a, b = await workers(), await workers()
    table_id = await begun_on(a)
    for k in range(400):  # the workers take turns until the first deal is over
        table = await (a if k % 2 else b).runtime.ctx.load(table_id)
        assert table is not None and table.match is not None
        if played_deals(table.match.state.record()):
            break
        await move(a if k % 2 else b, table_id)
    else:
        raise AssertionError("the first deal did not end")
    record = table.match.state.record()
    row = await a.repo.table(table_id)
    assert row is not None and row.status == TableStatus.RUNNING
    await a.runtime.handle(AskToClose(GROUP, None, 99, 1))  # an admin asks on A …
    close = press(table_id, row.generation, LobbyAct.CANCEL)
    shut: Outcome = await b.runtime.handle(  # … and closes at once on B
        LobbyPressed(close, 99, "Gleb", BOOK.at(GROUP, keys(table_id).cancel))
    )
    assert any(isinstance(s, Note) and s.params.get("name") == "Gleb" for s in shut.screens)
    (result,) = await a.repo.results()
    money = money_so_far(row.game, row.options, record)
    assert money is not None
    assert [s.place for s in result.seats] == list(places_by(money))
    assert {s.stand_in for s in result.seats} == {"easy"}  # the computer made every decision
    with pytest.raises(Refused):  # closed: nothing more, on either worker
        await a.runtime.handle(
            LobbyPressed(close, 99, "Gleb", BOOK.at(GROUP, keys(table_id).cancel))
        )
    assert len(await b.repo.results()) == 1
