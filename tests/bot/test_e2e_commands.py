"""Commands through the fake Bot API: /score (group, me, private), /rules, /help, /hand,
/language, and commands in the wrong chat type (PRODUCT.md §4.5, §4.8, §4.9, §11, §16)."""

from __future__ import annotations

import random
import re

from bot.app import RunningBot
from bot.game_names import GAME_NAMES
from bot.numbers import RATING_BASE
from bot.rating import shown
from tests.bot.helpers import (
    db_rows,
    hand_message,
    lobby_message,
    open_table,
    play_step,
    play_until_end,
    say,
)
from tests.databases import TestDatabase
from tests.fakeapi import FakeTelegram
from tests.fakeapi.users import SimGroup, SimUser

# a person's games, and of them those with other people in them (here, every one)
ROW = re.compile(r"^(\d+)\. (\w+) (—|−?\d+) · игр (\d+) \(с людьми: \4\) · ([+−]?\d+|0)$")
MINE = re.compile(
    r"^Мушка: (—|−?\d+) · игр (\d+) \(с людьми: \2\) · ([+−]?\d+|0)(?: — (\d+)-е место из (\d+))?$"
)


def value(text: str) -> int:
    return int(text.replace("−", "-").replace("+", ""))


def score_rows(text: str, game_header: str) -> list[tuple[str, int, int, int]]:
    """The rows under ``game_header``: (name, rating, games, money), in order."""
    lines = text.splitlines()
    start = lines.index(game_header)
    out = []
    for line in lines[start + 1 :]:
        found = ROW.match(line.strip())
        if found is None:
            break
        out.append((found[2], value(found[3]), int(found[4]), value(found[5])))
    return out


def rated(database: TestDatabase, scope: int) -> dict[int, int]:
    """The Мушка ratings as shown (μ − 3σ, whole, from the base a newcomer starts at) of a
    scope, by user."""
    rows = db_rows(
        database,
        "SELECT user_id, mu, sigma FROM ratings WHERE scope = ? AND game = ?",
        scope,
        "mushka",
    )
    return {int(str(u)): RATING_BASE + shown(float(str(m)), float(str(s))) for u, m, s in rows}


async def three_at(
    fake: FakeTelegram, group: SimGroup, players: list[SimUser], seed: int
) -> random.Random:
    await open_table(fake, group, players, options="target=5")
    rng = random.Random(seed)
    await play_until_end(fake, group, players, rng)
    return rng


