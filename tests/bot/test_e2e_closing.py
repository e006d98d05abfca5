"""No member can hold a group's table hostage, and no close erases a result, through
the fake Bot API: once a match has begun, /cancel asks the people playing and the table closes
only when all of them agree (an admin may close at once, and the group is told who); anyone
asked may say no; an unanswered question lapses, a restart in between; a match closed after its
first deal is rated as it stands — agreed, or idle — and its record stays RECORD.md's abandoned
one, with nothing paid."""

from __future__ import annotations

import json
import random

from bot.app import running_bot
from bot.config import Settings
from bot.numbers import RATING_BASE, signed
from bot.records import Records
from bot.runtime.as_it_stands import money_so_far, places_by
from bot.storage import open_repository
from bot.storage.rows import Deadline, DeadlineKind
from engine.core import abandoned_line
from engine.games import new_game
from tests.bot.helpers import (
    db_rows,
    fixed_seeds,
    hand_message,
    open_table,
    play_deal,
    play_step,
    say,
    table_message,
    watched,
)
from tests.databases import TestDatabase
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import SentMessage
from tests.fakeapi.users import SimGroup, SimUser

UNKNOWN = "Кнопка не распознана."
ASKED = "Закрыть стол? Игра уже идёт, нужно согласие всех игроков: {}."


def club(fake: FakeTelegram, admin: str = "Gleb") -> tuple[list[SimUser], SimUser, SimGroup]:
    """Anna, Boris and Vera play (Anna opens the table); Gleb is the group's admin."""
    players = [fake.add_user(101 + i, n, language_code="ru") for i, n in enumerate(NAMES)]
    gleb = fake.add_user(104, admin, language_code="ru")
    group = fake.add_group(-1001, "Пятница", admins=[104], members=[101, 102, 103])
    return players, gleb, group


NAMES = ["Anna", "Boris", "Vera"]


def status(database: TestDatabase) -> str:
    return str(db_rows(database, "SELECT status FROM tables")[0][0])


def said(group: SimGroup, text: str) -> bool:
    return any(text in m.text for m in group.visible)


async def agree(fake: FakeTelegram, user: SimUser, question: SentMessage) -> None:
    answer = await user.press(question, "✅")
    assert not answer.text, answer.text
    await fake.wait_until(
        lambda: f"{user.first_name} ✅" in question.text or not question.all_buttons
    )


