"""Groups as they really are through the fake Bot API: the bot removed from a group
(or no longer allowed to write there) closes its open table and tells the players in private."""

from __future__ import annotations

import random

from bot.app import running_bot
from bot.callbacks import b36
from bot.config import Settings
from bot.routers.members import cannot_write
from tests.bot.helpers import (
    db_rows,
    fixed_seeds,
    hand_message,
    lobby_message,
    open_table,
    play_until_end,
    watched,
)
from tests.databases import TestDatabase
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import SentMessage
from tests.fakeapi.users import SimGroup, SimUser

NAMES = ["Anna", "Boris", "Vera"]
REMOVED_RU = "Стол «Мушка» в «Пятница» закрыт: меня убрали из группы."
REMOVED_EN = 'The "Mushka" table in "Пятница" is closed: I was removed from the group.'


def three(fake: FakeTelegram) -> tuple[list[SimUser], SimGroup]:
    langs = ["ru", "ru", "en"]
    players = [fake.add_user(101 + i, n, language_code=langs[i]) for i, n in enumerate(NAMES)]
    group = fake.add_group(-1001, "Пятница", admins=[101], members=[102, 103])
    return players, group


def notes(user: SimUser, text: str) -> int:
    return sum(1 for m in user.messages if m.text == text)


async def test_removed_mid_game_closes_the_table_and_tells_the_players(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    fake = fake_telegram
    players, group = three(fake)
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await open_table(fake, group, players, options="target=25")
        assert db_rows(database, "SELECT COUNT(*) FROM deadlines") != [(0,)]
        hands = [hand_message(u) for u in players]
        assert all(h is not None and h.all_buttons for h in hands)
        mark = fake.mark()
        fake.remove_bot_from(group, by=players[0])
        await fake.wait_until(lambda: notes(players[2], REMOVED_EN) == 1, timeout=10)
        await fake.settle(quiet=0.2)
        assert db_rows(database, "SELECT status FROM tables") == [("closed",)]
        assert db_rows(database, "SELECT COUNT(*) FROM deadlines") == [(0,)]
        assert db_rows(database, "SELECT COUNT(*) FROM ledger") == [(0,)]
        assert notes(players[0], REMOVED_RU) == 1 and notes(players[1], REMOVED_RU) == 1
        assert notes(players[2], REMOVED_EN) == 1
        for hand in hands:
            assert hand is not None and hand.all_buttons == []  # nothing left to press
        assert fake.count(chat_id=group.id, since=mark) == 0  # nothing tried in the group
    mark = fake.mark()
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):  # a restart
        await fake.settle(quiet=0.3)
    assert db_rows(database, "SELECT status FROM tables") == [("closed",)]
    assert fake.count(chat_id=group.id, since=mark) == 0
    for user in players:
        assert fake.count(chat_id=user.id, since=mark) == 0  # the table is not brought back
        assert notes(user, REMOVED_RU) + notes(user, REMOVED_EN) == 1  # told once


async def test_removed_from_a_group_with_a_lobby_closes_it(
    fake_telegram: FakeTelegram, bot: object, database: TestDatabase
) -> None:
    fake = fake_telegram
    players, group = three(fake)
    await players[0].start_bot()
    await players[0].send(group, "/newgame mushka")
    await fake.wait_until(lambda: db_rows(database, "SELECT COUNT(*) FROM tables") == [(1,)], 10)
    await fake.wait_until(lambda: lobby_message(group) is not None, timeout=10)  # sent after it
    await fake.settle(quiet=0.1)
    mark = fake.mark()
    fake.remove_bot_from(group, by=players[1])
    await fake.wait_until(lambda: notes(players[0], REMOVED_RU) == 1, timeout=10)
    await fake.settle(quiet=0.1)
    assert db_rows(database, "SELECT status FROM tables") == [("closed",)]
    assert db_rows(database, "SELECT COUNT(*) FROM deadlines") == [(0,)]
    assert fake.count(chat_id=group.id, since=mark) == 0


async def test_rights_taken_away_close_the_table_but_a_new_member_status_does_not(
    fake_telegram: FakeTelegram, bot: object, database: TestDatabase
) -> None:
    fake = fake_telegram
    players, group = three(fake)
    await players[0].start_bot()
    await players[0].send(group, "/newgame mushka")
    await fake.wait_until(lambda: db_rows(database, "SELECT COUNT(*) FROM tables") == [(1,)], 10)
    players[0]._chat_member_update(group.state, "member", "administrator")  # promoted: stays
    await fake.settle(quiet=0.2)
    assert db_rows(database, "SELECT status FROM tables") == [("lobby",)]
    players[0]._chat_member_update(group.state, "administrator", "restricted")
    await fake.wait_until(lambda: notes(players[0], REMOVED_RU) == 1, timeout=10)
    assert db_rows(database, "SELECT status FROM tables") == [("closed",)]


def test_my_chat_member_is_among_the_used_update_types() -> None:
    from aiogram import Dispatcher

    from bot.routers import make_root_router

    dp = Dispatcher()
    dp.include_router(make_root_router())
    assert "my_chat_member" in dp.resolve_used_update_types()


