"""The lobby through the fake Bot API: picker, one table per chat, seat limits, Leave, Cancel,
Options and malformed options (PRODUCT.md §2, §3, §4.2, §16)."""

from __future__ import annotations

import json

from bot.app import RunningBot
from bot.callbacks import Kind, Press, PressCodec
from tests.bot.helpers import db_rows, hand_message, lobby_message, open_table, say, table_message
from tests.databases import TestDatabase
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import SentMessage
from tests.fakeapi.users import SimGroup, SimUser

NAMES = ["Anna", "Boris", "Vera", "Gleb", "Dasha", "Egor", "Zhenya", "Ivan"]


def people(fake: FakeTelegram, n: int) -> list[SimUser]:
    return [fake.add_user(101 + i, NAMES[i], language_code="ru") for i in range(n)]


def club(fake: FakeTelegram, users: list[SimUser], admins: tuple[int, ...] = ()) -> SimGroup:
    members = [u.id for u in users if u.id not in admins]
    return fake.add_group(-1001, "Пятница", admins=list(admins), members=members)


async def opened(fake: FakeTelegram, group: SimGroup, user: SimUser, text: str) -> SentMessage:
    await user.send(group, text)
    await fake.wait_until(lambda: lobby_message(group) is not None, timeout=10)
    lobby = lobby_message(group)
    assert lobby is not None
    return lobby


def tables_in(database: TestDatabase) -> list[tuple[object, ...]]:
    return db_rows(database, "SELECT id, game, status, options, creator_id FROM tables ORDER BY id")


