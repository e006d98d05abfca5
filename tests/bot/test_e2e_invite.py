"""Inline mode (PRODUCT.md §5.6): ``@<bot>`` offers the user's open lobby as an invitation card
whose Join is the deep link; with none, how to open a table. Presses on messages sent via the
bot (an ``inline_message_id``, no chat) are answered, never crash anything."""

from __future__ import annotations

from bot.app import RunningBot
from tests.bot.helpers import lobby_message, table_message
from tests.bot.test_e2e_limits import three
from tests.fakeapi import FakeTelegram


async def test_5_6_an_invitation_card_seats_whoever_follows_it(
    fake_telegram: FakeTelegram, bot: RunningBot
) -> None:
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    boris = fake.add_user(102, "Boris", language_code="en")
    group = fake.add_group(-1001, "Пятница", admins=[101], members=[102])
    for user in (anna, boris):
        await user.start_bot()
    await anna.send(group, "/newgame mushka")
    await fake.wait_until(lambda: lobby_message(group) is not None, timeout=10)
    lobby = lobby_message(group)
    assert lobby is not None
    assert any(b.raw.get("switch_inline_query") == "" for b in lobby.all_buttons)  # 📨 Invite
    results = await anna.inline_query("")
    assert len(results) == 1
    card = results[0]
    assert card["title"] == "🃏 Мушка — идёт набор (1/7)"
    answer = fake.inline_answers[next(iter(fake.inline_answers))]
    assert answer.get("is_personal") is True and answer.get("cache_time") == 0
    sent = await anna.choose_inline_result(card, boris)  # into Boris's private chat with Anna
    assert "Anna" in sent.text and "Пятница" in sent.text
    join = next(b for b in sent.all_buttons if b.url)
    await boris.open_link(join.url or "")
    await fake.wait_until(lambda: "Boris" in lobby.text, timeout=10)
    # a forged press on the card (inline_message_id, no chat) is answered, nothing changes
    forged = await boris.press_raw(sent, data=join.url or "x")
    assert forged.text in ("Unknown button.", "Кнопка не распознана.", "")


async def test_5_6_no_open_lobby_offers_how_to_open_one(
    fake_telegram: FakeTelegram, bot: RunningBot
) -> None:
    fake = fake_telegram
    vera = fake.add_user(103, "Vera", language_code="en")
    await vera.start_bot()
    results = await vera.inline_query("")
    assert [r["title"] for r in results] == ["Open a table"]
    buttons = results[0]["reply_markup"]["inline_keyboard"][0]
    assert "startgroup=" in buttons[0]["url"]


async def test_5_6_an_invitation_to_a_started_table_says_so(
    fake_telegram: FakeTelegram, bot: RunningBot
) -> None:
    fake = fake_telegram
    group, players = await three(fake)
    anna = players[0]
    for user in players:
        await user.start_bot()
    await fake.settle(quiet=0.05)
    await anna.send(group, "/newgame mushka")
    await fake.wait_until(lambda: lobby_message(group) is not None, timeout=10)
    card = (await anna.inline_query(""))[0]
    dora = fake.add_user(104, "Dora", language_code="ru")
    group.add_member(dora)
    await dora.start_bot()
    sent = await anna.choose_inline_result(card, dora)
    lobby = lobby_message(group)
    assert lobby is not None
    for user in players[1:]:
        joined = await user.press(lobby, "✋")
        assert joined.show_alert is False, joined.text
    await anna.press(lobby, "▶️")
    await fake.wait_until(lambda: table_message(group) is not None, timeout=10)
    await fake.settle(quiet=0.05)
    before = len(dora.messages)
    await dora.open_link(next(b.url for b in sent.all_buttons if b.url) or "")
    await fake.wait_until(lambda: len(dora.messages) > before, timeout=10)
    assert dora.messages[-1].text == "Игра уже идёт. Дождитесь следующей."
