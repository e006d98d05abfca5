"""Presses from outside, as a Telegram client can send them: any data, on any message, by anyone
(PRODUCT.md §7.2 steps 1–6, §16). Each is answered and changes nothing."""

from __future__ import annotations

import logging
import random

import pytest

from bot.app import RunningBot, running_bot
from bot.callbacks import b36
from bot.config import Settings
from tests.bot.helpers import (
    act_of,
    db_rows,
    fixed_seeds,
    hand_message,
    lobby_message,
    open_table,
    play_step,
    play_until_end,
    press_and_wait,
    pressable,
    result_message,
    say,
    to_act,
    watched,
)
from tests.databases import TestDatabase
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import Button, SentMessage
from tests.fakeapi.users import SimGroup, SimUser

UNKNOWN = ("Кнопка не распознана.", "Unknown button.")


def snapshot(fake: FakeTelegram) -> list[tuple[int, int, int, bool]]:
    """Every message of every chat with its number of versions: any send or edit changes it."""
    return [
        (chat.id, m.message_id, len(m.history), m.deleted)
        for chat in fake.chats.values()
        for m in chat.messages.values()
    ]


def table_rows(database: TestDatabase) -> list[tuple[object, ...]]:
    return db_rows(
        database,
        "SELECT t.id, t.status, t.moves, t.generation, "
        "(SELECT group_concat(user_id) FROM seats s WHERE s.table_id = t.id), "
        "(SELECT group_concat(marks || '/' || mode) FROM hands h WHERE h.table_id = t.id), "
        "(SELECT COUNT(*) FROM actions a WHERE a.table_id = t.id) FROM tables t ORDER BY t.id",
    )


async def three(fake: FakeTelegram) -> tuple[SimGroup, list[SimUser]]:
    anna = fake.add_user(101, "Anna", language_code="ru", username="anna")
    boris = fake.add_user(102, "Boris", language_code="ru")
    vera = fake.add_user(103, "Vera", language_code="en")
    group = fake.add_group(-1001, "Пятница", admins=[101], members=[102, 103])
    players = [anna, boris, vera]
    await open_table(fake, group, players)
    return group, players


def junk_for(genuine: str) -> list[str]:
    """Callback data no button of the bot carries: each kind a client can send (§7.2 steps 1–2)."""
    body, _, tag = genuine.partition("~")
    return [
        "",
        "Кнопка",
        "h:1:0:0:p:QS~ЖЖЖЖЖЖ",  # well-formed, a non-ASCII tag
        f"{body}~{tag[:-1]}é",  # a genuine body, the tag's last character non-ASCII
        f"{body}~ä",
        f"{body.replace(':', '：', 1)}~{tag}",  # a full-width colon
        "🂠" * 16,
        "h:" + "1" * 100,  # over-long
        genuine + "0" * 60,
        bytes(range(1, 256)).decode("latin-1")[:60],  # random bytes as text
        b"\xff\xfe\x00h:1".decode("utf-8", "surrogateescape"),  # lone surrogates
        f"{body}~AAAAAA",  # valid-looking, a wrong tag
        f"{body}~{tag}~{tag}",
        genuine.upper(),
    ]


async def test_7_2_any_callback_data_is_answered_and_changes_nothing(
    fake_telegram: FakeTelegram,
    bot: RunningBot,
    database: TestDatabase,
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake = fake_telegram
    group, players = await three(fake)
    actor = to_act(group, players)
    assert actor is not None
    hand = hand_message(actor)
    assert hand is not None
    genuine = hand.all_buttons[0].callback_data
    assert genuine is not None
    lobby = group.messages[0]
    await fake.settle(quiet=0.05)
    rows, shown = table_rows(database), snapshot(fake)
    caplog.set_level(logging.WARNING)
    targets: list[tuple[SimUser, SentMessage]] = [(actor, hand), (players[1], lobby)]
    for user, message in targets:
        for data in junk_for(genuine):
            answer = await user.press_raw(message, data=data)
            assert answer.text in UNKNOWN, (data, answer)
            assert not answer.show_alert and answer.url is None
    await fake.settle(quiet=0.05)
    assert table_rows(database) == rows
    assert snapshot(fake) == shown
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]
    assert lobby_message(group) is None  # the lobby is still the started record


