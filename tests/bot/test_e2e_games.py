"""Restart mid-deal, the other trick games, deep-link joining, the API cost of a deal."""

from __future__ import annotations

import random

import pytest

from bot.app import RunningBot, running_bot
from bot.config import Settings
from tests.bot.helpers import (
    db_rows,
    fixed_seeds,
    hand_message,
    lobby_message,
    open_table,
    play_step,
    play_until_end,
    result_message,
    table_message,
    watched,
)
from tests.fakeapi import FakeTelegram


def players_of(fake: FakeTelegram, n: int) -> list:  # type: ignore[type-arg]
    names = ["Anna", "Boris", "Vera", "Gleb", "Dasha"]
    return [fake.add_user(101 + i, names[i], language_code="ru") for i in range(n)]


async def test_restart_mid_deal_continues_and_finishes(
    fake_telegram: FakeTelegram, settings: Settings
) -> None:
    fake = fake_telegram
    players = players_of(fake, 3)
    group = fake.add_group(-1001, "Пятница", admins=[101], members=[102, 103])
    rng = random.Random(11)
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await open_table(fake, group, players)
        for _ in range(8):
            await play_step(fake, group, players, rng)
        await fake.settle(quiet=0.05)
    ((logged,),) = db_rows(settings.database, "SELECT COUNT(*) FROM actions")
    assert logged > 0
    table_before = table_message(group)
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await fake.settle(quiet=0.1)
        assert table_message(group) is table_before  # found and edited, not re-sent
        await play_until_end(fake, group, players, rng)
    result = result_message(group)
    assert result is not None and "Пулька 1" in result.text
    rows = db_rows(settings.database, "SELECT seq FROM actions ORDER BY seq")
    (ledger,) = db_rows(settings.database, "SELECT SUM(balance), COUNT(*) FROM ledger")
    assert [r[0] for r in rows] == list(range(len(rows))) and len(rows) > logged
    assert ledger == (0, 3)


@pytest.mark.parametrize(("game", "n"), [("pamfil", 4), ("shutikha", 3), ("mistigri", 4)])
async def test_other_trick_games_play_a_pulka(
    fake_telegram: FakeTelegram, bot: RunningBot, game: str, n: int
) -> None:
    fake = fake_telegram
    players = players_of(fake, n)
    group = fake.add_group(-1001, "Club", admins=[101], members=[p.id for p in players[1:]])
    await open_table(fake, group, players, game=game)
    await play_until_end(fake, group, players, random.Random(n))
    result = result_message(group)
    assert result is not None and "Пулька 1" in result.text
    deals = [m for m in group.messages if m.text.startswith("📋")]
    assert deals and all(m.has_button("🔎 Разбор") for m in deals)  # each deal's review


async def test_deep_link_join_and_deal_api_cost(
    fake_telegram: FakeTelegram, bot: RunningBot
) -> None:
    fake = fake_telegram
    anna, boris, vera = players_of(fake, 3)
    group = fake.add_group(-1001, "Пятница", admins=[101], members=[102, 103])
    await anna.start_bot()
    await boris.start_bot()
    await anna.send(group, "/newgame мушка target=5")
    await fake.wait_until(lambda: lobby_message(group) is not None, timeout=10)
    lobby = lobby_message(group)
    assert lobby is not None
    await boris.press(lobby, "✋")
    answer = await vera.press(lobby, "✋")  # never opened the private chat
    assert answer.show_alert and answer.url is not None and "start=j_" in answer.url
    await vera.open_link(answer.url)
    await fake.wait_until(lambda: "Vera" in lobby.text, timeout=10)
    assert "Ждём начала" in vera.last.text
    await anna.press(lobby, "▶️")
    await fake.wait_until(lambda: table_message(group) is not None, timeout=10)
    await fake.settle(quiet=0.05)
    players = [anna, boris, vera]
    assert all(hand_message(p) is not None for p in players)
    # one whole deal: count the Bot API calls from the first action to the deal result
    mark = fake.mark()
    deal_results = len([m for m in group.messages if m.text.startswith("📋")])
    rng = random.Random(2)
    for _ in range(500):
        if len([m for m in group.messages if m.text.startswith("📋")]) > deal_results:
            break
        assert await play_step(fake, group, players, rng), "nobody to act"
    else:
        raise AssertionError("the deal did not end")
    calls = fake.count(since=mark)
    assert 10 < calls < 250, calls
    print(f"Bot API calls for one deal of 3-player Мушка: {calls}")  # noqa: T201


async def test_11_english_group_and_russian_hand(
    fake_telegram: FakeTelegram, bot: RunningBot
) -> None:
    fake = fake_telegram
    ann = fake.add_user(201, "Ann", language_code="en")
    bob = fake.add_user(202, "Bob", language_code="en")
    ivan = fake.add_user(203, "Ivan", language_code="ru")
    group = fake.add_group(-2002, "Friday", admins=[201], members=[202, 203])
    lobby = await open_table(fake, group, [ann, bob, ivan])
    assert "the game has started" in lobby.text and "deals first" in lobby.text
    table = table_message(group)
    assert table is not None and "To play:" in table.text and "Trump:" in table.text
    english = hand_message(ann)
    russian = hand_message(ivan)
    assert english is not None and "Your cards:" in english.text
    assert russian is not None and "Ваши карты:" in russian.text
    for text in (lobby.text, table.text, english.text, russian.text):
        assert "{" not in text and "}" not in text