async def test_4_2_newgame_without_a_game_shows_the_picker(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    fake = fake_telegram
    anna, boris = people(fake, 2)
    group = club(fake, [anna, boris])
    lobby = await opened(fake, group, anna, "/newgame")
    assert "игру выбирает Anna" in lobby.text
    games = [b.text for b in lobby.all_buttons if b.text[0] != "✖"]
    assert games == ["Мушка", "Памфил", "Шутиха", "Мистигри", "Копилка", "Лентюрлю", "Кончинка"]
    assert any(b.text.startswith("✖️") for b in lobby.all_buttons)
    assert tables_in(database)[0][1:3] == ("", "lobby")

    answer = await boris.press(lobby, "Мушка")
    assert answer.text == "Игру выбирает Anna."
    # a game the bot can't seat (a forged pick: every game of the picker is playable)
    data = PressCodec.from_token(fake.token).pack(Press(Kind.LOBBY, 1, None, 0, "k", "nosuch"))
    answer = await anna.press_raw(lobby, data=data)
    assert answer.text == "Эта игра пока недоступна."
    await fake.settle(quiet=0.05)
    assert "игру выбирает" in lobby.text
    answer = await anna.press(lobby, "Памфил")
    assert not answer.text
    await fake.wait_until(lambda: "набор за стол" in lobby.text, timeout=10)
    assert "Памфил" in lobby.text and "За столом (1/7): Anna" in lobby.text
    assert tables_in(database)[0][1:3] == ("pamfil", "lobby")
    assert lobby_message(group) is lobby  # the same message, edited


async def test_4_2_newgame_with_a_game_and_one_table_per_chat(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    fake = fake_telegram
    anna, boris = people(fake, 2)
    group = club(fake, [anna, boris])
    lobby = await opened(fake, group, anna, "/newgame мушка")  # the ru alias
    assert "Мушка" in lobby.text and "набор за стол" in lobby.text
    for text in ("/newgame pamfil", "/newgame"):
        reply = await say(fake, boris, text, group)
        assert reply.text == "Здесь уже есть стол: ↑"
        assert reply.reply_to == lobby.message_id
    unknown = await say(fake, boris, "/newgame poker", group)
    assert unknown.text.startswith("Не знаю такой игры. Есть: мушка, памфил")
    rows = tables_in(database)
    assert len(rows) == 1 and rows[0][1:3] == ("mushka", "lobby")


async def test_2_seat_limits_join_refused_at_seven_start_refused_below_three(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    fake = fake_telegram
    users = people(fake, 8)
    group = club(fake, users)
    for user in users:
        await user.start_bot()
    lobby = await opened(fake, group, users[0], "/newgame mushka")

    answer = await users[1].press(lobby, "✋")
    assert answer.text == "Вы за столом. Карты придут в личку."
    await fake.settle(quiet=0.05)
    answer = await users[0].press(lobby, "▶️")  # two seated: below the minimum
    assert answer.text == "Нужно хотя бы 3, сейчас 2."
    await fake.settle(quiet=0.05)
    assert table_message(group) is None
    assert tables_in(database)[0][2] == "lobby"
    assert db_rows(database, "SELECT COUNT(*) FROM matches") == [(0,)]

    answer = await users[1].press(lobby, "✋")
    assert answer.text == "Вы уже за столом."
    join = lobby.button("✋").callback_data
    for user in users[2:7]:
        answer = await user.press(lobby, "✋")
        assert answer.text == "Вы за столом. Карты придут в личку."
    await fake.wait_until(lambda: "(7/7)" in lobby.text, timeout=10)
    assert not lobby.has_button("✋")  # §4.2: a full lobby offers no Join
    assert join is not None  # a Join drawn before the last seat went still answers
    answer = await users[7].press_raw(lobby, data=join)
    assert answer.text == "Мест нет: за столом уже 7."
    await fake.settle(quiet=0.05)
    assert "Ivan" not in lobby.text
    assert db_rows(database, "SELECT COUNT(*) FROM seats") == [(7,)]


async def test_4_2_leave_moves_the_creator_and_the_last_leaver_closes(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    fake = fake_telegram
    anna, boris, vera = people(fake, 3)
    group = club(fake, [anna, boris, vera])
    for user in (anna, boris, vera):
        await user.start_bot()
    lobby = await opened(fake, group, anna, "/newgame mushka")
    answer = await boris.press(lobby, "🚪")
    assert answer.text == "Вы не за столом."
    for user in (boris, vera):
        await user.press(lobby, "✋")
    await fake.wait_until(lambda: "(3/7)" in lobby.text, timeout=10)

    answer = await boris.press(lobby, "🚪")
    assert not answer.text
    await fake.wait_until(lambda: "(2/7): Anna, Vera" in lobby.text, timeout=10)
    answer = await anna.press(lobby, "🚪")  # the creator leaves: Vera takes over
    assert not answer.text
    await fake.wait_until(lambda: "Создатель стола: Vera" in lobby.text, timeout=10)
    assert "(1/7): Vera" in lobby.text
    assert tables_in(database)[0][4] == vera.id
    answer = await anna.press(lobby, "⚙️")
    assert answer.text == "Опции меняет только Vera."

    answer = await vera.press(lobby, "🚪")  # nobody left: the table closes
    assert not answer.text
    await fake.wait_until(lambda: lobby.text == "Этот стол уже закрыт.", timeout=10)
    assert lobby.all_buttons == []
    assert tables_in(database)[0][2] == "closed"
    old = next(b.callback_data for v in lobby.history for b in v.buttons[0] if b.callback_data)
    answer = await boris.press_raw(lobby, data=old)
    assert answer.text == "Этот стол уже закрыт."


async def test_4_2_cancel_button_and_command_creator_admin_member(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    fake = fake_telegram
    anna, boris, gleb = people(fake, 3)
    group = club(fake, [anna, boris, gleb], admins=(gleb.id,))  # Gleb is an admin
    for user in (anna, boris, gleb):
        await user.start_bot()

    # the ✖️ button: Boris (a member) is refused, Anna (the creator) closes it
    lobby = await opened(fake, group, anna, "/newgame mushka")
    await boris.press(lobby, "✋")
    answer = await boris.press(lobby, "✖️")
    assert answer.text == "Это может только Anna или админ."
    await fake.settle(quiet=0.05)
    assert tables_in(database)[-1][2] == "lobby" and "набор за стол" in lobby.text
    answer = await anna.press(lobby, "✖️")  # asks once
    assert not answer.text
    await fake.wait_until(lambda: "Закрыть этот стол?" in lobby.text, timeout=10)
    assert [b.text for b in lobby.all_buttons] == ["✖️ Да, закрыть", "↩️ Нет"]
    answer = await boris.press(lobby, "✖️ Да")
    assert answer.text == "Это может только Anna или админ."
    answer = await anna.press(lobby, "↩️ Нет")  # back to the lobby, nothing closed
    await fake.wait_until(lambda: any("▶️" in b.text for b in lobby.all_buttons), timeout=10)
    assert "Закрыть этот стол?" not in lobby.text and tables_in(database)[-1][2] == "lobby"
    await anna.press(lobby, "✖️")
    await fake.wait_until(lambda: "Закрыть этот стол?" in lobby.text, timeout=10)
    answer = await anna.press(lobby, "✖️ Да")
    assert not answer.text
    await fake.wait_until(lambda: lobby.text == "Этот стол уже закрыт.", timeout=10)
    assert lobby.all_buttons == [] and tables_in(database)[-1][2] == "closed"

    # the ✖️ button by an admin who is not seated (the picker asks too)
    lobby = await opened(fake, group, boris, "/newgame")
    answer = await gleb.press(lobby, "✖️")
    assert not answer.text
    await fake.wait_until(lambda: "Закрыть этот стол?" in lobby.text, timeout=10)
    await gleb.press(lobby, "✖️ Да")
    await fake.wait_until(lambda: lobby.text == "Этот стол уже закрыт.", timeout=10)

    # /cancel: refused for a member; the creator is asked once (no keeps it, yes closes it)
    lobby = await opened(fake, group, anna, "/newgame mistigri")
    reply = await say(fake, boris, "/cancel", group)
    assert reply.text == "Это может только Anna или админ."
    question = await say(fake, anna, "/cancel", group)
    assert question.text == "Закрыть этот стол?" and tables_in(database)[-1][2] == "lobby"
    answer = await boris.press(question, "✖️ Да")
    assert answer.text == "Это может только Anna или админ."
    await anna.press(question, "↩️ Нет")
    await fake.wait_until(lambda: question.all_buttons == [], timeout=10)
    assert tables_in(database)[-1][2] == "lobby" and "набор за стол" in lobby.text
    question = await say(fake, anna, "/cancel", group)
    answer = await anna.press(question, "✖️ Да")
    assert not answer.text
    await fake.wait_until(lambda: lobby.text == "Этот стол уже закрыт.", timeout=10)
    await fake.wait_until(lambda: question.all_buttons == [], timeout=10)
    assert tables_in(database)[-1][2] == "closed"
    reply = await say(fake, anna, "/cancel", group)
    assert reply.text == "Здесь нет открытого стола."

    lobby = await opened(fake, group, boris, "/newgame mushka")
    question = await say(fake, gleb, "/cancel", group)
    await gleb.press(question, "✖️ Да")
    await fake.wait_until(lambda: lobby.text == "Этот стол уже закрыт.", timeout=10)
    assert [r[2] for r in tables_in(database)] == ["closed"] * 4


async def test_4_2_options_creator_only_shown_in_lobby_and_in_the_engine(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    fake = fake_telegram
    anna, boris, vera = people(fake, 3)
    group = club(fake, [anna, boris, vera])
    players = [anna, boris, vera]
    for user in players:
        await user.start_bot()
    lobby = await opened(fake, group, anna, "/newgame mushka")
    assert "счёт: 25" in lobby.text
    for user in (boris, vera):
        await user.press(lobby, "✋")
    answer = await boris.press(lobby, "⚙️")
    assert answer.text == "Опции меняет только Anna."
    answer = await anna.press(lobby, "⚙️")
    assert not answer.text
    await fake.wait_until(lambda: any("↩️" in b.text for b in lobby.all_buttons), timeout=10)
    target = lobby.button("счёт: 25")
    assert target.callback_data is not None
    answer = await boris.press(lobby, data=target.callback_data)  # the value button, too
    assert answer.text == "Опции меняет только Anna."
    answer = await anna.press(lobby, data=target.callback_data)
    assert not answer.text
    await fake.wait_until(lambda: "счёт: 30" in lobby.text, timeout=10)
    await anna.press(lobby, "цена пульки")  # pulka fee 0 → 5
    await fake.wait_until(lambda: "цена пульки: 5" in lobby.text, timeout=10)
    await anna.press(lobby, "↩️")
    await fake.wait_until(lambda: any("▶️" in b.text for b in lobby.all_buttons), timeout=10)
    assert "счёт: 30" in lobby.text and "цена пульки: 5" in lobby.text
    stored = json.loads(str(tables_in(database)[0][3]))
    assert stored["target"] == 30 and stored["pulka_fee"] == 5

    await anna.press(lobby, "▶️")
    await fake.wait_until(lambda: table_message(group) is not None, timeout=10)
    runtime = bot.services.runtime
    table_id = await runtime.queries.open_table_id(group.id)
    assert table_id is not None
    table = await runtime.ctx.load(table_id)
    assert table is not None and table.match is not None
    game_line = table.match.state.record()[0]
    assert game_line["options"]["target"] == 30 and game_line["options"]["pulka_fee"] == 5
    counts = await say(fake, vera, "/score", group)
    assert "Vera 30" in counts.text


async def test_4_2_malformed_options_get_a_clear_answer_and_no_table(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    fake = fake_telegram
    (anna,) = people(fake, 1)
    group = club(fake, [anna])
    cases = {
        "/newgame mushka target=3": ("target", "3", "5", "100"),
        "/newgame mushka target=abc": ("target", "abc"),
        "/newgame mushka colour=red": ("colour", "target"),
        "/newgame mushka must_trump=maybe": ("must_trump", "maybe"),
        "/newgame mushka 15": ("15", "target=15"),
    }
    for command, words in cases.items():
        reply = await say(fake, anna, command, group)
        for word in words:
            assert word in reply.text, (command, reply.text)
        assert "такое значение опции недопустимо" not in reply.text
        assert reply.all_buttons == []
    assert tables_in(database) == []
    assert lobby_message(group) is None
    lobby = await opened(fake, group, anna, "/newgame mushka target=5 must_trump=true")
    assert "счёт: 5" in lobby.text and "бить козырем обязательно: да" in lobby.text


async def test_4_3_start_waits_for_an_unreachable_player(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    fake = fake_telegram
    anna, boris, vera = people(fake, 3)
    group = club(fake, [anna, boris, vera])
    for user in (anna, boris, vera):
        await user.start_bot()
    lobby = await opened(fake, group, anna, "/newgame mushka")
    for user in (boris, vera):
        await user.press(lobby, "✋")
    await fake.wait_until(lambda: "(3/7)" in lobby.text, timeout=10)
    vera.block_bot()  # seated, then blocks the bot before the start
    await fake.settle(quiet=0.05)

    answer = await anna.press(lobby, "▶️")
    assert not answer.text
    await fake.wait_until(lambda: "Не могу написать" in group.last.text, timeout=10)
    notice = group.last
    assert "Vera" in notice.text and "Anna" not in notice.text and "Boris" not in notice.text
    assert f"https://t.me/{fake.bot_username}?start=s" in notice.text
    assert [b.text for b in notice.all_buttons] == ["▶️ Начать всё равно без Vera", "⏳ Подождать"]
    assert "Нет связи в личке: Vera" in lobby.text
    assert any("▶️" in b.text for b in lobby.all_buttons)  # still the lobby
    assert table_message(group) is None
    assert tables_in(database)[0][2] == "lobby"
    assert db_rows(database, "SELECT COUNT(*) FROM matches") == [(0,)]

    # Boris may not press the notice's buttons; Anna's ⏳ removes them and changes nothing
    answer = await boris.press(notice, "⏳")
    assert answer.text == "Это может только Anna или админ."
    answer = await anna.press(notice, "⏳")
    assert not answer.text
    await fake.wait_until(lambda: notice.all_buttons == [], timeout=10)
    assert tables_in(database)[0][2] == "lobby" and table_message(group) is None

    # Vera opens the chat (the link's /start s); the next Start deals
    await vera.open_link(f"https://t.me/{fake.bot_username}?start=s")
    await fake.settle(quiet=0.05)
    answer = await anna.press(lobby, "▶️")
    assert not answer.text
    await fake.wait_until(lambda: table_message(group) is not None, timeout=10)
    assert "игра началась" in lobby.text
    assert tables_in(database)[0][2] == "running"


async def test_4_3_start_anyway_without_the_unreachable_player(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    fake = fake_telegram
    anna, boris, vera, gleb = people(fake, 4)
    group = club(fake, [anna, boris, vera, gleb])
    for user in (anna, boris, vera, gleb):
        await user.start_bot()

    # three seated, one unreachable: starting without her would leave two — refused, nothing changes
    lobby = await opened(fake, group, anna, "/newgame mushka")
    for user in (boris, vera):
        await user.press(lobby, "✋")
    await fake.wait_until(lambda: "(3/7)" in lobby.text, timeout=10)
    vera.block_bot()
    await anna.press(lobby, "▶️")
    await fake.wait_until(lambda: "Не могу написать" in group.last.text, timeout=10)
    notice = group.last
    answer = await boris.press(notice, "▶️")
    assert answer.text == "Это может только Anna или админ."
    answer = await anna.press(notice, "▶️ Начать всё равно без Vera")
    assert answer.text == "Нужно хотя бы 3, сейчас 2."
    assert db_rows(database, "SELECT COUNT(*) FROM seats") == [(3,)]
    assert tables_in(database)[0][2] == "lobby"

    # a fourth player joins; Start names Vera again; starting without her deals to three
    await gleb.press(lobby, "✋")
    await fake.wait_until(lambda: "(4/7)" in lobby.text, timeout=10)
    sent = len(group.messages)
    await anna.press(lobby, "▶️")
    await fake.settle(quiet=0.1)
    # the lobby's one notice is shown again (edited), no new group message
    assert len(group.messages) == sent and "Не могу написать" in notice.text
    answer = await anna.press(notice, "▶️ Начать всё равно без Vera")
    assert not answer.text
    await fake.wait_until(lambda: table_message(group) is not None, timeout=10)
    await fake.wait_until(lambda: notice.all_buttons == [], timeout=10)
    assert "игра началась" in lobby.text and "Vera" not in lobby.text
    assert tables_in(database)[0][2] == "running"
    seated = db_rows(database, "SELECT user_id FROM seats ORDER BY seat")
    assert seated == [(anna.id,), (boris.id,), (gleb.id,)]
    assert db_rows(database, "SELECT COUNT(*) FROM matches") == [(1,)]
    await fake.wait_until(lambda: hand_message(gleb) is not None, timeout=10)


async def test_4_2_a_running_table_also_blocks_a_second_newgame(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    fake = fake_telegram
    players = people(fake, 3)
    group = club(fake, players)
    await open_table(fake, group, players)
    table = table_message(group)
    assert table is not None
    reply = await say(fake, players[1], "/newgame mushka", group)
    assert reply.text == "Здесь уже есть стол: ↑" and reply.reply_to == table.message_id
    assert len(tables_in(database)) == 1


async def test_4_3_the_seating_is_final_while_start_notes_are_on_their_way(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    """Between ▶️ Start and the deal the bot waits for the private notes (§4.3): a slow answer
    must not let anyone join, leave, change an option or cancel in that gap."""
    fake = fake_telegram
    anna, boris, vera, gleb = people(fake, 4)
    group = club(fake, [anna, boris, vera, gleb], admins=(gleb.id,))
    for user in (anna, boris, vera, gleb):
        await user.start_bot()
    lobby = await opened(fake, group, anna, "/newgame mushka")
    for user in (boris, vera):
        await user.press(lobby, "✋")
    await fake.wait_until(lambda: "(3/7)" in lobby.text, timeout=10)
    gate = fake.gate("sendMessage", chat_id=boris.id)  # Boris's note hangs
    start = fake.mark()
    answer = await anna.press(lobby, "▶️")
    assert not answer.text
    await fake.wait_until(
        lambda: any(
            c.method == "sendMessage" and c.params.get("chat_id") == boris.id
            for c in fake.requests[start:]
        ),
        timeout=10,
    )
    seats_before = db_rows(database, "SELECT seat, user_id FROM seats ORDER BY seat")
    refusals = [
        await gleb.press(lobby, "✋"),
        await boris.press(lobby, "🚪"),
        await anna.press(lobby, "⚙️"),
        await gleb.press(lobby, "✖️"),
    ]
    assert refusals[0].text == "Игра уже идёт. Дождитесь следующей."
    assert [r.text for r in refusals[1:]] == ["Стол запускается — минутку."] * 3
    assert db_rows(database, "SELECT seat, user_id FROM seats ORDER BY seat") == seats_before

    gate.set()
    await fake.wait_until(lambda: table_message(group) is not None, timeout=10)
    await fake.wait_until(lambda: all(hand_message(u) is not None for u in (anna, boris, vera)))
    assert hand_message(gleb) is None
    assert tables_in(database)[0][2] == "running"
    assert db_rows(database, "SELECT seat, user_id FROM seats ORDER BY seat") == seats_before