async def test_4_8_score_in_groups_me_and_across_chats(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    boris = fake.add_user(102, "Boris", language_code="ru")
    vera = fake.add_user(103, "Vera", language_code="ru")
    gleb = fake.add_user(104, "Gleb", language_code="ru")
    friday = fake.add_group(-1001, "Пятница", admins=[101], members=[102, 103])
    saturday = fake.add_group(-1002, "Суббота", admins=[101], members=[102, 104])

    empty = await say(fake, anna, "/score", friday)
    assert empty.text == "📊 Счёт — «Пятница»\nЗаконченных игр пока нет."

    await three_at(fake, friday, [anna, boris, vera], 1)
    await three_at(fake, saturday, [anna, boris, gleb], 2)

    ledger = {
        (chat, user): (balance, played, won)
        for chat, user, balance, played, won in db_rows(
            database, "SELECT chat_id, user_id, balance, played, won FROM ledger"
        )
    }
    assert len(ledger) == 6
    ids = {"Anna": anna.id, "Boris": boris.id, "Vera": vera.id, "Gleb": gleb.id}

    # the group: the ended table's counts, then the chat's leaderboard, best rating first
    header = "Мушка — рейтинг · игр · деньги"
    text = (await say(fake, boris, "/score", friday)).text
    assert text.startswith("📊 Счёт — «Пятница»\nСейчас за столом (Мушка, пулька 1): Anna ")
    rows = score_rows(text, header)
    assert {r[0] for r in rows} == {"Anna", "Boris", "Vera"}
    ratings = rated(database, friday.id)
    for name, rating, games, money in rows:
        balance, played, _ = ledger[(friday.id, ids[name])]
        assert (rating, games, money) == (ratings[ids[name]], played, balance)
    assert [r[1] for r in rows] == sorted((r[1] for r in rows), reverse=True)
    assert sum(r[3] for r in rows) == 0 and len(set(ratings.values())) > 1  # a game tells
    # a newcomer's rating never reads as a debt beside the money: it starts at the base, said
    assert all(r[1] > 0 for r in rows) and min(r[1] for r in rows) < RATING_BASE, rows
    assert "Рейтинг новичка — 1000; он растёт, когда игры показывают умение." in text
    assert "Gleb" not in text
    winner = next(n for n in ids if ledger.get((friday.id, ids[n]), (0, 0, 0))[2] == 1)
    assert ratings[ids[winner]] == max(ratings.values())  # the pulka's winner rose most

    # /score me: only the caller's line, with his place on the board
    text = (await say(fake, vera, "/score me", friday)).text
    (line,) = [ln for ln in text.splitlines() if ln.startswith("Мушка:")]
    found = MINE.match(line)
    assert found is not None, line
    place = [r[0] for r in rows].index("Vera") + 1
    assert (value(found[1]), int(found[2])) == (ratings[vera.id], 1)
    assert value(found[3]) == ledger[(friday.id, vera.id)][0]
    assert (int(found[4]), int(found[5])) == (place, 3)
    assert "Anna" not in text and "Boris" not in text

    # private: the caller's lines across both chats, rated across chats, no place
    await anna.start_bot()
    text = (await say(fake, anna, "/score")).text
    assert text.startswith("📊 Ваш счёт")
    mine = [ledger[(chat, anna.id)] for chat in (friday.id, saturday.id)]
    (line,) = [ln for ln in text.splitlines() if ln.startswith("Мушка:")]
    found = MINE.match(line)
    assert found is not None and found[4] is None, line
    everywhere = rated(database, 0)
    assert (value(found[1]), int(found[2]), value(found[3])) == (
        everywhere[anna.id],
        2,
        sum(m[0] for m in mine),
    )
    text = (await say(fake, gleb, "/score")).text
    assert "игр 1 (с людьми: 1)" in text and str(everywhere[gleb.id]) in text

    # a game that is none of ours, or nonsense: told how to ask, nothing else
    text = (await say(fake, anna, "/score шахматы", friday)).text
    assert text.startswith("/score, /score me или /score с игрой")


async def test_4_9_rules_and_help_in_group_and_private(
    fake_telegram: FakeTelegram, bot: RunningBot
) -> None:
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    group = fake.add_group(-1001, "Пятница", admins=[101])
    await anna.start_bot()

    rules = await say(fake, anna, "/rules", group)  # no table here: the seven games
    assert rules.text == "Правила какой игры?"
    assert [b.url for b in rules.all_buttons] == [
        f"https://t.me/{fake.bot_username}?start=r_{code}" for code in GAME_NAMES
    ]
    rules = await say(fake, anna, "/rules мушка", group)
    assert rules.text.startswith("Мушка:")
    assert [b.url for b in rules.all_buttons] == [
        f"https://t.me/{fake.bot_username}?start=r_mushka"
    ]
    rules = await say(fake, anna, "/rules памфил", group)
    assert rules.text.startswith("Памфил:")
    assert rules.all_buttons[0].url == f"https://t.me/{fake.bot_username}?start=r_pamfil"
    await anna.open_link(rules.all_buttons[0].url or "")
    # the button's deep link and a private /rules: the whole rules, not the group's summary
    await fake.wait_until(lambda: anna.last.text.startswith("Как играть: Памфил"), timeout=10)
    assert "В♣" in anna.last.text and "Пример." in anna.last.text
    private = await say(fake, anna, "/rules shutikha")
    assert private.text.startswith("Как играть: Шутиха") and private.all_buttons == []
    assert "Д♠" in private.text and "Что можно изменить за столом" in private.text
    unknown = await say(fake, anna, "/rules poker", group)
    assert unknown.text.startswith("Не знаю такой игры. Есть: мушка")

    helped = await say(fake, anna, "/help", group)
    assert "/newgame" in helped.text and "/cancel" in helped.text
    helped = await say(fake, anna, "/help")
    assert "/hand" in helped.text and "/newgame" in helped.text and "/cancel" not in helped.text


async def test_lobby_and_help_say_where_the_rules_are_and_where_cards_go(
    fake_telegram: FakeTelegram, bot: RunningBot
) -> None:
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    group = fake.add_group(-1001, "Пятница", admins=[101])
    await anna.start_bot()

    # the lobby's «ℹ️ Как играть»: the game's whole rules in private
    await anna.send(group, "/newgame лентюрлю")
    await fake.wait_until(lambda: lobby_message(group) is not None, timeout=10)
    lobby = lobby_message(group)
    assert lobby is not None
    how = lobby.button("ℹ️ Как играть")
    assert how.url == f"https://t.me/{fake.bot_username}?start=r_lenturlu"
    await anna.open_link(how.url)
    await fake.wait_until(lambda: anna.last.text.startswith("Как играть: Лентюрлю"), timeout=10)
    assert "7♦" in anna.last.text and "Пример." in anna.last.text

    # /help: where the rules are, and that cards go to the player alone (group or private)
    helped = await say(fake, anna, "/help", group)
    assert "«ℹ️ Как играть»" in helped.text and "/rules [игра]" in helped.text
    assert "видите только вы" in helped.text and "в личке" in helped.text
    assert "карты придут в личку" not in helped.text
    helped = await say(fake, anna, "/help")
    assert "/rules [игра] — все правила игры" in helped.text
    assert "или в группу, где их видите только вы" in helped.text


async def test_4_5_hand_resends_and_the_old_message_is_stale(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    boris = fake.add_user(102, "Boris", language_code="ru")
    vera = fake.add_user(103, "Vera", language_code="en")
    gleb = fake.add_user(104, "Gleb", language_code="ru")
    group = fake.add_group(-1001, "Пятница", admins=[101], members=[102, 103])
    players = [anna, boris, vera]
    await open_table(fake, group, players)
    await play_step(fake, group, players, random.Random(3))
    await fake.settle(quiet=0.05)
    logged = db_rows(database, "SELECT COUNT(*) FROM actions")

    old = hand_message(boris)
    assert old is not None
    old_html, old_data = old.html, old.all_buttons[0].callback_data
    assert old_data is not None
    count = len(boris.messages)
    await boris.send_private("/hand")
    await fake.wait_until(lambda: hand_message(boris) is not old, timeout=10)
    await fake.settle(quiet=0.05)
    new = hand_message(boris)
    assert new is not None and new.html == old_html and len(boris.messages) == count + 1
    assert old.deleted
    answer = await boris.press_raw(old, data=old_data)
    assert answer.text == "Эта кнопка устарела — показываю актуальные карты."

    # /hand in the group: a short reply there, the cards in private
    reply = await say(fake, vera, "/hand", group)
    assert reply.text == "Карты отправлены в личку."
    await fake.wait_until(lambda: vera.messages[-1] is hand_message(vera), timeout=10)
    assert db_rows(database, "SELECT COUNT(*) FROM actions") == logged

    await gleb.start_bot()
    await fake.wait_until(lambda: len(gleb.messages) == 1, timeout=10)  # the /start reply
    nothing = await say(fake, gleb, "/hand")
    assert nothing.text == "Вы сейчас ни за каким столом не играете."


async def test_11_language_for_a_group_and_for_a_user(
    fake_telegram: FakeTelegram, bot: RunningBot
) -> None:
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    boris = fake.add_user(102, "Boris", language_code="ru")
    group = fake.add_group(-1001, "Пятница", admins=[101], members=[102])

    picker = await say(fake, boris, "/language", group)
    assert picker.text == "Язык:"
    assert [b.text for b in picker.all_buttons] == ["Русский ✓", "English"]
    answer = await boris.press(picker, "English")
    assert answer.text == "Язык группы меняют админы."
    assert (await say(fake, boris, "/help", group)).text.startswith("Открыть стол")
    answer = await anna.press(picker, "English")
    assert answer.text == "Language: English"
    helped = await say(fake, boris, "/help", group)
    assert helped.text.startswith("Open a table: /newgame")
    lobby = await say(fake, boris, "/newgame mushka", group)
    assert "Mushka" in lobby.text and "seating" in lobby.text
    # Boris's private chat stays Russian until he switches it
    await boris.start_bot()
    assert (await say(fake, boris, "/help")).text.startswith("Я веду")
    mine = await say(fake, boris, "/language")
    answer = await boris.press(mine, "English")
    assert answer.text == "Language: English"
    assert (await say(fake, boris, "/help")).text.startswith("I run old Russian card games")
    # and Anna's private chat is still Russian
    await anna.start_bot()
    assert (await say(fake, anna, "/help")).text.startswith("Я веду")


async def test_14_commands_in_the_wrong_chat_type(
    fake_telegram: FakeTelegram, bot: RunningBot
) -> None:
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    group = fake.add_group(-1001, "Пятница", admins=[101])
    await anna.start_bot()
    reply = await say(fake, anna, "/kick")
    assert reply.text == "Эта команда работает в группе."
    reply = await say(fake, anna, "/cancel")  # in private: a practice table's, none open
    assert reply.text == "Тренировки сейчас нет — закрывать нечего. Начать: /practice"
    reply = await say(fake, anna, "/newgame mushka")
    assert reply.text == "Столы открываются в группе: добавьте меня в группу и наберите /newgame."
    assert [b.url for b in reply.all_buttons] == [
        f"https://t.me/{fake.bot_username}?startgroup=new"
    ]
    reply = await say(fake, anna, "/start", group)  # a private-only command in the group
    assert reply.text == "Эта команда работает в личке."
    assert [b.url for b in reply.all_buttons] == [f"https://t.me/{fake.bot_username}?start=s"]
    reply = await say(fake, anna, f"/start@{fake.bot_username}", group)
    assert reply.text == "Эта команда работает в личке."
    count = len(anna.messages)
    reply = await say(fake, anna, "/hand", group)  # a private thing asked in the group
    assert reply.text == "Вы сейчас ни за каким столом не играете."
    assert len(anna.messages) == count
