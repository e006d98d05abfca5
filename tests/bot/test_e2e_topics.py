"""Forum supergroups through the fake Bot API: a table lives in the topic it was
opened in — every message of it carries that topic's ``message_thread_id`` — and two topics (and
the General topic) hold tables of their own at once, across a restart too."""

from __future__ import annotations

import random

from bot.app import running_bot
from bot.callbacks import b36
from bot.config import Settings
from tests.bot.helpers import (
    Topic,
    choose,
    db_rows,
    fixed_seeds,
    hand_message,
    open_table,
    play_step,
    result_message,
    table_message,
    watched,
)
from tests.databases import TestDatabase
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import SentMessage
from tests.fakeapi.users import SimGroup, SimUser

GROUP = -100777


def tables_named(message: SentMessage) -> set[str]:
    """The table ids (base 36) a message's buttons speak of: callback data and deep links."""
    out: set[str] = set()
    for b in message.all_buttons:
        if b.callback_data and b.callback_data[1:2] == ":":
            out.add(b.callback_data.split(":")[1])
        if b.url and "start=" in b.url:
            payload = b.url.split("start=")[1]
            if payload[:2] in ("h_", "j_"):
                out.add(payload.split("_")[1])
    return out


def forum(fake: FakeTelegram, count: int) -> tuple[SimGroup, list[SimUser]]:
    users = [fake.add_user(201 + i, f"P{i}", language_code="ru") for i in range(count)]
    members = [u.id for u in users]
    group = fake.add_group(GROUP, "Клуб", is_forum=True, admins=[201], members=members)
    return group, users


async def open_in(fake: FakeTelegram, topic: Topic, players: list[SimUser]) -> SentMessage:
    """The first player opens a Мушка table in the topic, the others join, he starts it."""
    return await open_table(fake, topic.group, players, thread=topic.thread)


async def test_two_topics_hold_two_tables_each_in_its_own_topic(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    fake = fake_telegram
    group, users = forum(fake, 6)
    a, b = (Topic(group, group.create_topic(n, by=users[0])) for n in ("Мушка", "Вечер"))
    seats = {a.thread: users[:3], b.thread: users[3:]}
    rng = random.Random(5)
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await open_in(fake, a, seats[a.thread])
        await open_in(fake, b, seats[b.thread])  # a table in another topic is no refusal
        for _ in range(6):  # the two tables interleaved
            for topic in (a, b):
                assert await play_step(fake, topic, seats[topic.thread], rng)
        # a second /newgame in a topic with a running table is refused, in that topic
        count = len(a.messages)
        await a.send(users[1], "/newgame")
        await fake.wait_until(lambda: len(a.messages) > count, timeout=10)
        assert a.messages[-1].text.startswith("Здесь уже есть стол")
    rows = db_rows(database, "SELECT id, thread_id, status FROM tables ORDER BY id")
    assert [(t, s) for _, t, s in rows] == [(a.thread, "running"), (b.thread, "running")]
    # across a restart the tables go on, each still in its own topic
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        for topic in (a, b):
            players = seats[topic.thread]
            for _ in range(400):
                if result_message(topic) is not None:
                    break
                assert await play_step(fake, topic, players, rng)
            assert result_message(topic) is not None
        count = len(b.messages)
        await b.send(users[4], "/score")
        await fake.wait_until(lambda: len(b.messages) > count, timeout=10)
        assert "P3" in b.messages[-1].text  # the standings answer in the topic it was asked in
        await fake.settle(quiet=0.1)
    ids = {thread: b36(tid) for tid, thread, _ in rows}
    assert group.in_topic(None) == []  # nothing in the General topic
    for topic in (a, b):
        assert topic.messages
        named = set().union(*(tables_named(m) for m in topic.messages))
        assert named == {ids[topic.thread]}, (topic.thread, named)
    sends = [c for c in fake.calls("sendMessage") if c.chat_id == GROUP]
    assert sends and all(c.params.get("message_thread_id") in (a.thread, b.thread) for c in sends)


async def test_general_topic_and_a_topic_and_the_bot_removed_closes_both(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    fake = fake_telegram
    group, users = forum(fake, 6)
    general, topic = Topic(group, None), Topic(group, group.create_topic("Игра", by=users[0]))
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await open_in(fake, general, users[:3])
        await open_in(fake, topic, users[3:])
        assert {m.thread_id for m in group.messages if m.from_bot} == {None, topic.thread}
        # a player of the topic's table leaves the group: his seat (there) goes to the computer
        users[4].leave(group, tell=True)
        await fake.wait_until(
            lambda: any("P4" in m.text and "компьютер" in m.text for m in topic.messages),
            timeout=10,
        )
        assert not any("P4" in m.text for m in general.messages)
        assert db_rows(database, "SELECT table_id, seat, away FROM seats WHERE user_id = 205") == [
            (2, 1, 1)
        ]
        fake.remove_bot_from(group, by=users[0])
        await fake.wait_until(
            lambda: db_rows(database, "SELECT DISTINCT status FROM tables") == [("closed",)],
            timeout=10,
        )
        await fake.settle(quiet=0.1)
    for user in users[:4] + users[5:]:  # everyone seated is told in private, once
        assert sum("меня убрали из группы" in m.text for m in user.messages) == 1


async def test_a_table_message_sent_anew_stays_in_its_topic(
    fake_telegram: FakeTelegram, settings: Settings
) -> None:
    """A table message that can't be edited (too old, deleted) is sent anew — in its topic."""
    fake = fake_telegram
    group, users = forum(fake, 3)
    topic = Topic(group, group.create_topic("Игра", by=users[0]))
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await open_in(fake, topic, users)
        old = table_message(topic)
        assert old is not None
        fake.expire(old)  # Telegram no longer lets the bot edit it
        rng = random.Random(2)
        for _ in range(5):  # a mark or a declaration may leave the table's text as it was
            assert await play_step(fake, topic, users, rng)
            await fake.settle(quiet=0.05)
            if table_message(topic) is not old:
                break
        assert table_message(topic) is not old
        assert any(c.description and "can't be edited" in c.description for c in fake.calls())
    assert group.in_topic(None) == []


async def test_a_deleted_topic_closes_its_table_and_the_players_are_told(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    fake = fake_telegram
    group, users = forum(fake, 6)
    kept, gone = (Topic(group, group.create_topic(n, by=users[0])) for n in ("Один", "Два"))
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await open_in(fake, kept, users[:3])
        await open_in(fake, gone, users[3:])
        assert gone.thread is not None
        group.delete_topic(gone.thread)
        rng = random.Random(3)
        told = "Стол «Мушка» в «Клуб» закрыт: его тему закрыли или удалили."
        for _ in range(5):  # until a press changes the table's text: its edit finds no topic
            if any(m.text == told for m in users[3].messages):
                break
            for user in users[3:]:  # the group's table is gone: whoever may act, acts
                hand = hand_message(user)
                if hand is not None:
                    await user.press(hand, data=choose(hand, rng).callback_data)
            await fake.settle(quiet=0.05)
        await fake.wait_until(
            lambda: all(any(m.text == told for m in u.messages) for u in users[3:]), timeout=10
        )
        assert db_rows(database, "SELECT thread_id, status FROM tables ORDER BY id") == [
            (kept.thread, "running"),
            (gone.thread, "closed"),
        ]
        for user in users[3:]:  # the closed table's cards lose their buttons
            assert hand_message(user) is None
        assert await play_step(fake, kept, users[:3], rng)  # the other topic plays on
        await fake.settle(quiet=0.1)
    assert not any(any(m.text == told for m in u.messages) for u in users[:3])