class Clock:
    """A monotonic clock the test moves on (the membership cache's TTL)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


NOT_A_MEMBER = "Этот стол в группе «Пятница», а вы не её участник."


async def test_3_only_members_of_the_group_press_its_lobby_or_join_by_link(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    boris = fake.add_user(102, "Boris", language_code="ru")
    gleb = fake.add_user(104, "Gleb", language_code="ru")
    dasha = fake.add_user(105, "Dasha", language_code="ru")
    mallory = fake.add_user(110, "Mallory", language_code="ru")  # never in the group
    group = fake.add_group(-1001, "Пятница", admins=[101], members=[102])
    group.restrict(gleb)  # restricted, still a member: counts
    group.restrict(dasha, is_member=False)  # restricted from outside: does not
    for user in (anna, boris, gleb, dasha, mallory):
        await user.start_bot()
    clock = Clock()
    async with watched(fake, running_bot(settings, seeds=fixed_seeds(), monotonic=clock)):
        await anna.send(group, "/newgame mushka")
        await fake.wait_until(lambda: lobby_message(group) is not None, timeout=10)
        lobby = lobby_message(group)
        assert lobby is not None
        await boris.press(lobby, "✋")
        await fake.wait_until(lambda: "(2/7)" in lobby.text, timeout=10)
        await fake.settle(quiet=0.05)
        rows, shown = table_rows(database), snapshot(fake)

        # the public group's lobby is seen and pressed from outside: every button refuses
        for outsider in (mallory, dasha):
            for button in pressable(lobby):
                assert button.callback_data is not None
                answer = await outsider.press_raw(lobby, data=button.callback_data)
                assert answer.text == NOT_A_MEMBER, (outsider, button.text, answer)
        # … and so does the deep link (the path that already refused)
        tid, code = db_rows(database, "SELECT id, join_code FROM tables")[0]
        await mallory.start_bot(f"j_{b36(tid)}_{code}")
        await fake.wait_until(lambda: mallory.last.text == NOT_A_MEMBER, timeout=10)
        await fake.settle(quiet=0.05)
        assert table_rows(database) == rows
        assert [s for s in snapshot(fake) if s[0] != mallory.id] == [
            s for s in shown if s[0] != mallory.id
        ]

        # restricted but a member: seated
        answer = await gleb.press(lobby, "✋")
        assert answer.text == "Вы за столом. Карты придут в личку."
        await fake.wait_until(lambda: "(3/7)" in lobby.text, timeout=10)

        # an answer is trusted for a minute: Boris left the group, his press still counts …
        asked = fake.count("getChatMember")
        boris.leave(group)
        answer = await boris.press_raw(lobby, data=lobby.button("⚙️").callback_data or "")
        assert answer.text == "Опции меняет только Anna."
        assert fake.count("getChatMember") == asked
        # … and after it, Telegram is asked again: he may not press any more
        clock.now += 61
        answer = await boris.press_raw(lobby, data=lobby.button("🚪").callback_data or "")
        assert answer.text == NOT_A_MEMBER
        assert fake.count("getChatMember") == asked + 1
        assert db_rows(database, "SELECT user_id FROM seats ORDER BY seat") == [
            (anna.id,),
            (boris.id,),
            (gleb.id,),
        ]


async def test_3_end_of_pulka_buttons_refuse_outsiders_and_other_chats(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    fake = fake_telegram
    group, players = await three(fake)
    anna = players[0]
    await play_until_end(fake, group, players, random.Random(1))
    result = result_message(group)
    assert result is not None
    mallory = fake.add_user(110, "Mallory", language_code="ru")
    await mallory.start_bot()
    other = fake.add_group(-1002, "Суббота", admins=[anna.id], members=[mallory.id])
    other.state.next_id = result.message_id - 1  # the bot's reply gets the result's id there
    await anna.send(other, "/help")
    await fake.wait_until(lambda: len(other.messages) == 1, timeout=10)
    twin = other.messages[0]
    assert twin.message_id == result.message_id
    await fake.settle(quiet=0.05)
    rows, shown = table_rows(database), snapshot(fake)
    for button in pressable(result):
        data = button.callback_data
        assert data is not None
        answer = await mallory.press_raw(result, data=data)  # seen in a public group
        assert answer.text == NOT_A_MEMBER, (button.text, answer)
        for user in (anna, mallory):  # the same data on another chat's message of that id
            answer = await user.press_raw(twin, data=data)
            assert answer.text in UNKNOWN, (user, button.text, answer)
    await fake.settle(quiet=0.05)
    assert table_rows(database) == rows and rows[0][1] == "ended"
    assert snapshot(fake) == shown


async def test_7_2_a_lobby_button_counts_only_on_its_own_lobby_message(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    boris = fake.add_user(102, "Boris", language_code="ru")
    vera = fake.add_user(103, "Vera", language_code="ru")
    friday = fake.add_group(-1001, "Пятница", admins=[101], members=[102])
    saturday = fake.add_group(-1002, "Суббота", admins=[103], members=[101, 102])
    for user in (anna, boris, vera):
        await user.start_bot()
    await anna.send(friday, "/newgame mushka")
    await vera.send(saturday, "/newgame pamfil")
    await fake.wait_until(
        lambda: lobby_message(friday) is not None and lobby_message(saturday) is not None,
        timeout=10,
    )
    lobby_a, lobby_b = lobby_message(friday), lobby_message(saturday)
    assert lobby_a is not None and lobby_b is not None
    assert lobby_a.message_id == lobby_b.message_id  # ids are per chat
    await fake.settle(quiet=0.05)
    rows, shown = table_rows(database), snapshot(fake)

    # group A's lobby data pressed on group B's lobby message (a client sends any data)
    for user in (boris, anna):  # a member of both groups, and A's own creator and admin
        for button in pressable(lobby_a):
            assert button.callback_data is not None
            answer = await user.press_raw(lobby_b, data=button.callback_data)
            assert answer.text in UNKNOWN, (user, button.text, answer)
    # … and on another message of group A itself (not a button of the table's)
    await anna.send(friday, "/help")
    await fake.wait_until(lambda: len(friday.messages) == 2, timeout=10)
    await fake.settle(quiet=0.05)
    rows, shown = table_rows(database), snapshot(fake)
    for button in pressable(lobby_a):
        assert button.callback_data is not None
        answer = await anna.press_raw(friday.messages[1], data=button.callback_data)
        assert answer.text in UNKNOWN, (button.text, answer)
    await fake.settle(quiet=0.05)
    assert table_rows(database) == rows
    assert snapshot(fake) == shown
    assert "(1/7): Anna" in lobby_a.text and "(1/7): Vera" in lobby_b.text


async def test_7_2_only_the_latest_cancel_question_counts(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    group = fake.add_group(-1001, "Пятница", admins=[101])
    await anna.start_bot()
    await anna.send(group, "/newgame mushka")
    await fake.wait_until(lambda: lobby_message(group) is not None, timeout=10)
    first = await say(fake, anna, "/cancel", group)
    yes = first.button("✖️ Да").callback_data
    assert yes is not None
    second = await say(fake, anna, "/cancel", group)
    await fake.wait_until(lambda: first.all_buttons == [], timeout=10)  # replaced
    answer = await anna.press_raw(first, data=yes)
    assert answer.text in UNKNOWN
    await fake.settle(quiet=0.05)
    assert db_rows(database, "SELECT status FROM tables") == [("lobby",)]
    assert second.button("✖️ Да").callback_data == yes  # the same data counts on its message
    answer = await anna.press(second, "✖️ Да")
    assert not answer.text
    await fake.wait_until(lambda: db_rows(database, "SELECT status FROM tables") == [("closed",)])


STALE = (
    "Эта кнопка устарела — показываю актуальные карты.",
    "That button is out of date — here are your current cards.",
)


def marks_of(database: TestDatabase, user: SimUser) -> tuple[object, ...]:
    return db_rows(
        database,
        "SELECT h.marks, h.mode FROM hands h JOIN seats s "
        "ON s.table_id = h.table_id AND s.seat = h.seat WHERE s.user_id = ?",
        user.id,
    )[0]


def button_of(message: SentMessage, act: str, arg: str | None = None) -> Button:
    return next(
        b
        for b in message.all_buttons
        if (b.callback_data or "").startswith("h:") and act_of(b) == (act, arg)
    )


async def test_6_4_an_old_revision_of_the_own_hand_is_stale(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    fake = fake_telegram
    group, players = await three(fake)
    rng = random.Random(4)
    for _ in range(10):  # someone who may play with an exchange (the first usually may)
        actor = to_act(group, players)
        assert actor is not None
        hand = hand_message(actor)
        assert hand is not None
        if any(act_of(b)[0] == "y" for b in hand.all_buttons):
            break
        await play_step(fake, group, players, rng)
    else:
        raise AssertionError("nobody could play")
    play = button_of(hand, "y")
    assert play.callback_data is not None
    await press_and_wait(fake, actor, hand, play, players)
    hand = hand_message(actor)
    assert hand is not None
    cards = [b for b in hand.all_buttons if act_of(b)[0] == "m" and b.text[0] not in "·✓"]
    assert len(cards) >= 2, hand.describe_buttons()
    first, second = (act_of(b)[1] for b in cards[:2])

    # mark the first card: the exchange button then carries it
    await actor.press(hand, data=cards[0].callback_data)
    await fake.wait_until(lambda: any(b.text.startswith("✓") for b in hand.all_buttons))
    old_exchange = button_of(hand, "x", first).callback_data
    assert old_exchange is not None
    # unmark it and mark the second: same move counter, another revision of the hand
    await actor.press(hand, data=button_of(hand, "m", first).callback_data)
    await fake.wait_until(lambda: not any(b.text.startswith("✓") for b in hand.all_buttons))
    await actor.press(hand, data=button_of(hand, "m", second).callback_data)
    await fake.wait_until(lambda: any(act_of(b) == ("x", second) for b in hand.all_buttons))
    await fake.settle(quiet=0.05)
    rows, text = table_rows(database), hand.text
    assert marks_of(database, actor) == (second, "x")

    # the old exchange (of the card marked back then) arrives on an inaccessible message
    answer = await actor.press_raw(hand, data=old_exchange, inaccessible=True)
    assert answer.text in STALE
    # … and so does the Play button of before the marking, on the message itself
    answer = await actor.press_raw(hand, data=play.callback_data)
    assert answer.text in STALE
    await fake.settle(quiet=0.05)
    assert table_rows(database) == rows  # nothing applied, the marks are the current ones
    assert hand_message(actor) is hand and hand.text == text
    assert any(act_of(b) == ("x", second) for b in hand.all_buttons)  # the current hand is live
    # the current button still counts: the card marked now is exchanged
    answer = await actor.press(hand, data=button_of(hand, "x", second).callback_data)
    assert not answer.text
    await fake.wait_until(lambda: table_rows(database) != rows)
    assert db_rows(database, "SELECT action FROM actions ORDER BY seq DESC LIMIT 1") == [
        (f"play 1 {second}",)
    ]