async def test_cancel_once_begun_asks_everyone_playing_and_closes_only_when_all_agree(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    fake = fake_telegram
    players, gleb, group = club(fake)
    anna, boris, vera = players
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await open_table(fake, group, players, options="target=25")
        assert await play_step(fake, group, players, random.Random(1))  # the match has begun
        question = await say(fake, anna, "/cancel", group)
        assert question.text.splitlines() == [
            ASKED.format("Anna, Boris, Vera"),
            "Если закрыть сейчас, никто ничего не платит и в рейтинг игра не идёт.",
        ]
        assert [b.text for b in question.all_buttons] == [
            "✅ Я за",
            "↩️ Нет",
            "✖️ Закрыть сразу (админ)",
        ]
        answer = await anna.press(question, "✖️")  # the creator can't close it alone
        assert answer.text == "Игра уже идёт: сразу закрыть её может только админ."
        answer = await gleb.press(question, "✅")  # an admin who is not playing is not asked
        assert answer.text == "Спрашивают только тех, кто играет за этим столом."
        await agree(fake, anna, question)
        answer = await anna.press(question, "✅")
        assert answer.text == "Вы уже согласились."
        await agree(fake, boris, question)
        await fake.settle(quiet=0.1)
        assert status(database) == "running" and question.all_buttons
        await agree(fake, vera, question)
        await fake.wait_until(lambda: said(group, "🏁 Стол закрыт: все игроки согласились."))
        await fake.settle(quiet=0.1)
        assert status(database) == "closed" and question.all_buttons == []
        assert all(hand_message(p) is None for p in players)  # the hands lost their buttons
    # closed before its first deal was over: no result, for anyone, and nothing paid
    for table in ("results", "ratings", "ledger", "deadlines"):
        assert db_rows(database, f"SELECT COUNT(*) FROM {table}") == [(0,)], table


async def test_a_match_closed_after_its_first_deal_is_rated_as_it_stands(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    fake = fake_telegram
    players, _, group = club(fake)
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await open_table(fake, group, players, options="target=25")
        await play_deal(fake, group, players, random.Random(2))  # the first deal is over
        question = await say(fake, players[1], "/cancel", group)  # Boris is no creator
        assert question.text.startswith("Это может только Anna или админ."), question.text
        question = await say(fake, players[0], "/cancel", group)
        assert question.text.splitlines()[1] == (
            "Если стол закроется, игра пойдёт в рейтинг как есть: места по деньгам сыгранных сдач."
        )
        for user in players:
            await agree(fake, user, question)
        await fake.wait_until(lambda: said(group, "📊 Игра засчитана как есть"))
        await fake.settle(quiet=0.1)
    assert status(database) == "closed"
    assert db_rows(database, "SELECT COUNT(*) FROM ledger") == [(0,)]  # nothing paid (§0.11)
    (seats,) = db_rows(database, "SELECT seats FROM results WHERE match_no = 1")[0]
    stored = json.loads(str(seats))
    repo = await open_repository(database)
    try:
        (table,) = await repo.tables()
        (record,) = await Records(repo, new_game).of_table(table)
    finally:
        await repo.close()
    assert record.lines[-1] == abandoned_line(3)  # the record is RECORD.md's abandoned one
    money = money_so_far(table.game, table.options, record.lines)
    assert money is not None
    assert [s[3] for s in stored] == list(places_by(money))  # places by the money so far
    assert [s[4] for s in stored] == [0, 0, 0]  # and no money: the match settled nothing
    rated = db_rows(database, "SELECT user_id, games FROM ratings WHERE scope = ?", group.id)
    assert sorted(rated) == [(101, 1), (102, 1), (103, 1)]
    line = next(m.text for m in group.visible if m.text.startswith("📊 Игра засчитана"))
    assert all(f"{s[3]}. {s[2]} " in line for s in stored), line
    # each seat's rating as every screen shows it: from the base a newcomer starts at
    shown = [f"{s[2]} {RATING_BASE + s[5]} ({signed(s[6])})" for s in stored]
    assert all(figure in line for figure in shown), (line, shown)


async def test_anyone_asked_says_no_and_an_unanswered_question_lapses_across_a_restart(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    fake = fake_telegram
    players, _, group = club(fake)
    anna, boris, vera = players
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())) as bot:
        await open_table(fake, group, players, options="target=25")
        assert await play_step(fake, group, players, random.Random(3))
        question = await say(fake, anna, "/cancel", group)
        yes = question.button("✅").callback_data
        assert yes is not None
        await agree(fake, anna, question)
        for _ in range(5):  # asked again while it is open: the same question, in place
            await anna.send(group, "/cancel")
        await fake.settle(quiet=0.2)
        asked = [m for m in group.visible if m.text.startswith("Закрыть стол?")]
        assert asked == [question] and question.all_buttons, [m.text for m in asked]
        assert question.text.startswith(ASKED.format("Anna ✅, Boris, Vera")), question.text
        table = table_message(group)
        assert table is not None
        answer = await vera.press_raw(table, data=yes)  # on another message: refused
        assert answer.text == UNKNOWN
        answer = await boris.press(question, "↩️")
        assert not answer.text
        await fake.wait_until(lambda: question.all_buttons == [])
        await fake.settle(quiet=0.2)  # the bot has taken Telegram's answer: the question is gone
        assert question.text.splitlines()[-1] == "Boris: нет — играем дальше."
        answer = await vera.press_raw(question, data=yes)  # the question went: refused
        assert answer.text == UNKNOWN
        await fake.settle(quiet=0.1)
        assert status(database) == "running"
        assert db_rows(database, "SELECT COUNT(*) FROM seats WHERE agreed") == [(0,)]
        pause = "SELECT table_id, moves FROM deadlines WHERE kind = 'close'"
        ((table_id, moves),) = db_rows(database, pause)
        assert moves == -1  # a pause until the question's time would have run out
        soon = await say(fake, anna, "/cancel", group)  # /cancel, ↩️, /cancel …: not so soon
        assert soon.text.startswith("Игроков уже спрашивали только что"), soon.text
        async with bot.services.repo.unit() as tx:  # the pause over, as five minutes on
            await tx.put_deadline(Deadline(int(table_id), DeadlineKind.CLOSE, 0.0, -1))
        bot.services.runtime.parts.closing.question_s = 3.0
        again = await say(fake, anna, "/cancel", group)
        await agree(fake, vera, again)
        assert db_rows(database, "SELECT COUNT(*) FROM deadlines WHERE kind = 'close'") == [(1,)]
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):  # a restart
        lapsed = "Ответа не было — играем дальше."
        await fake.wait_until(lambda: again.text.endswith(lapsed), timeout=20)
        await fake.settle(quiet=0.1)
        assert again.all_buttons == [] and status(database) == "running"
        assert db_rows(database, "SELECT COUNT(*) FROM seats WHERE agreed") == [(0,)]


