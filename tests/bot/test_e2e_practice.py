"""Practice alone (/practice in private) through the fake Bot API: a table of the person and
easy computers opens in the private chat and starts there and then — the same table, hand and
result screens as a group's; never rated, nothing booked, and said so; /practice with no game or
an unknown one lists the seven; a second one shows the running table again (or closes it and
starts anew); a practice table left alone is closed once, unrated."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial

import pytest

from bot.app import RunningBot, running_bot
from bot.config import Settings
from bot.game_names import GAME_NAMES
from tests.bot import helpers
from tests.bot.helpers import (
    db_rows,
    fixed_seeds,
    hand_message,
    press_and_wait,
    result_message,
    table_message,
    watched,
)
from tests.bot.test_e2e_computers import GAMES, Chooser  # every game, its options, a chooser
from tests.databases import TestDatabase
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import SentMessage
from tests.fakeapi.users import SimUser

UNRATED = "Тренировка: без рейтинга."


def waiting(hand: SentMessage) -> bool:
    return any(w in hand.text for w in helpers.WAITING)


def moved_on(hand: SentMessage) -> bool:
    return not waiting(hand)


def said(user: SimUser, text: str) -> list[SentMessage]:
    return [m for m in user.visible if text in m.text]


def links(message: SentMessage) -> list[str]:
    return [b.url or "" for b in message.all_buttons]


async def practising(fake: FakeTelegram, user: SimUser, command: str) -> SentMessage:
    """Send a /practice (or a ``?start=`` link's payload) and wait for the table."""
    before = table_message(user)
    if command.startswith("/"):
        await user.send_private(command)
    else:
        await user.start_bot(command)
    await fake.wait_until(lambda: table_message(user) not in (None, before), timeout=10)
    table = table_message(user)
    assert table is not None
    return table


async def play_until(
    fake: FakeTelegram, user: SimUser, done: Callable[[], bool], choose: Chooser, seed: str
) -> int:
    """Play his hand (the computers move by themselves) until ``done``; how many presses."""
    rng = random.Random(seed)
    presses = 0
    for _ in range(3000):
        await fake.settle(quiet=0.02)
        if done():
            return presses
        hand = hand_message(user)
        assert hand is not None
        if waiting(hand):  # the computers are still moving
            await fake.wait_until(partial(moved_on, hand), timeout=20)
            continue
        await press_and_wait(fake, user, hand, choose(hand, rng), [user], user)
        presses += 1
    raise AssertionError(f"{seed}: not done")


@pytest.mark.parametrize(("game", "options", "seats", "choose"), GAMES, ids=[g[0] for g in GAMES])
async def test_a_practice_game_of_each_plays_to_its_end_in_private_unrated(
    fake_telegram: FakeTelegram,
    bot: RunningBot,
    database: TestDatabase,
    game: str,
    options: str,
    seats: int,
    choose: Chooser,
) -> None:
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    await anna.start_bot()
    await practising(fake, anna, f"/practice {game} {options}".strip())
    assert said(anna, "🎮 Тренировка: ") and "без рейтинга" in said(anna, "🎮 Тренировка: ")[0].text
    rows = db_rows(database, "SELECT id, chat_id, kind, status FROM tables")
    assert [(r[1], r[2], r[3]) for r in rows] == [(anna.id, "practice", "running")]
    seated = db_rows(database, "SELECT kind, level FROM seats ORDER BY seat")
    assert seated == [("human", "normal"), *[("computer", "easy")] * (seats - 1)]
    presses = await play_until(fake, anna, lambda: result_message(anna) is not None, choose, game)
    result = result_message(anna)
    assert result is not None and result.text.startswith("🏁") and presses > 0
    assert UNRATED in result.text and "Рейтинг:" not in result.text, result.text
    assert db_rows(database, "SELECT COUNT(*) FROM ratings") == [(0,)]
    assert db_rows(database, "SELECT COUNT(*) FROM results") == [(0,)]
    assert db_rows(database, "SELECT COUNT(*) FROM ledger") == [(0,)]
    table_id = rows[0][0]
    assert db_rows(database, "SELECT COUNT(*) FROM deadlines WHERE table_id = ?", table_id) == [
        (0,)
    ]
    # played out: a new /practice closes it (its result's buttons go) and starts anew at once
    await practising(fake, anna, f"/practice {game}")
    await fake.wait_until(lambda: result.all_buttons == [], timeout=10)
    statuses = db_rows(database, "SELECT status FROM tables ORDER BY id")
    assert statuses == [("closed",), ("running",)]
    assert said(anna, "Тренировка ещё идёт") == []


async def test_practice_with_no_game_or_an_unknown_one_lists_the_seven(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    await anna.start_bot()
    await anna.send_private("/practice")
    await fake.wait_until(lambda: bool(said(anna, "Выберите игру")), timeout=10)
    listed = said(anna, "Выберите игру")[-1]
    assert all(name in listed.text for name, _ in GAME_NAMES.values()), listed.text
    assert [u.rsplit("start=", 1)[1] for u in links(listed)] == [f"p_{g}" for g in GAME_NAMES]
    await anna.send_private("/practice chess<b>")
    await fake.wait_until(lambda: bool(said(anna, "Неизвестная игра")), timeout=10)
    unknown = said(anna, "Неизвестная игра")[-1]
    assert "Неизвестная игра: chess<b>." in unknown.text and "Мушка" in unknown.text
    assert len(links(unknown)) == len(GAME_NAMES)
    refused = await helpers.say(fake, anna, "/practice mushka target=9999")  # as /newgame's
    assert "target" in refused.text and "9999" in refused.text, refused.text
    await fake.settle(quiet=0.1)
    assert db_rows(database, "SELECT COUNT(*) FROM tables") == [(0,)]


async def test_start_and_help_offer_practice_and_its_links_open_a_table(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    await anna.start_bot()
    await fake.wait_until(lambda: bool(anna.messages), timeout=10)
    welcome = anna.messages[0]
    helped = await helpers.say(fake, anna, "/help")
    for shown in (welcome, helped):
        button = next(b for b in shown.all_buttons if b.text == "🎮 Сыграть с ботом")
        assert (button.url or "").endswith("?start=p"), button
    await anna.start_bot("p")  # the button's link: the games
    await fake.wait_until(lambda: bool(said(anna, "Выберите игру")), timeout=10)
    await practising(fake, anna, "p_pamfil")  # a game's button
    rows = db_rows(database, "SELECT game, kind, status FROM tables")
    assert rows == [("pamfil", "practice", "running")]


async def test_a_second_practice_shows_the_running_table_again_or_starts_anew(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    await anna.start_bot()
    first = await practising(fake, anna, "/practice mushka")
    await fake.settle(quiet=0.1)
    again = await practising(fake, anna, "/practice shutikha")
    assert again is not first
    await fake.wait_until(lambda: first.all_buttons == [], timeout=10)  # the old one inert
    await fake.wait_until(lambda: bool(said(anna, "Тренировка ещё идёт")), timeout=10)
    note = said(anna, "Тренировка ещё идёт — вот она.")
    assert len(note) == 1 and links(note[0])[0].endswith("?start=p_shutikha_new")
    assert hand_message(anna) is not None
    assert db_rows(database, "SELECT game, status FROM tables") == [("mushka", "running")]
    await practising(fake, anna, "p_shutikha_new")  # «✖️ Закрыть и начать заново»
    await fake.settle(quiet=0.1)
    rows = db_rows(database, "SELECT game, status FROM tables ORDER BY id")
    assert rows == [("mushka", "closed"), ("shutikha", "running")]
    assert db_rows(database, "SELECT COUNT(*) FROM ratings") == [(0,)]


async def test_practice_in_a_group_points_to_the_private_chat(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    group = fake.add_group(-1001, "Пятница", admins=[101], members=[])
    answer = await helpers.say(fake, anna, "/practice mushka", group)
    assert "Тренировка — в личном чате со мной." in answer.text
    assert any((u or "").endswith("?start=p") for u in links(answer))
    assert db_rows(database, "SELECT COUNT(*) FROM tables") == [(0,)]


async def test_a_practice_table_left_alone_closes_once_and_is_never_rated(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    """After a deal, nobody moves: closed once for being idle, and not rated as it stands."""
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    idle = settings.model_copy(update={"idle_timeout_s": 5.0})
    async with watched(fake, running_bot(idle, seeds=fixed_seeds())):
        await anna.start_bot()
        await practising(fake, anna, "/practice mushka target=25")
        dealt = partial(said, anna, "📋")  # a deal is over: a group's table is rated as it stands
        await play_until(fake, anna, lambda: bool(dealt()), helpers.choose, "idle")
        await fake.wait_until(lambda: bool(said(anna, "🏁 Стол закрыт")), timeout=20)
        await fake.settle(quiet=1.0)
    assert len(said(anna, "🏁 Стол закрыт: никто не ходил")) == 1
    assert said(anna, "📊") == []  # not «Игра засчитана как есть»
    assert db_rows(database, "SELECT status FROM tables") == [("closed",)]
    assert db_rows(database, "SELECT COUNT(*) FROM ratings") == [(0,)]
    assert db_rows(database, "SELECT COUNT(*) FROM results") == [(0,)]


async def test_a_practice_turn_reminder_comes_once_with_no_mention_in_the_same_chat(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    """At ⅓ of the turn time left the person is reminded; the mention a group gets is not
    posted as well: the table is in his private chat, where the reminder already is."""
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    quick = settings.model_copy(update={"turn_timeout_s": 5.0})
    async with watched(fake, running_bot(quick, seeds=fixed_seeds())):
        await anna.start_bot()
        table = await practising(fake, anna, "/practice mushka target=10")
        assert "«Тренировка»" in table.text, table.text
        await fake.wait_until(lambda: bool(said(anna, "⏳ Осталось")), timeout=10)
        await fake.settle(quiet=0.5)
        assert len(said(anna, "⏳ Осталось")) == 1
        assert said(anna, "ваш ход (") == []
