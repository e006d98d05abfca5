"""A teaching table through the fake Bot API: the creator makes a group's table a teaching one
in the lobby (🎓 in its options) — unrated, 💡 for every person at it, each at his own turn and
under his own hand only; its match rates nobody and books nothing. Anyone else's 🎓, or a 🎓
after the start, is refused and changes nothing. /rules with no game gives the game of the table
here (its topic's), else the seven; /cancel in private closes a practice table, unrated."""

from __future__ import annotations

import json
import random
from functools import partial

from bot.app import RunningBot, running_bot
from bot.config import Settings
from bot.game_names import GAME_NAMES
from tests.bot import helpers
from tests.bot.helpers import (
    Topic,
    db_rows,
    fixed_seeds,
    hand_message,
    lobby_message,
    play_deal,
    play_step,
    result_message,
    say,
    to_act,
    watched,
)
from tests.bot.test_e2e_hints import hint_button
from tests.bot.test_e2e_practice import play_until, practising, said
from tests.databases import TestDatabase
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import SentMessage
from tests.fakeapi.users import SimGroup, SimUser

HEAD = "💡 Сильный сыграл бы"  # a hint's first words, with figures or without
TEACHING = "🎓 Учебная игра: без рейтинга, с подсказками 💡"
TOGGLE_OFF, TOGGLE_ON = "🎓 Учебная игра: нет", "🎓 Учебная игра: да"


def button_data(message: SentMessage, text: str) -> str:
    data = next(b.callback_data for b in message.all_buttons if b.text == text)
    assert data is not None
    return data


async def seated(
    fake: FakeTelegram, group: SimGroup, players: list[SimUser], command: str
) -> SentMessage:
    """Everyone starts the bot; the first opens the lobby, the others join; the lobby."""
    for user in players:
        await user.start_bot()
    await fake.settle(quiet=0.05)
    await players[0].send(group, command)
    await fake.wait_until(lambda: lobby_message(group) is not None, timeout=10)
    lobby = lobby_message(group)
    assert lobby is not None
    for user in players[1:]:
        assert not (await user.press(lobby, "✋")).show_alert
    await fake.wait_until(lambda: all(u.first_name in lobby.text for u in players), timeout=10)
    return lobby


def hinted(user: SimUser) -> bool:
    """A hint's answer shows under his hand."""
    hand = hand_message(user)
    return hand is not None and HEAD in hand.text


def kinds(database: TestDatabase) -> list[tuple[str]]:
    return db_rows(database, "SELECT kind FROM tables")


