"""Groups as they really are (issue #17) through the fake Bot API: the bot removed from a group
(or no longer allowed to write there) closes its open table and tells the players in private."""

from __future__ import annotations

from pathlib import Path

from bot.app import running_bot
from bot.config import Settings
from bot.routers.members import cannot_write
from tests.bot.helpers import db_rows, fixed_seeds, hand_message, open_table, watched
from tests.fakeapi import FakeTelegram
from tests.fakeapi.users import SimGroup, SimUser

NAMES = ["Anna", "Boris", "Vera"]
REMOVED_RU = "Стол «Мушка» в «Пятница» закрыт: меня убрали из группы."
REMOVED_EN = "The «Mushka» table in «Пятница» is closed: I was removed from the group."


def three(fake: FakeTelegram) -> tuple[list[SimUser], SimGroup]:
    langs = ["ru", "ru", "en"]
    players = [fake.add_user(101 + i, n, language_code=langs[i]) for i, n in enumerate(NAMES)]
    group = fake.add_group(-1001, "Пятница", admins=[101], members=[102, 103])
    return players, group


def notes(user: SimUser, text: str) -> int:
    return sum(1 for m in user.messages if m.text == text)


async def test_removed_mid_game_closes_the_table_and_tells_the_players(
    fake_telegram: FakeTelegram, settings: Settings, db_path: Path
) -> None:
    fake = fake_telegram
    players, group = three(fake)
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await open_table(fake, group, players, options="target=25")
        assert db_rows(db_path, "SELECT COUNT(*) FROM deadlines") != [(0,)]
        hands = [hand_message(u) for u in players]
        assert all(h is not None and h.all_buttons for h in hands)
        mark = fake.mark()
        fake.remove_bot_from(group, by=players[0])
        await fake.wait_until(lambda: notes(players[2], REMOVED_EN) == 1, timeout=10)
        await fake.settle(quiet=0.2)
        assert db_rows(db_path, "SELECT status FROM tables") == [("closed",)]
        assert db_rows(db_path, "SELECT COUNT(*) FROM deadlines") == [(0,)]
        assert db_rows(db_path, "SELECT COUNT(*) FROM ledger") == [(0,)]
        assert notes(players[0], REMOVED_RU) == 1 and notes(players[1], REMOVED_RU) == 1
        assert notes(players[2], REMOVED_EN) == 1
        for hand in hands:
            assert hand is not None and hand.all_buttons == []  # nothing left to press
        assert fake.count(chat_id=group.id, since=mark) == 0  # nothing tried in the group
    mark = fake.mark()
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):  # a restart
        await fake.settle(quiet=0.3)
    assert db_rows(db_path, "SELECT status FROM tables") == [("closed",)]
    assert fake.count(chat_id=group.id, since=mark) == 0
    for user in players:
        assert fake.count(chat_id=user.id, since=mark) == 0  # the table is not brought back
        assert notes(user, REMOVED_RU) + notes(user, REMOVED_EN) == 1  # told once


async def test_removed_from_a_group_with_a_lobby_closes_it(
    fake_telegram: FakeTelegram, bot: object, db_path: Path
) -> None:
    fake = fake_telegram
    players, group = three(fake)
    await players[0].start_bot()
    await players[0].send(group, "/newgame mushka")
    await fake.wait_until(lambda: db_rows(db_path, "SELECT COUNT(*) FROM tables") == [(1,)], 10)
    await fake.settle(quiet=0.1)
    mark = fake.mark()
    fake.remove_bot_from(group, by=players[1])
    await fake.wait_until(lambda: notes(players[0], REMOVED_RU) == 1, timeout=10)
    await fake.settle(quiet=0.1)
    assert db_rows(db_path, "SELECT status FROM tables") == [("closed",)]
    assert db_rows(db_path, "SELECT COUNT(*) FROM deadlines") == [(0,)]
    assert fake.count(chat_id=group.id, since=mark) == 0


async def test_rights_taken_away_close_the_table_but_a_new_member_status_does_not(
    fake_telegram: FakeTelegram, bot: object, db_path: Path
) -> None:
    fake = fake_telegram
    players, group = three(fake)
    await players[0].start_bot()
    await players[0].send(group, "/newgame mushka")
    await fake.wait_until(lambda: db_rows(db_path, "SELECT COUNT(*) FROM tables") == [(1,)], 10)
    players[0]._chat_member_update(group.state, "member", "administrator")  # promoted: stays
    await fake.settle(quiet=0.2)
    assert db_rows(db_path, "SELECT status FROM tables") == [("lobby",)]
    players[0]._chat_member_update(group.state, "administrator", "restricted")
    await fake.wait_until(lambda: notes(players[0], REMOVED_RU) == 1, timeout=10)
    assert db_rows(db_path, "SELECT status FROM tables") == [("closed",)]


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