async def test_an_admin_closes_a_game_in_play_at_once_and_the_group_is_told_who(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    fake = fake_telegram
    players, gleb, group = club(fake, admin="Gleb <b>&")
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await open_table(fake, group, players, options="target=25")
        assert await play_step(fake, group, players, random.Random(4))
        question = await say(fake, gleb, "/cancel", group)
        assert question.text.startswith(ASKED.format("Anna, Boris, Vera"))
        answer = await gleb.press(question, "✖️")
        assert not answer.text
        await fake.wait_until(lambda: said(group, "🏁 Стол закрыт админом:"))
        await fake.settle(quiet=0.1)
    note = next(m for m in group.visible if m.text.startswith("🏁 Стол закрыт админом:"))
    assert note.text == "🏁 Стол закрыт админом: Gleb <b>&."  # his name as he wrote it …
    assert "Gleb &lt;b&gt;&amp;" in note.html  # … never markup
    assert status(database) == "closed"
    assert db_rows(database, "SELECT COUNT(*) FROM results") == [(0,)]


async def test_an_idle_table_closed_after_its_first_deal_is_rated_as_it_stands(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    """Nobody moves any more once the first deal is over (everyone hands his seat to the
    computer): the idle close rates the match as it stands, as every close of a running match
    after a deal does."""
    fake = fake_telegram
    players, _, group = club(fake)
    slow = settings.model_copy(update={"idle_timeout_s": 5.0, "computer_delay_s": 0.5})
    async with watched(fake, running_bot(slow, seeds=fixed_seeds())):
        await open_table(fake, group, players, options="target=25")
        await play_deal(fake, group, players, random.Random(5))
        for user in players:
            hand = hand_message(user)
            assert hand is not None
            await user.press(hand, "⋯")
            await fake.wait_until(lambda h=hand: "Пусть играет компьютер" in h.describe_buttons())  # type: ignore[misc]
            await user.press(hand, "🤖")
        await fake.wait_until(lambda: said(group, "📊 Игра засчитана как есть"), timeout=15)
        await fake.settle(quiet=0.1)
    assert said(group, "🏁 Стол закрыт: никто не ходил")
    assert status(database) == "closed"
    assert db_rows(database, "SELECT COUNT(*) FROM results") == [(1,)]
    assert db_rows(database, "SELECT COUNT(*) FROM ledger") == [(0,)]
