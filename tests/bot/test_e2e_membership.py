"""Whether a player is still in the group, asked when it matters: an answer cached
for a minute is asked again once the table's seats changed hands after it, so a ban the bot was
not told of is found at the banned player's next press — 🙋 I'm back gives him nothing; and
«chat not found» from Telegram is no "not a member": the press is refused for now, the seat
stays his. On SQLite and PostgreSQL (``BOT_TEST_DATABASE``), with Redis on too
(``BOT_TEST_WITH_REDIS=1``); several workers: ``test_workers_membership.py``."""

from __future__ import annotations

from bot.app import RunningBot
from tests.bot.helpers import hand_message, open_table
from tests.bot.test_e2e_seats import LEFT_NOTE, UNSURE, seat_of, texts, three, toggle
from tests.databases import TestDatabase
from tests.fakeapi import FakeTelegram


def asked(fake: FakeTelegram, user_id: int) -> int:
    """getChatMember calls about the user so far."""
    return sum(1 for c in fake.calls("getChatMember") if c.params.get("user_id") == user_id)


async def test_a_ban_the_bot_is_not_told_of_gives_no_seat_back(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    fake = fake_telegram
    players, group = three(fake)  # the bot is no admin: nobody tells it of a ban
    await open_table(fake, group, players, options="target=25")
    vera = players[2]
    bot.services.runtime.parts.absent.toggle_gap = 0.0
    assert await toggle(fake, vera) in (None, "")  # ⋯ → 🤖: the computer plays her seat
    await fake.wait_until(lambda: seat_of(database, vera) == (1, ""), timeout=5)
    await fake.settle(quiet=0.1)
    group.state.members[vera.id] = "kicked"  # an admin bans her; the bot's answer is still fresh
    before = asked(fake, vera.id)
    hand = hand_message(vera)
    assert hand is not None and hand.has_button("🙋")
    answer = await vera.press(hand, "🙋")
    assert not answer.text
    await fake.wait_until(lambda: seat_of(database, vera) == (1, "left"), timeout=5)
    await fake.settle(quiet=0.1)
    assert asked(fake, vera.id) == before + 1  # asked again: the seats changed since
    assert LEFT_NOTE in texts(vera) and hand.all_buttons == []


async def test_a_chat_telegram_does_not_find_refuses_for_now_and_bars_nobody(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    fake = fake_telegram
    players, group = three(fake)
    await open_table(fake, group, players, options="target=25")
    vera = players[2]
    bot.services.runtime.ctx.members.ttl = 0.0  # every press asks Telegram
    fake.fail_next("getChatMember", 400, "Bad Request: chat not found", times=1)
    hand = hand_message(vera)
    assert hand is not None
    answer = await vera.press(hand, "⋯")
    assert answer.text == UNSURE
    await fake.settle(quiet=0.1)
    assert seat_of(database, vera) == (0, "")  # still hers, not barred
    assert LEFT_NOTE not in texts(vera)
    answer = await vera.press(hand, "⋯")  # Telegram answers again: the press counts
    assert not answer.text
    await fake.wait_until(lambda: "Пусть играет компьютер" in hand.describe_buttons(), timeout=5)
    # "user not found" still means he is not there: that one is an answer
    fake.fail_next("getChatMember", 400, "Bad Request: user not found", times=1)
    await vera.press(hand, "↩️")
    await fake.wait_until(lambda: seat_of(database, vera) == (1, "left"), timeout=5)
