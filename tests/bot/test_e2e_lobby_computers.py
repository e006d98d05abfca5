"""Computers at the lobby's table, /kick and the lobby timeout through the fake Bot API
(PRODUCT.md §4.2 "🤖 Add computer", Leave, "Nobody starts it for 15 min"; §4.9 and §13 /kick;
§16's wording)."""

from __future__ import annotations

import random
import time

import pytest
from pydantic import SecretStr, ValidationError

from bot.app import RunningBot, running_bot
from bot.callbacks import Kind, Press, PressCodec
from bot.computer_names import NAMES, computer_name, name_index, next_index
from bot.config import Settings
from bot.render.computers import LEVEL_BUTTONS, LEVEL_WORDS
from bot.runtime.commands import DeadlineDue
from bot.storage.rows import Deadline
from engine.games import GAMES
from engine.players import LEVELS
from tests.bot.helpers import (
    db_rows,
    fixed_seeds,
    lobby_message,
    open_table,
    play_until_end,
    result_message,
    say,
    table_message,
    watched,
)
from tests.databases import TestDatabase
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import SentMessage
from tests.fakeapi.users import SimGroup, SimUser

CLOSED = "Этот стол уже закрыт."
TIMED_OUT = "Стол закрыт: никто не начал игру."


def people(fake: FakeTelegram, *names: str) -> list[SimUser]:
    return [fake.add_user(101 + i, n, language_code="ru") for i, n in enumerate(names)]


async def opened(fake: FakeTelegram, group: SimGroup, user: SimUser, text: str) -> SentMessage:
    await user.send(group, text)
    await fake.wait_until(lambda: lobby_message(group) is not None, timeout=10)
    lobby = lobby_message(group)
    assert lobby is not None
    return lobby


def seats(database: TestDatabase) -> list[tuple[object, ...]]:
    return db_rows(database, "SELECT kind, user_id, name, level FROM seats ORDER BY seat")


def status(database: TestDatabase) -> str:
    return str(db_rows(database, "SELECT status FROM tables ORDER BY id DESC LIMIT 1")[0][0])


def lobby_deadlines(database: TestDatabase) -> list[tuple[object, ...]]:
    return db_rows(database, "SELECT table_id, moves FROM deadlines WHERE kind = 'lobby'")


async def shows(fake: FakeTelegram, message: SentMessage, text: str) -> None:
    await fake.wait_until(lambda: text in message.text, timeout=10)


async def seat_computers(
    fake: FakeTelegram, creator: SimUser, lobby: SentMessage, *levels: str
) -> None:
    """🤖, a computer per level given, ↩️: the lobby's buttons again."""
    await creator.press(lobby, "🤖")
    for level in levels:
        await fake.wait_until(lambda: lobby.has_button("↩️"), timeout=10)
        await fake.settle(quiet=0.05)
        assert not (await creator.press(lobby, level)).text
    await fake.settle(quiet=0.05)
    await creator.press(lobby, "↩️")
    await fake.wait_until(lambda: lobby.has_button("▶️"), timeout=10)


def data_of(fake: FakeTelegram, act: str, arg: str | None = None, table: int = 1) -> str:
    return PressCodec.from_token(fake.token).pack(Press(Kind.LOBBY, table, None, 0, act, arg))


