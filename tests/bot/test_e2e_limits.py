"""Telegram's limits end to end (PRODUCT.md §9, §10; STYLE.md §9): 429s waited out, edit
targets that vanished replaced, and nothing lost."""

from __future__ import annotations

import random

from bot.app import RunningBot
from tests.bot.helpers import (
    choose,
    db_rows,
    expected_screens,
    hand_message,
    open_table,
    play_deal,
    play_step,
    table_message,
    to_act,
)
from tests.databases import TestDatabase
from tests.fakeapi import FakeTelegram
from tests.fakeapi.users import SimGroup, SimUser


def actions_logged(database: TestDatabase) -> list[str]:
    return [r[0] for r in db_rows(database, "SELECT action FROM actions ORDER BY seq")]


async def three(fake: FakeTelegram) -> tuple[SimGroup, list[SimUser]]:
    anna = fake.add_user(101, "Anna", language_code="ru", username="anna")
    boris = fake.add_user(102, "Boris", language_code="ru")
    vera = fake.add_user(103, "Vera", language_code="en")
    group = fake.add_group(-1001, "Пятница", admins=[101], members=[102, 103])
    return group, [anna, boris, vera]


async def assert_screens_current(
    fake: FakeTelegram, bot: RunningBot, group: SimGroup, players: list[SimUser]
) -> None:
    await fake.settle(quiet=0.1)
    table_html, hands = await expected_screens(bot, group.id)
    table = table_message(group)
    assert table is not None and table.html == table_html
    for user in players:
        message_id, html = hands[user.id]
        mine = hand_message(user)
        assert mine is not None and mine.message_id == message_id and mine.html == html


async def test_10_a_whole_deal_under_rate_limits_loses_nothing(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    fake = fake_telegram
    group, players = await three(fake)
    await open_table(fake, group, players)
    fake.rate_limit(per_chat=4, window=1.0)
    mark = fake.mark()
    presses = await play_deal(fake, group, players, random.Random(5))
    assert fake.count(since=mark, ok=False) > 0, "the limit never bit: the test proves nothing"
    assert all(c.error_code == 429 for c in fake.calls()[mark:] if not c.ok)
    fake.rate_limit(None)
    await assert_screens_current(fake, bot, group, players)
    runtime = bot.services.runtime
    table_id = await runtime.queries.open_table_id(group.id)
    assert table_id is not None
    table = await runtime.ctx.load(table_id)
    assert table is not None and table.match is not None
    acts = [ln["a"] for ln in table.match.state.record() if ln.get("t") == "act"]
    assert actions_logged(database) == acts and 0 < len(acts) <= presses


async def test_9_deleted_hand_and_expired_table_are_sent_anew(
    fake_telegram: FakeTelegram, bot: RunningBot
) -> None:
    fake = fake_telegram
    group, players = await three(fake)
    await open_table(fake, group, players)
    rng = random.Random(8)
    old_table = table_message(group)
    assert old_table is not None
    fake.expire(old_table)  # too old to edit
    actor = to_act(group, players)
    victim = next(u for u in players if u is not actor)  # his hand changes: whose turn it is
    old_hand = hand_message(victim)
    assert old_hand is not None
    victim.delete(old_hand)  # deleted from the user's side; the bot is not told
    sends = fake.count("sendMessage", group.id)
    for _ in range(10):  # until a move changes what his hand shows (the bot edits it then)
        user = to_act(group, players)
        message = hand_message(user) if user else None
        assert user is not None and message is not None
        answer = await user.press(message, data=choose(message, rng).callback_data)
        assert not answer.text, answer.text
        await fake.settle(quiet=0.05)
        if hand_message(victim) is not None:
            break
    new_table = table_message(group)
    new_hand = hand_message(victim)
    assert new_table is not None and new_table.message_id != old_table.message_id
    assert new_hand is not None and new_hand.message_id != old_hand.message_id
    # the new ids are remembered: further moves edit them instead of sending again
    for _ in range(3):
        await play_step(fake, group, players, rng)
    await assert_screens_current(fake, bot, group, players)
    assert table_message(group) is new_table and hand_message(victim) is new_hand
    assert fake.count("sendMessage", group.id) == sends + 1
