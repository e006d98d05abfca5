"""A whole pulka of classic Мушка through the fake Bot API."""

from __future__ import annotations

import random

from bot.app import RunningBot
from tests.bot.helpers import open_table, play_until_end, result_message, table_message
from tests.fakeapi import FakeTelegram


async def test_whole_mushka_pulka_three_players(
    fake_telegram: FakeTelegram, bot: RunningBot
) -> None:
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru", username="anna")
    boris = fake.add_user(102, "Boris", language_code="ru")
    vera = fake.add_user(103, "Vera", language_code="en")
    group = fake.add_group(-1001, "Пятница", admins=[101], members=[102, 103])
    players = [anna, boris, vera]
    lobby = await open_table(fake, group, players)
    assert "игра началась" in lobby.text
    assert "Жребий" in lobby.text
    assert table_message(group) is not None
    steps = await play_until_end(fake, group, players, random.Random(1))
    assert steps > 10
    result = result_message(group)
    assert result is not None
    assert "Пулька 1" in result.text
    await anna.send(group, "/score")
    await fake.wait_until(lambda: group.last.text.startswith("📊"), timeout=10)
    score = group.last.text
    assert "Мушка — рейтинг · игр · деньги" in score
    for user in players:
        assert user.first_name in score