async def test_a_teaching_table_offers_hints_to_each_at_his_turn_and_rates_nothing(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    fake = fake_telegram
    players = [fake.add_user(101 + i, n, language_code="ru") for i, n in enumerate("ABC")]
    group = fake.add_group(-1001, "Пятница", admins=[101], members=[102, 103])
    lobby = await seated(fake, group, players, "/newgame mushka target=5")
    assert TEACHING not in lobby.text
    assert not (await players[0].press(lobby, "⚙️")).text
    await fake.wait_until(lambda: any(b.text == TOGGLE_OFF for b in lobby.all_buttons), timeout=10)
    assert not (await players[0].press(lobby, TOGGLE_OFF)).text
    await fake.wait_until(lambda: TEACHING in lobby.text, timeout=10)
    assert any(b.text == TOGGLE_ON for b in lobby.all_buttons)
    assert kinds(database) == [("teaching",)]
    assert not (await players[0].press(lobby, "↩️")).text
    await fake.wait_until(lambda: any(b.text.startswith("▶️") for b in lobby.all_buttons), 10)
    assert TEACHING in lobby.text  # the lobby says it plainly, not only its options
    await players[0].press(lobby, "▶️")
    await fake.wait_until(
        lambda: all(hand_message(p) is not None for p in players) and "началась" in lobby.text,
        timeout=10,
    )
    assert TEACHING in lobby.text, lobby.text  # and so does the started table's first message
    rng = random.Random(11)
    asked: set[int] = set()
    for _ in range(2000):
        await fake.settle(quiet=0.02)
        if result_message(group) is not None:
            break
        user = to_act(group, players)
        assert user is not None
        if user.id not in asked:  # 💡 on his hand, on nobody else's; its answer his alone
            hand = hand_message(user)
            assert hand is not None
            assert hint_button(hand), hand.describe_buttons()
            assert not any(hint_button(hand_message(p)) for p in players if p is not user)
            assert not (await user.press(hand, "💡")).text
            await fake.wait_until(partial(hinted, user), timeout=20)
            others = [m.text for p in players if p is not user for m in p.visible]
            assert not any(HEAD in t for t in others)
            assert all(HEAD not in m.text for m in group.visible)
            asked.add(user.id)
        assert await play_step(fake, group, players, rng)
    assert asked == {p.id for p in players}
    result = result_message(group)
    assert result is not None
    assert "Учебная игра: без рейтинга." in result.text and "Рейтинг:" not in result.text
    assert db_rows(database, "SELECT COUNT(*) FROM ratings") == [(0,)]
    assert db_rows(database, "SELECT COUNT(*) FROM results") == [(0,)]
    assert db_rows(database, "SELECT COUNT(*) FROM ledger") == [(0,)]
    score = await say(fake, players[1], "/score", group)  # no board, for anyone
    assert "Законченных игр пока нет." in score.text and "рейтинг · игр · деньги" not in score.text
    assert kinds(database) == [("teaching",)]


async def test_a_teaching_table_stays_one_across_a_restart(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    """The choice is stored: made before a restart, the table started after it offers 💡."""
    fake = fake_telegram
    players = [fake.add_user(101 + i, n, language_code="ru") for i, n in enumerate("ABC")]
    group = fake.add_group(-1001, "Пятница", admins=[101], members=[102, 103])
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        lobby = await seated(fake, group, players, "/newgame mushka target=5 teaching=true")
        assert TEACHING in lobby.text
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await players[0].press(lobby, "▶️")
        await fake.wait_until(lambda: to_act(group, players) is not None, timeout=10)
        await fake.settle(quiet=0.05)
        user = to_act(group, players)
        assert user is not None
        await fake.wait_until(lambda: hint_button(hand_message(user)), timeout=10)
    assert kinds(database) == [("teaching",)]


async def test_a_teaching_table_closed_after_a_deal_is_not_rated_as_it_stands(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    """A rated table closed after its first deal is rated as it stands; a teaching one is not,
    and its close question says so."""
    fake = fake_telegram
    players = [fake.add_user(101 + i, n, language_code="ru") for i, n in enumerate("ABC")]
    group = fake.add_group(-1001, "Пятница", admins=[101], members=[102, 103])
    lobby = await seated(fake, group, players, "/newgame mushka target=25")
    assert not (await players[0].press(lobby, "⚙️")).text
    await fake.wait_until(lambda: any(b.text == TOGGLE_OFF for b in lobby.all_buttons), timeout=10)
    assert not (await players[0].press(lobby, TOGGLE_OFF)).text
    await fake.wait_until(lambda: any(b.text == TOGGLE_ON for b in lobby.all_buttons), timeout=10)
    assert kinds(database) == [("teaching",)]
    assert not (await players[0].press(lobby, "↩️")).text
    await fake.wait_until(lambda: any(b.text.startswith("▶️") for b in lobby.all_buttons), 10)
    await players[0].press(lobby, "▶️")
    await fake.wait_until(lambda: all(hand_message(p) is not None for p in players), timeout=10)
    await fake.settle(quiet=0.05)
    await play_deal(fake, group, players, random.Random(2))  # the first deal is over
    question = await say(fake, players[0], "/cancel", group)
    assert question.text.splitlines()[1] == (
        "Если закрыть сейчас, никто ничего не платит и в рейтинг игра не идёт."
    ), question.text
    for p in players:
        assert not (await p.press(question, "✅")).text
    await fake.wait_until(lambda: db_rows(database, "SELECT status FROM tables") == [("closed",)])
    await fake.settle(quiet=0.1)
    assert all("📊" not in m.text for m in group.visible)  # not «rated as it stands»
    for name in ("results", "ratings", "ledger"):
        assert db_rows(database, f"SELECT COUNT(*) FROM {name}") == [(0,)], name


async def test_a_teaching_toggle_by_another_or_after_the_start_is_refused(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    fake = fake_telegram
    players = [fake.add_user(101 + i, n, language_code="ru") for i, n in enumerate("ABC")]
    group = fake.add_group(-1001, "Пятница", admins=[101], members=[102, 103])
    lobby = await seated(fake, group, players, "/newgame mushka target=5")
    assert not (await players[0].press(lobby, "⚙️")).text
    await fake.wait_until(lambda: any(b.text == TOGGLE_OFF for b in lobby.all_buttons), timeout=10)
    toggle = button_data(lobby, TOGGLE_OFF)
    answer = await players[1].press_raw(lobby, data=toggle)  # not the creator's
    assert answer.text == "Опции меняет только A.", answer.text
    await fake.settle(quiet=0.1)
    assert kinds(database) == [("group",)] and TEACHING not in lobby.text
    assert not (await players[0].press(lobby, "↩️")).text
    await fake.wait_until(lambda: any(b.text.startswith("▶️") for b in lobby.all_buttons), 10)
    await players[0].press(lobby, "▶️")
    await fake.wait_until(lambda: all(hand_message(p) is not None for p in players), timeout=10)
    await fake.settle(quiet=0.05)
    answer = await players[0].press_raw(lobby, data=toggle)  # the creator's, too late
    assert answer.text == "Игра уже идёт. Дождитесь следующей.", answer.text
    await fake.settle(quiet=0.1)
    assert kinds(database) == [("group",)] and TEACHING not in lobby.text
    assert not any(hint_button(hand_message(p)) for p in players)  # a rated table: no 💡


async def test_newgame_takes_teaching_as_its_options_are_written(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    group = fake.add_group(-1001, "Пятница", admins=[101])
    await anna.start_bot()
    refused = await say(fake, anna, "/newgame mushka teaching=maybe", group)
    assert refused.text == "teaching=maybe нельзя: нужно true или false.", refused.text
    assert db_rows(database, "SELECT COUNT(*) FROM tables") == [(0,)]
    unknown = await say(fake, anna, "/newgame mushka teach=true", group)  # /newgame's own: named
    named = unknown.text
    assert named.startswith("Нет опции teach.") and named.endswith(", teaching, turn."), named
    await anna.start_bot()
    practice = await say(fake, anna, "/practice mushka teach=true")  # practice has no such option
    assert "Нет опции teach." in practice.text and "teaching" not in practice.text
    assert db_rows(database, "SELECT COUNT(*) FROM tables") == [(0,)]
    await anna.send(group, "/newgame mushka target=5 teaching=true")
    await fake.wait_until(lambda: lobby_message(group) is not None, timeout=10)
    lobby = lobby_message(group)
    assert lobby is not None and TEACHING in lobby.text
    ((kind, stored),) = db_rows(database, "SELECT kind, options FROM tables")
    options = json.loads(str(stored))
    assert kind == "teaching" and options["target"] == 5 and "teaching" not in options


async def test_rules_without_a_game_gives_the_game_here_else_the_seven(
    fake_telegram: FakeTelegram, bot: RunningBot
) -> None:
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    group = fake.add_group(-1001, "Клуб", is_forum=True, admins=[101])
    await anna.start_bot()
    await fake.wait_until(lambda: bool(anna.messages), timeout=10)  # the welcome is in
    links = [f"https://t.me/{fake.bot_username}?start=r_{code}" for code in GAME_NAMES]
    listed = await say(fake, anna, "/rules", group)  # no table here: the seven
    assert listed.text == "Правила какой игры?"
    assert [b.url for b in listed.all_buttons] == links
    topic = Topic(group, group.create_topic("Копилка", by=anna))
    await topic.send(anna, "/newgame копилка")
    await fake.wait_until(lambda: lobby_message(topic) is not None, timeout=10)
    count = len(topic.messages)
    await topic.send(anna, "/rules")
    await fake.wait_until(lambda: len(topic.messages) > count, timeout=10)
    here = topic.messages[count]
    named = await say(fake, anna, "/rules kopilka", group)
    assert here.text == named.text and here.text.startswith("Копилка"), here.text
    assert [b.url for b in here.all_buttons] == [links[list(GAME_NAMES).index("kopilka")]]
    general = await say(fake, anna, "/rules", group)  # the General topic holds no table
    assert general.text == "Правила какой игры?"
    private = await say(fake, anna, "/rules")  # in private: the seven, not Мушка unasked
    assert private.text == "Правила какой игры?"
    assert [b.url for b in private.all_buttons] == links
    await anna.open_link(links[list(GAME_NAMES).index("kopilka")])
    await fake.wait_until(lambda: anna.last.text.startswith("Как играть: Копилка"), timeout=10)


async def test_cancel_in_private_closes_the_practice_table_unrated_once(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    await anna.start_bot()
    await fake.wait_until(lambda: bool(anna.messages), timeout=10)  # the welcome is in
    none = await say(fake, anna, "/cancel")
    assert none.text == "Тренировки сейчас нет — закрывать нечего. Начать: /practice"
    await practising(fake, anna, "/practice mushka target=25")
    dealt = lambda: bool(said(anna, "📋"))  # noqa: E731 — a deal over: a group's would be rated
    await play_until(fake, anna, dealt, helpers.choose, "cancel")
    hand = hand_message(anna)
    assert hand is not None
    closed = await say(fake, anna, "/cancel")
    assert closed.text == "🏁 Тренировка закрыта, без рейтинга."
    await fake.wait_until(lambda: not hand.all_buttons, timeout=10)  # its hand is inert
    assert db_rows(database, "SELECT kind, status FROM tables") == [("practice", "closed")]
    assert db_rows(database, "SELECT COUNT(*) FROM ratings") == [(0,)]
    assert db_rows(database, "SELECT COUNT(*) FROM results") == [(0,)]
    assert db_rows(database, "SELECT COUNT(*) FROM deadlines") == [(0,)]
    again = await say(fake, anna, "/cancel")
    assert again.text == none.text
    await fake.settle(quiet=0.2)
    assert len(said(anna, "Тренировка закрыта")) == 1 and said(anna, "📊") == []
