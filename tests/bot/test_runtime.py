"""The runtime's seams: stored deadlines and the scheduler, computer seats (a seat
without a Telegram user), the repository's unit of work, and the hot path's SQL."""

from __future__ import annotations

import asyncio
import random
import time

import pytest

from bot.app import RunningBot
from bot.runtime.commands import Command, DeadlineDue
from bot.scheduling import Scheduler
from bot.storage import open_repository
from bot.storage.rows import Deadline, SeatKind, TableStatus
from tests.bot.helpers import (
    db_rows,
    hand_message,
    lobby_message,
    play_until_end,
    result_message,
    table_message,
)
from tests.databases import TestDatabase
from tests.fakeapi import FakeTelegram


async def test_scheduler_fires_due_deadlines_in_time_order_and_skips_replaced_ones() -> None:
    fired: list[tuple[int, int]] = []
    t0 = time.time()
    scheduler = Scheduler(clock=time.time)
    first = [Deadline(1, "computer", t0 + 0.10, 5), Deadline(2, "computer", t0 + 0.05, 7)]
    scheduler.start(first, lambda due: _note(fired, due))
    scheduler.add(Deadline(1, "computer", t0 + 0.15, 6))  # replaces table 1's (moves 5)
    scheduler.add(Deadline(3, "computer", t0 + 500, 1))  # far away: never fires here
    for _ in range(100):  # bounded: at most 2 s
        if len(fired) == 2:
            break
        await asyncio.sleep(0.02)
    await asyncio.sleep(0.1)  # nothing else fires
    await scheduler.stop()
    assert fired == [(2, 7), (1, 6)]
    assert scheduler.pending() == 1


async def _note(fired: list[tuple[int, int]], due: Command) -> None:
    assert isinstance(due, DeadlineDue)
    fired.append((due.deadline.table_id, due.deadline.moves))


async def test_a_unit_of_work_commits_all_or_nothing(database: TestDatabase) -> None:
    repo = await open_repository(database)
    try:
        async with repo.unit() as tx:
            await tx.upsert_chat(-5, "g")
            await tx.upsert_user(1, "A", None, "ru")
            tid = await tx.create_table(-5, "mushka", {}, 1, "code", 0.0)
        with pytest.raises(RuntimeError):
            async with repo.unit() as tx:
                await tx.update_table(tid, status=TableStatus.CLOSED)
                await tx.put_deadline(Deadline(tid, "computer", 1.0, 0))
                raise RuntimeError("a failure mid-way")
        table = await repo.table(tid)
        assert table is not None and table.status == "lobby"
        assert await repo.deadlines() == []
        async with repo.unit() as tx:
            await tx.replace_seats(
                tid, [(SeatKind.HUMAN, 1, "A"), (SeatKind.COMPUTER, None, "Computer")]
            )
        seats = await repo.seats(tid)
        assert [(s.kind, s.user_id, s.computer) for s in seats] == [
            (SeatKind.HUMAN, 1, False),
            (SeatKind.COMPUTER, None, True),
        ]
    finally:
        await repo.close()


async def test_13_a_computer_seat_plays_through_stored_deadlines(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    """Two people and a seat nobody owns: the computer's moves are scheduled work, committed
    like any press; the whole pulka ends and is settled."""
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    boris = fake.add_user(102, "Boris", language_code="ru")
    group = fake.add_group(-1001, "Пятница", admins=[101], members=[102])
    for user in (anna, boris):
        await user.start_bot()
    await anna.send(group, "/newgame mushka target=5")
    await fake.wait_until(lambda: lobby_message(group) is not None, timeout=10)
    lobby = lobby_message(group)
    assert lobby is not None
    await boris.press(lobby, "✋")
    await fake.settle(quiet=0.05)
    runtime = bot.services.runtime
    table_id = await runtime.queries.open_table_id(group.id)
    assert table_id is not None
    async with bot.services.repo.unit() as tx:  # a third seat for the computer
        await tx.replace_seats(
            table_id,
            [
                (SeatKind.HUMAN, 101, "Anna"),
                (SeatKind.HUMAN, 102, "Boris"),
                (SeatKind.COMPUTER, None, "Robo"),
            ],
        )
    runtime.ctx.forget(table_id)
    await anna.press(lobby, "▶️")
    await fake.wait_until(lambda: table_message(group) is not None, timeout=10)
    await fake.settle(quiet=0.05)
    assert "Robo" in (table_message(group) or lobby).text
    players = [anna, boris]
    await play_until_end(fake, group, players, random.Random(2))
    await fake.settle(quiet=0.1)
    result = result_message(group)
    assert result is not None and "Robo" in result.text
    computer_moves = db_rows(
        database, "SELECT COUNT(*) FROM actions WHERE table_id = ? AND seat = 2", table_id
    )
    assert computer_moves[0][0] > 0
    assert db_rows(database, "SELECT COUNT(*) FROM deadlines") == [(0,)]
    assert all(hand_message(u) is not None for u in players)
