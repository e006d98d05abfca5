"""A whole partia of Копилка through the fake Bot API (RULES.md §2): four simulated players
press only buttons the bot sent them, with a restart of the bot in the middle; the bank, the
lay-outs (public without cards, private with them), deal n of 4 and the payout are seen."""

from __future__ import annotations

import random
import re

from bot.app import running_bot
from bot.config import Settings
from tests.bot.helpers import (
    act_of,
    db_rows,
    fixed_seeds,
    hand_message,
    open_table,
    press_and_wait,
    result_message,
    say,
    table_message,
    to_act,
    watched,
)
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import Button, SentMessage
from tests.fakeapi.users import SimGroup, SimUser


def choose(message: SentMessage, rng: random.Random) -> Button:
    """A button the hand offers for a move: an undotted card, a buy or a pass."""
    moves = [
        b
        for b in message.all_buttons
        if (b.callback_data or "").startswith("h:")
        and act_of(b)[0] in "pbn"
        and not b.text.startswith("·")
    ]
    assert moves, message.describe_buttons()
    cards = [b for b in moves if act_of(b)[0] == "p"]
    if cards and rng.random() < 0.7:
        return rng.choice(cards)
    return rng.choice(moves)


def everything(message: SentMessage) -> str:
    """Every text the message has shown (the first send, each edit)."""
    return "\n".join([*(v.text for v in message.history), message.text])


async def step(
    fake: FakeTelegram, group: SimGroup, players: list[SimUser], rng: random.Random
) -> bool:
    user = to_act(group, players)
    if user is None:
        return False
    message = hand_message(user)
    assert message is not None, user.first_name
    await press_and_wait(fake, user, message, choose(message, rng), players)
    return True


async def test_kopilka_partia_with_a_restart(
    fake_telegram: FakeTelegram, settings: Settings
) -> None:
    fake = fake_telegram
    names = ["Anna", "Boris", "Vera", "Gleb"]
    players = [fake.add_user(101 + i, n, language_code="ru") for i, n in enumerate(names)]
    group = fake.add_group(-1001, "Пятница", admins=[101], members=[102, 103, 104])
    rng = random.Random(5)
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await open_table(fake, group, players, game="kopilka", options="hold_pass=true")
        table = table_message(group)
        assert table is not None and "Копилка: 80" in table.text and "сдача 1 из 4" in table.text
        for _ in range(25):
            assert await step(fake, group, players, rng)
        await fake.settle(quiet=0.05)
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await fake.settle(quiet=0.1)
        marks: dict[int, int] = {}  # deal results so far → the calls' mark when it appeared
        for _ in range(3000):
            done = len([m for m in group.messages if m.text.startswith("📋")])
            marks.setdefault(done, fake.mark())
            if result_message(group) is not None:
                break
            assert await step(fake, group, players, rng), "nobody to act, but no result"
        else:
            raise AssertionError("the partia did not end")
        score = (await say(fake, players[0], "/score", group)).text
    result = result_message(group)
    assert result is not None
    assert result.text.startswith("🏁 Партия 1"), result.text
    assert "Из копилки:" in result.text and "Расчёт:" in result.text
    deals = [m.text for m in group.messages if m.text.startswith("📋")]
    assert [d.split(" · ")[0] for d in deals] == [f"📋 Сдача {n} из 4" for n in range(1, 5)]
    # the Bot API calls of deal 3 (from deal 2's result to deal 3's): the group's and in all
    start, stop = marks[2], marks[3]
    calls = fake.count(since=start) - fake.count(since=stop)
    in_group = fake.count(chat_id=group.id, since=start) - fake.count(chat_id=group.id, since=stop)
    assert 10 < calls < 600, calls
    print(f"Bot API calls for one deal of Копилка: {calls}, to the group {in_group}")  # noqa: T201
    group_text = "\n".join(everything(m) for m in group.messages)
    private = "\n".join(everything(m) for u in players for m in u.messages)
    assert "📤 Выкладки (" in group_text and "Вам пришл" not in group_text
    assert re.search(r"📥 Вам пришл[аи] \d+ карт[аы]?: ", private)
    (ledger,) = db_rows(settings.database, "SELECT SUM(balance), COUNT(*) FROM ledger")
    points = dict(
        db_rows(
            settings.database,
            "SELECT u.first_name, l.points FROM ledger l JOIN users u ON u.id = l.user_id",
        )
    )
    assert ledger == (0, 4)
    # §2.6.7: the partia's one winner has the highest net, in /score's "won" and the result
    booked = db_rows(
        settings.database,
        "SELECT u.first_name, l.balance, l.won FROM ledger l JOIN users u ON u.id = l.user_id",
    )
    (winner,) = [name for name, _, won in booked if won]
    assert {n: b for n, b, _ in booked}[winner] == max(b for _, b, _ in booked)
    assert result.text.split("\n")[0] == f"🏁 Партия 1 — победитель: {winner}", result.text
    # /score: the partia points beside the bank money, as the ledger booked them
    assert sum(points.values()) > 0, points
    for name, n in points.items():
        row = next(r for r in score.splitlines() if f". {name} " in r)
        played = " · игр 1 (с людьми: 1) · "  # four people, each deciding himself
        assert played in row and row.endswith(f" · очков в партиях {n}"), (name, score)
    # the partia's winner (§2.6.7) is first on the leaderboard after one partia
    assert f"\n1. {winner} " in score, score
