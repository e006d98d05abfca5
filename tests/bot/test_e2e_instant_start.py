"""An instant win: a Мистигри pulka won at its first deal (the K♣ and four of one suit, RULES.md
§1.3.11, §1.6.4) ends as it starts: the group is told who won, why and with which cards, the
money is booked and the table is ended — it does not wait for a move nobody can make."""

from __future__ import annotations

from bot.app import running_bot
from bot.config import Settings
from tests.bot.helpers import db_rows, fixed_seeds, open_table, watched
from tests.databases import TestDatabase
from tests.fakeapi import FakeTelegram

SEED = 1528  # python -m bot play mistigri --players 3 --seed 1528: won at the deal


async def test_a_pulka_won_at_the_first_deal_is_said_and_settled(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    boris = fake.add_user(102, "Boris", language_code="ru")
    vera = fake.add_user(103, "Vera", language_code="ru")
    group = fake.add_group(-1001, "Пятница", admins=[101], members=[102, 103])
    async with watched(fake, running_bot(settings, seeds=fixed_seeds(SEED))):
        await open_table(fake, group, [anna, boris, vera], game="mistigri", options="")
        await fake.wait_until(lambda: any(m.text.startswith("🏁") for m in group.messages))
        await fake.settle(quiet=0.1)
    texts = [m.text for m in group.messages]
    result = next(t for t in texts if t.startswith("📋 Сдача 1"))
    assert "Мгновенная победа:" in result and "К♣" in result
    assert "Король треф и четыре карты одной масти" in result
    end = next(t for t in texts if t.startswith("🏁"))
    assert "победитель:" in end.splitlines()[0]
    assert texts.index(result) < texts.index(end)
    assert db_rows(database, "SELECT status FROM tables") == [("ended",)]
    nets = db_rows(database, "SELECT net FROM matches")
    assert len(nets) == 1 and nets[0][0] is not None