def test_cannot_write() -> None:
    from aiogram.types import ChatMemberUpdated

    from tests.fakeapi.model import member_object

    bot = {"id": 1, "is_bot": True, "first_name": "B"}

    def update(status: str) -> ChatMemberUpdated:
        return ChatMemberUpdated.model_validate(
            {
                "chat": {"id": -1, "type": "supergroup", "title": "G"},
                "from": {"id": 2, "is_bot": False, "first_name": "A"},
                "date": 0,
                "old_chat_member": member_object(bot, "member"),
                "new_chat_member": member_object(bot, status),
            }
        )

    assert cannot_write(update("left")) and cannot_write(update("kicked"))
    assert cannot_write(update("restricted"))  # every right taken, can_send_messages too
    assert not cannot_write(update("member")) and not cannot_write(update("administrator"))


PING_RU = "🃏 В «Пятница» открыт стол: Мушка — присоединяйтесь"


def pings(user: SimUser) -> list[SentMessage]:
    return [m for m in user.messages if m.text.startswith("🃏 В «Пятница» открыт стол")]


def replies(group: SimGroup, start: str) -> list[str]:
    return [m.text for m in group.visible if m.text.startswith(start)]


async def test_notify_pings_a_subscriber_when_another_member_opens_a_table(
    fake_telegram: FakeTelegram, bot: object, database: TestDatabase
) -> None:
    fake = fake_telegram
    (anna, boris, vera), group = three(fake)
    for user in (anna, boris, vera):
        await user.start_bot()
    await fake.settle(quiet=0.1)
    await boris.send(group, "/notify")
    await fake.wait_until(lambda: bool(replies(group, "🔔 Напишу в личку")), timeout=10)
    assert db_rows(database, "SELECT chat_id, user_id FROM notify") == [(group.id, boris.id)]
    await anna.send(group, "/notify")  # the opener herself: not pinged about her own table
    await fake.wait_until(lambda: len(replies(group, "🔔 Напишу в личку")) == 2, timeout=10)
    await anna.send(group, "/newgame mushka")
    await fake.wait_until(lambda: bool(pings(boris)), timeout=10)
    await fake.settle(quiet=0.2)
    (ping,) = pings(boris)
    assert ping.text == PING_RU
    row = db_rows(database, "SELECT id, join_code FROM tables")
    tid, code = row[0]
    (button,) = ping.all_buttons
    assert button.text == "✋ Сесть"
    assert button.url is not None and button.url.endswith(f"?start=j_{b36(int(tid))}_{code}")
    assert pings(anna) == [] and pings(vera) == []  # the opener, and someone who never asked
    # the button's deep link seats him
    await boris.start_bot(f"j_{b36(int(tid))}_{code}")
    await fake.wait_until(lambda: db_rows(database, "SELECT COUNT(*) FROM seats") == [(2,)], 10)
    await anna.send(group, "/cancel")
    await fake.settle(quiet=0.2)


async def test_notify_again_turns_the_pings_off(
    fake_telegram: FakeTelegram, bot: object, database: TestDatabase
) -> None:
    fake = fake_telegram
    (anna, boris, _), group = three(fake)
    for user in (anna, boris):
        await user.start_bot()
    await fake.settle(quiet=0.1)
    await boris.send(group, "/notify")
    await fake.wait_until(lambda: bool(replies(group, "🔔 Напишу в личку")), timeout=10)
    await boris.send(group, "/notify")
    await fake.wait_until(lambda: bool(replies(group, "🔕 Больше не пишу")), timeout=10)
    assert db_rows(database, "SELECT COUNT(*) FROM notify") == [(0,)]
    await anna.send(group, "/newgame mushka")
    await fake.wait_until(lambda: db_rows(database, "SELECT COUNT(*) FROM tables") == [(1,)], 10)
    await fake.settle(quiet=0.3)
    assert pings(boris) == []


async def test_notify_before_the_private_chat_asks_to_open_it(
    fake_telegram: FakeTelegram, bot: object, database: TestDatabase
) -> None:
    fake = fake_telegram
    (_, boris, _), group = three(fake)
    await boris.send(group, "/notify")
    await fake.wait_until(lambda: bool(replies(group, "Сначала")), timeout=10)
    (reply,) = [m for m in group.visible if m.text.startswith("Сначала")]
    assert reply.all_buttons and reply.all_buttons[0].url is not None
    assert reply.all_buttons[0].url.endswith("?start=s")
    assert db_rows(database, "SELECT COUNT(*) FROM notify") == [(0,)]


async def test_removed_after_a_pulka_ended_closes_the_table_quietly(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    """A table whose pulka ended (its result with 🔁 / 🏁 shown) is still open; the bot removed,
    it closes — and nobody is told again: the result was the last word."""
    fake = fake_telegram
    players, group = three(fake)
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await open_table(fake, group, players, options="target=5")
        await play_until_end(fake, group, players, random.Random(4))
        await fake.settle(quiet=0.1)
        assert db_rows(database, "SELECT status FROM tables") == [("ended",)]
        mark = fake.mark()
        fake.remove_bot_from(group, by=players[0])
        await fake.wait_until(
            lambda: db_rows(database, "SELECT status FROM tables") == [("closed",)], timeout=10
        )
        await fake.settle(quiet=0.2)
        for chat in [group.id, *(u.id for u in players)]:  # no note, nothing tried in the group
            assert fake.count(chat_id=chat, since=mark) == 0
        assert db_rows(database, "SELECT COUNT(*) FROM ledger") == [(3,)]  # the pulka stays booked
