"""A basic group becomes a supergroup and everything follows the new chat id."""

from __future__ import annotations

import random
import time

from bot.app import RunningBot
from bot.keys import outbox_key
from bot.runtime.ratings import rate
from bot.storage import open_repository
from bot.storage.rows import ResultRow, ResultSeat, StoredMessage, TableStatus
from tests.bot.helpers import (
    db_rows,
    open_table,
    play_step,
    play_until_end,
    result_message,
    say,
    table_message,
)
from tests.databases import TestDatabase
from tests.fakeapi import FakeTelegram
from tests.fakeapi.users import SimGroup, SimUser

OLD, NEW = -5001, -1005001


def three(fake: FakeTelegram) -> tuple[SimGroup, list[SimUser]]:
    anna = fake.add_user(101, "Anna", language_code="en", username="anna")
    boris = fake.add_user(102, "Boris", language_code="ru")
    vera = fake.add_user(103, "Vera", language_code="ru")
    group = fake.add_group(OLD, "Пятница", admins=[101], members=[102, 103], supergroup=False)
    return group, [anna, boris, vera]


def redeliver(fake: FakeTelegram) -> None:
    """Both service messages once more, as new updates (not a repeat of an update id)."""
    for chat_id in (OLD, NEW):
        for message in fake.chat(chat_id).messages.values():
            if "migrate_to_chat_id" in message.extra or "migrate_from_chat_id" in message.extra:
                fake.push_update("message", fake.message_dict(message))


async def test_running_table_follows_the_group_into_the_supergroup(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    fake = fake_telegram
    group, players = three(fake)
    await open_table(fake, group, players)
    await bot.services.people.set_chat_language(OLD, "ru")  # not Anna's (en), who migrates
    rng = random.Random(3)
    for _ in range(4):
        assert await play_step(fake, group, players, rng)
    await fake.settle(quiet=0.05)
    old_table = table_message(group)
    assert old_table is not None
    mark = fake.mark()
    new = fake.migrate_group(group, NEW)
    await fake.wait_until(lambda: table_message(new) is not None, timeout=10)
    await fake.settle(quiet=0.05)
    assert db_rows(database, "SELECT COUNT(*) FROM tables WHERE chat_id = ?", OLD) == [(0,)]
    assert db_rows(database, "SELECT COUNT(*) FROM messages WHERE chat_id = ?", OLD) == [(0,)]
    assert db_rows(database, "SELECT title, language FROM chats WHERE id = ?", NEW) == [
        ("Пятница", "ru")
    ]
    moved = table_message(new)
    assert moved is not None and "Ход" in moved.text  # the chat's language came along

    await play_until_end(fake, new, players, rng)  # the private hands go on as before
    await fake.settle(quiet=0.05)
    assert result_message(new) is not None and result_message(group) is None
    assert fake.count(chat_id=OLD, since=mark) == 0  # nothing more to the old chat
    assert fake.count("editMessageText", chat_id=NEW, since=mark) > 0  # edited there
    ledger = db_rows(database, "SELECT chat_id, user_id, played FROM ledger ORDER BY user_id")
    assert ledger == [(NEW, 101, 1), (NEW, 102, 1), (NEW, 103, 1)]
    score = await say(fake, players[1], "/score", new)
    assert score.text.startswith("📊")
    for user in players:
        assert user.first_name in score.text

    messages = len(new.messages)
    before = fake.mark()
    redeliver(fake)
    await fake.settle(quiet=0.1)
    assert fake.count(since=before) - fake.count("getUpdates", since=before) == 0
    assert len(new.messages) == messages
    assert db_rows(database, "SELECT chat_id, user_id, played FROM ledger ORDER BY user_id") == (
        ledger
    )
    record = await say(fake, players[2], "/record", new)
    assert record.document is not None and record.document.filename.endswith(".jsonl")


async def test_closed_games_and_standings_follow_the_group(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    fake = fake_telegram
    group, players = three(fake)
    await open_table(fake, group, players)
    await play_until_end(fake, group, players, random.Random(5))
    await fake.settle(quiet=0.05)
    new = fake.migrate_group(group, NEW)
    # the match's result (with its buttons) is shown anew in the new chat
    await fake.wait_until(lambda: result_message(new) is not None, timeout=10)
    await fake.settle(quiet=0.05)
    assert db_rows(database, "SELECT COUNT(*) FROM ledger WHERE chat_id = ?", OLD) == [(0,)]
    assert db_rows(database, "SELECT COUNT(*) FROM ledger WHERE chat_id = ?", NEW) == [(3,)]
    score = await say(fake, players[0], "/score", new)
    assert score.text.startswith("📊")
    assert all(u.first_name in score.text for u in players)
    record = await say(fake, players[1], "/record", new)
    assert record.document is not None and record.document.filename.endswith(".jsonl")
    empty = await say(fake, players[1], "/score", fake.add_group(-1009, "Other", members=[102]))
    assert all(u.first_name not in empty.text for u in players[::2])


async def test_migrate_chat_merges_standings_and_runs_once(database: TestDatabase) -> None:
    """The repository's unit: rows move, standings already under the new id are added to
    (not lost), and a second run changes nothing and says so."""
    repo = await open_repository(database)
    try:
        async with repo.unit() as tx:
            await tx.upsert_chat(OLD, "g")
            await tx.set_chat_language(OLD, "en")
            await tx.upsert_chat(NEW, "g")
            await tx.upsert_user(1, "A", None, "ru")
            closed = await tx.create_table(OLD, "mushka", {}, 1, "code", 0.0)
            await tx.update_table(closed, status=TableStatus.CLOSED)
            await tx.book(OLD, "mushka", 1, 10, True)
            await tx.book(NEW, "mushka", 1, -3, False)
            seats = (ResultSeat(1, "", "A", 1, 10), ResultSeat(0, "easy", "🤖", 2, -10))
            await rate(tx, ResultRow(closed, 1, OLD, "mushka", True, seats), time.time)  # rated
        rated = [r.mu for r in await repo.ratings(OLD)]
        await repo.put_message(StoredMessage(OLD, outbox_key("table:1"), 5, "d", True))
        async with repo.unit() as tx:
            assert await tx.migrate_chat(OLD, NEW)
        async with repo.unit() as tx:
            assert not await tx.migrate_chat(OLD, NEW)
        assert [t.chat_id for t in await repo.tables(chat_id=NEW)] == [NEW]
        assert await repo.tables(chat_id=OLD) == []
        (row,) = await repo.ledger(chat_id=NEW)
        assert (row.balance, row.played, row.won) == (7, 2, 1)
        assert await repo.ledger(chat_id=OLD) == []
        # the ratings and their results follow the group
        assert [r.mu for r in await repo.ratings(NEW)] == rated and len(rated) == 2
        assert await repo.ratings(OLD) == []
        assert [r.chat_id for r in await repo.results()] == [NEW]
        assert [m for m in await repo.messages() if m.chat_id == OLD] == []
        chat = await repo.chat(NEW)
        assert chat is not None and chat.language == "en"
    finally:
        await repo.close()