async def test_4_2_one_person_and_two_computers_start_and_play_to_the_end(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    """The creator seats two computers by level; the levels reach the database and the seating
    line; Start needs only the seat count and one person; the computers move by deadlines."""
    fake = fake_telegram
    (anna,) = people(fake, "Anna")
    group = fake.add_group(-1001, "Пятница", members=[anna.id])
    await anna.start_bot()
    lobby = await opened(fake, group, anna, "/newgame mushka target=5")
    assert lobby_deadlines(database) == [(1, 0)]  # §4.2: the lobby's timeout is stored
    answer = await anna.press(lobby, "🤖 Добавить компьютер")
    assert not answer.text
    await shows(fake, lobby, "Выберите уровень, и за стол сядет компьютер")
    assert [b.text for b in lobby.all_buttons] == [
        "🤖 Лёгкий",
        "🤖 Обычный",
        "🤖 Сильный",
        "↩️ Назад",
    ]
    await anna.press(lobby, "Лёгкий")
    await shows(fake, lobby, "За столом (2/7): Anna, 🤖 Фёдор (лёгкий)")
    await anna.press(lobby, "Обычный")
    await shows(fake, lobby, "(3/7): Anna, 🤖 Фёдор (лёгкий), 🤖 Марфа (обычный)")
    await anna.press(lobby, "Сильный")
    await shows(
        fake, lobby, "(4/7): Anna, 🤖 Фёдор (лёгкий), 🤖 Марфа (обычный), 🤖 Тихон (сильный)"
    )
    assert "✖️ 🤖 Марфа" in [b.text for b in lobby.all_buttons]
    assert seats(database) == [
        ("human", 101, "Anna", "normal"),
        ("computer", None, "🤖 Фёдор", "easy"),
        ("computer", None, "🤖 Марфа", "normal"),
        ("computer", None, "🤖 Тихон", "hard"),
    ]
    await anna.press(lobby, "↩️")
    await fake.wait_until(lambda: lobby.has_button("▶️"), timeout=10)
    await anna.press(lobby, "▶️")
    await fake.wait_until(lambda: table_message(group) is not None, timeout=10)
    assert lobby_deadlines(database) == []  # started: it no longer times out
    assert status(database) == "running"
    await fake.settle(quiet=0.05)
    await play_until_end(fake, group, [anna], random.Random(3))
    await fake.settle(quiet=0.1)
    result = result_message(group)
    assert result is not None and all(
        f"🤖 {name}" in result.text for name in ("Фёдор", "Марфа", "Тихон")
    )
    for seat in (1, 2):
        moves = db_rows(database, "SELECT COUNT(*) FROM actions WHERE seat = ?", seat)
        assert moves[0][0] > 0
    assert db_rows(database, "SELECT COUNT(*) FROM deadlines") == [(0,)]


async def test_4_2_add_computer_creator_or_admin_remove_stale_and_forged_presses(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    fake = fake_telegram
    anna, boris, gleb = people(fake, "Anna", "Boris", "Gleb")
    group = fake.add_group(-1001, "Пятница", admins=[gleb.id], members=[anna.id, boris.id])
    for user in (anna, boris, gleb):
        await user.start_bot()
    lobby = await opened(fake, group, anna, "/newgame mushka")
    await boris.press(lobby, "✋")
    await shows(fake, lobby, "(2/7)")

    # a member may not: the button, nor a level button drawn for the creator
    answer = await boris.press(lobby, "🤖")
    assert answer.text == "Это может только Anna или админ."
    await anna.press(lobby, "🤖")
    await fake.wait_until(lambda: lobby.has_button("Лёгкий"), timeout=10)
    easy = lobby.button("Лёгкий").callback_data
    assert easy is not None
    answer = await boris.press(lobby, data=easy)
    assert answer.text == "Это может только Anna или админ."
    answer = await boris.press(lobby, "↩️")
    assert answer.text == "Это может только Anna или админ."
    await fake.settle(quiet=0.05)
    assert len(seats(database)) == 2 and "Фёдор" not in lobby.text

    # an admin who is not seated may; names follow the list, a removed name is the next again
    answer = await gleb.press(lobby, data=easy)
    assert not answer.text
    await shows(fake, lobby, "(3/7): Anna, Boris, 🤖 Фёдор (лёгкий)")
    for name in ("Марфа", "Тихон"):
        await anna.press(lobby, "Обычный")
        await shows(fake, lobby, f"🤖 {name} (обычный)")
    remove = lobby.button("✖️ 🤖 Марфа").callback_data
    assert remove is not None
    answer = await anna.press(lobby, data=remove)
    assert not answer.text
    await fake.wait_until(lambda: "Марфа" not in lobby.text, timeout=10)
    assert "(4/7): Anna, Boris, 🤖 Фёдор (лёгкий), 🤖 Тихон (обычный)" in lobby.text
    answer = await anna.press_raw(lobby, data=remove)  # the same ✖️ again: already gone
    assert answer.text == "Этого компьютера уже нет за столом."
    for forged in (data_of(fake, "m", "expert"), data_of(fake, "d", "x"), data_of(fake, "m")):
        answer = await anna.press_raw(lobby, data=forged)
        assert answer.text == "Кнопка не распознана.", forged
    answer = await anna.press_raw(lobby, data=data_of(fake, "d", "6"))  # Ерофей: not seated
    assert answer.text == "Этого компьютера уже нет за столом."
    await fake.settle(quiet=0.05)
    assert [s[2] for s in seats(database)] == ["Anna", "Boris", "🤖 Фёдор", "🤖 Тихон"]
    await anna.press(lobby, "Лёгкий")
    await shows(fake, lobby, "🤖 Тихон (обычный), 🤖 Марфа (лёгкий)")

    # computers count toward the seats: at 7/7 no level is offered, Join and a level refused
    join = data_of(fake, "j")
    for _ in range(2):
        await anna.press(lobby, "Обычный")
    await shows(fake, lobby, "(7/7)")
    assert "Мест нет: за столом уже 7." in lobby.text
    assert not lobby.has_button("Лёгкий") and not lobby.has_button("Обычный")
    answer = await anna.press_raw(lobby, data=easy)
    assert answer.text == "Мест нет: за столом уже 7."
    vera = fake.add_user(110, "Vera", language_code="ru")
    group.add_member(vera)
    await vera.start_bot()
    await fake.settle(quiet=0.05)
    answer = await vera.press_raw(lobby, data=join)
    assert answer.text == "Мест нет: за столом уже 7."
    await fake.settle(quiet=0.05)
    assert len(seats(database)) == 7 and "Vera" not in lobby.text

    # Leave: the creator's leaving makes the next person the creator (not a computer); the
    # last person leaving closes the table, computers or not
    await anna.press(lobby, "↩️")
    await fake.wait_until(lambda: lobby.has_button("🚪"), timeout=10)
    await anna.press(lobby, "🚪")
    await shows(fake, lobby, "Создатель стола: Boris")
    assert db_rows(database, "SELECT creator_id FROM tables") == [(boris.id,)]
    await boris.press(lobby, "🚪")
    await fake.wait_until(lambda: lobby.text == CLOSED, timeout=10)
    assert lobby.all_buttons == [] and status(database) == "closed"
    assert lobby_deadlines(database) == []
    answer = await gleb.press_raw(lobby, data=easy)
    assert answer.text == CLOSED


async def test_4_2_a_computer_is_named_in_the_chats_language_at_the_time(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    fake = fake_telegram
    (anna,) = people(fake, "Anna")
    group = fake.add_group(-1001, "Friday", admins=[anna.id])
    await anna.start_bot()
    lobby = await opened(fake, group, anna, "/newgame mushka")
    language = await say(fake, anna, "/language", group)
    await anna.press(language, "English")
    await fake.settle(quiet=0.05)
    await anna.press(lobby, "🤖")
    await fake.wait_until(lambda: lobby.has_button("🤖 Easy"), timeout=10)
    assert "Pick a level to seat a computer; ✖️ removes one." in lobby.text
    await anna.press(lobby, "🤖 Easy")
    await shows(fake, lobby, "Seated (2/7): Anna, 🤖 Fyodor (easy)")
    language = await say(fake, anna, "/language", group)
    await anna.press(language, "Русский")
    await fake.settle(quiet=0.05)
    await anna.press(lobby, "Normal")  # the button drawn in English still counts
    await shows(fake, lobby, "За столом (3/7): Anna, 🤖 Fyodor (лёгкий), 🤖 Марфа (обычный)")
    assert [s[2:] for s in seats(database)][1:] == [("🤖 Fyodor", "easy"), ("🤖 Марфа", "normal")]


async def test_4_2_start_needs_a_person_not_only_computers(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    """Start without the people it can't reach would leave computers alone: refused (§16)."""
    fake = fake_telegram
    (anna,) = people(fake, "Anna")
    group = fake.add_group(-1001, "Пятница", members=[anna.id])
    await anna.start_bot()
    lobby = await opened(fake, group, anna, "/newgame mushka")
    await seat_computers(fake, anna, lobby, "Лёгкий", "Обычный")
    anna.block_bot()
    await anna.press(lobby, "▶️")
    await fake.wait_until(
        lambda: any("без Anna" in b.text for m in group.visible for b in m.all_buttons),
        timeout=40,
    )
    notice = next(m for m in group.visible if any("без Anna" in b.text for b in m.all_buttons))
    answer = await anna.press(notice, "без Anna")
    assert answer.text == "За столом должен быть хотя бы один человек."
    await fake.settle(quiet=0.05)
    assert status(database) == "lobby" and len(seats(database)) == 3
    assert db_rows(database, "SELECT COUNT(*) FROM matches") == [(0,)]


async def test_13_kick_in_the_lobby_unseats_and_the_last_person_closes(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    fake = fake_telegram
    anna, boris, vera, gleb, ivan = people(fake, "Anna", "Boris", "Vera", "Gleb", "Ivan")
    members = [anna.id, boris.id, vera.id, ivan.id]
    group = fake.add_group(-1001, "Пятница", admins=[gleb.id], members=members)
    for user in (anna, boris, vera, gleb, ivan):
        await user.start_bot()
    lobby = await opened(fake, group, anna, "/newgame mushka")
    for user in (boris, vera):
        await user.press(lobby, "✋")
    await anna.press(lobby, "🤖")
    await fake.wait_until(lambda: lobby.has_button("Лёгкий"), timeout=10)
    await anna.press(lobby, "Лёгкий")
    await shows(fake, lobby, "(4/7): Anna, Boris, Vera, 🤖 Фёдор (лёгкий)")
    hello = {u.id: await u.send(group, "привет") for u in (anna, boris, vera, ivan)}

    reply = await say(fake, boris, "/kick", group)  # a member, and no reply either
    assert reply.text == "Убрать игрока из-за стола могут только админы."
    reply = await _kick(fake, boris, group, hello[vera.id])
    assert reply.text == "Убрать игрока из-за стола могут только админы."
    reply = await say(fake, gleb, "/kick", group)
    assert reply.text == "Ответьте этой командой на сообщение игрока."
    reply = await _kick(fake, gleb, group, hello[ivan.id])
    assert reply.text == "Ivan не за этим столом."
    private = await say(fake, gleb, "/kick")
    assert private.text == "Эта команда работает в группе."
    await fake.settle(quiet=0.05)
    assert len(seats(database)) == 4 and "(4/7)" in lobby.text

    # the creator kicked: the next person creates; the lobby is the same message, edited
    reply = await _kick(fake, gleb, group, hello[anna.id])
    assert reply.text == "Anna больше не за столом." and reply.reply_to is not None
    await shows(fake, lobby, "(3/7): Boris, Vera, 🤖 Фёдор (лёгкий)")
    assert "Создатель стола: Boris" in lobby.text and lobby_message(group) is lobby
    assert [s[:3] for s in seats(database)] == [
        ("human", boris.id, "Boris"),
        ("human", vera.id, "Vera"),
        ("computer", None, "🤖 Фёдор"),
    ]
    assert seats(database)[2][3] == "easy"  # the computer kept its level
    reply = await _kick(fake, gleb, group, hello[anna.id])  # twice: he is gone already
    assert reply.text == "Anna не за этим столом."

    # the last person kicked closes the table, though the computer is still seated
    await _kick(fake, gleb, group, hello[boris.id])
    await shows(fake, lobby, "(2/7): Vera, 🤖 Фёдор (лёгкий)")
    await _kick(fake, gleb, group, hello[vera.id])
    await fake.wait_until(lambda: lobby.text == CLOSED, timeout=10)
    assert lobby.all_buttons == [] and status(database) == "closed"
    assert lobby_deadlines(database) == []
    reply = await _kick(fake, gleb, group, hello[vera.id])
    assert reply.text == "Здесь нет открытого стола."


async def test_13_kick_at_a_running_table_hands_the_seat_to_the_computer(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    """§13 /kick: an immediate handover, the owner told privately; the game goes on."""
    fake = fake_telegram
    anna, boris, vera, gleb = people(fake, "Anna", "Boris", "Vera", "Gleb")
    members = [anna.id, boris.id, vera.id]
    group = fake.add_group(-1001, "Пятница", admins=[gleb.id], members=members)
    await open_table(fake, group, [anna, boris, vera])
    hello = await boris.send(group, "привет")
    reply = await _kick(fake, anna, group, hello)  # the creator is no admin
    assert reply.text == "Убрать игрока из-за стола могут только админы."
    await fake.settle(quiet=0.05)
    assert db_rows(database, "SELECT away FROM seats WHERE user_id = ?", boris.id) == [(0,)]
    private = len(boris.messages)
    reply = await _kick(fake, gleb, group, hello)
    assert reply.text == "Админ передал компьютеру место игрока Boris."
    await fake.settle(quiet=0.1)
    assert db_rows(database, "SELECT away FROM seats WHERE user_id = ?", boris.id) == [(1,)]
    told = [m.text for m in boris.messages[private:]]
    assert any(t.startswith("Админ чата «Пятница» передал ваше место") for t in told), told
    reply = await _kick(fake, gleb, group, hello)  # again: nothing more to hand over
    assert reply.text == "Boris: за это место уже играет компьютер."
    assert status(database) == "running"
    await play_until_end(fake, group, [anna, vera], random.Random(5))
    assert result_message(group) is not None


async def _kick(
    fake: FakeTelegram, admin: SimUser, group: SimGroup, message: SentMessage
) -> SentMessage:
    """``/kick`` as a reply to ``message``; the bot's next message in the group."""
    await fake.settle(quiet=0.05)
    count = len(group.messages)
    await admin.send(group, "/kick", reply_to=message)
    await fake.wait_until(lambda: len(group.messages) > count, timeout=10)
    return group.messages[count]


async def test_4_2_a_lobby_nobody_starts_closes_after_the_timeout_over_a_restart(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    fake = fake_telegram
    anna, boris = people(fake, "Anna", "Boris")
    group = fake.add_group(-1001, "Пятница", members=[anna.id, boris.id])
    other = fake.add_group(-1002, "Суббота", members=[anna.id])
    quick = settings.model_copy(update={"lobby_timeout_s": 5})
    for user in (anna, boris):
        await user.start_bot()
    async with watched(fake, running_bot(quick, seeds=fixed_seeds())) as running:
        started = await opened(fake, other, anna, "/newgame mushka target=5")
        await seat_computers(fake, anna, started, "Лёгкий", "Обычный")
        await anna.press(started, "▶️")
        await fake.wait_until(lambda: table_message(other) is not None, timeout=10)
        assert lobby_deadlines(database) == []  # the started table's is gone
        # a lobby deadline firing late for a table that started changes nothing
        runtime = running.services.runtime
        out = await runtime.handle(DeadlineDue(Deadline(1, "lobby", time.time(), 0)))
        assert out.screens == () and out.undue == ((1, "lobby"),)
        assert db_rows(database, "SELECT status FROM tables WHERE id = 1") == [("running",)]

        t0 = time.time()
        lobby = await opened(fake, group, anna, "/newgame mushka")
        await boris.press(lobby, "✋")
        await shows(fake, lobby, "(2/7)")
        stored = db_rows(database, "SELECT table_id, kind, due_at, moves FROM deadlines")
        due = [r for r in stored if r[1] == "lobby"]
        assert [(r[0], r[3]) for r in due] == [(2, 0)]
        assert t0 + 5 <= float(due[0][2]) <= time.time() + 5
    assert "набор за стол" in lobby.text  # not yet: the bot stopped before it was due
    async with watched(fake, running_bot(quick, seeds=fixed_seeds())):
        await fake.wait_until(lambda: lobby.text == TIMED_OUT, timeout=20)
        assert lobby.all_buttons == [] and lobby_message(group) is None
        assert db_rows(database, "SELECT status FROM tables WHERE id = 2") == [("closed",)]
        assert lobby_deadlines(database) == []
        answer = await boris.press_raw(lobby, data=data_of(fake, "j", table=2))
        assert answer.text == CLOSED
        reopened = await say(fake, boris, "/newgame pamfil", group)  # the chat is free again
        assert "Памфил" in reopened.text
        assert db_rows(database, "SELECT status FROM tables WHERE id = 1") == [("running",)]


def test_4_2_computer_names_are_one_list_in_every_language() -> None:
    """A computer is the same one in either language (its ✖️ button names its number), and
    there are names enough for every seat but the one person's."""
    most = max(max(spec.seat_counts) for spec in GAMES.values())
    assert len(NAMES["ru"]) == len(NAMES["en"]) >= most - 1
    assert tuple(LEVEL_WORDS) == LEVELS == tuple(LEVEL_BUTTONS)
    assert next_index([]) == 0
    assert next_index(["Anna", "🤖 Фёдор", "🤖 Marfa"]) == 2
    assert name_index("🤖 Fyodor") == name_index("🤖 Фёдор") == 0
    assert name_index("Фёдор") is None and name_index("🤖 Robo") is None
    assert next_index([computer_name("ru", i) for i in range(len(NAMES["ru"]))]) is None


def test_13_away_level_takes_every_level_and_nothing_else() -> None:
    """``BOT_AWAY_LEVEL`` accepts each of the computer's levels, ``hard`` included, and refuses
    a name that is none of them with the setting's name in the message."""

    def settings(**values: object) -> Settings:
        return Settings(token=SecretStr("123456:" + "a" * 35), _env_file=None, **values)  # type: ignore[call-arg, arg-type]

    assert settings().away_level == "normal"
    assert [settings(away_level=level).away_level for level in LEVELS] == list(LEVELS)
    assert "hard" in LEVELS
    for bad in ("expert", "", "HARD"):
        with pytest.raises(ValidationError, match="away_level"):
            settings(away_level=bad)
