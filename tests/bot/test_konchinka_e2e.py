"""A whole game of Кончинка to the target through the fake Bot API (RULES.md §4), at 2, 3 and
4 players: the simulated players press only buttons the bot sent them, with a restart of the
bot in the middle; the 🏁 result is seen, the ledger sums to zero, the group never names a card
of a hand, and the Bot API calls of each deal are counted."""

from __future__ import annotations

import itertools
import random
import re

import pytest

from bot.app import running_bot
from bot.config import Settings
from bot.render.cards import card_name
from tests.bot.helpers import (
    act_of,
    db_rows,
    deal_results,
    fixed_seeds,
    hand_message,
    open_table,
    press_and_wait,
    result_message,
    table_message,
    to_act,
    watched,
)
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import Button, SentMessage
from tests.fakeapi.users import SimGroup, SimUser

NAMES = ["Anna", "Boris", "Vera", "Gleb"]
PRESS_LIMIT = 1500  # a game to 5 is a handful of deals of at most 52 cards each


def choose(message: SentMessage, rng: random.Random) -> Button:
    """A legal press: one capture of the open choice, else an undotted card of the hand."""
    buttons = [b for b in message.all_buttons if (b.callback_data or "").startswith("h:")]
    captures = [b for b in buttons if act_of(b)[0] == "k"]
    if captures:
        return rng.choice(captures)
    cards = [b for b in buttons if act_of(b)[0] == "c" and not b.text.startswith("·")]
    assert cards, message.describe_buttons()
    return rng.choice(cards)


def hand_cards(user: SimUser) -> list[str]:
    """The Russian names of the cards on the user's hand message's buttons."""
    message = hand_message(user)
    if message is None:
        return []
    return [
        card_name(arg, "ru")
        for b in message.all_buttons
        if (b.callback_data or "").startswith("h:")
        for act, arg in [act_of(b)]
        if act == "c" and arg is not None
    ]


def names_card(text: str, name: str) -> bool:
    return re.search(rf"(?<![0-9]){re.escape(name)}", text) is not None


def check_privacy(group: SimGroup, players: list[SimUser], since: int) -> None:
    """No card now in a hand is named by the group's messages of this deal (older deals'
    results may name cards that were captured then and are dealt again now; the draw for the
    first dealer shows cards of a deck of its own)."""
    texts = [m.text for m in group.messages[since:] if "Жребий" not in m.text]
    table = table_message(group)
    if table is not None:
        texts.append(table.text)
    shown = "\n".join(texts)
    for user in players:
        for name in hand_cards(user):
            assert not names_card(shown, name), f"{user.first_name}'s {name} in the group"


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


@pytest.mark.parametrize("seats", [2, 3, 4])
async def test_konchinka_game_with_a_restart(
    fake_telegram: FakeTelegram, settings: Settings, seats: int
) -> None:
    fake = fake_telegram
    players = [fake.add_user(101 + i, n, language_code="ru") for i, n in enumerate(NAMES[:seats])]
    group = fake.add_group(-1001, "Пятница", admins=[101], members=[102, 103, 104][: seats - 1])
    rng = random.Random(seats)
    marks = [0]  # the calls' mark as each deal began (the first: before the table opened)
    starts = [0]  # the group's message count as each deal began
    presses = 0

    def track() -> None:
        if deal_results(group) >= len(marks):
            marks.append(fake.mark())
            starts.append(len(group.messages))

    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await open_table(fake, group, players, game="konchinka", options="target=5")
        table = table_message(group)
        assert table is not None and "Кончинка" in table.text, table and table.text
        for _ in range(20):
            check_privacy(group, players, starts[-1])
            assert await step(fake, group, players, rng)
            presses += 1
            track()
        await fake.settle(quiet=0.05)
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await fake.settle(quiet=0.1)
        while result_message(group) is None:
            check_privacy(group, players, starts[-1])
            assert await step(fake, group, players, rng), "nobody to act, but no result"
            presses += 1
            track()
            assert presses < PRESS_LIMIT, "the game did not end"
        await fake.settle(quiet=0.05)
    if fake.mark() > marks[-1]:  # calls after the last deal's result (else it came with it)
        marks.append(fake.mark())
    result = result_message(group)
    assert result is not None
    print(result.text)  # noqa: T201
    assert result.text.startswith("🏁"), result.text
    deals = deal_results(group)
    assert deals >= 1
    group_text = "\n".join(
        t for m in group.messages for t in [*(v.text for v in m.history), m.text]
    )
    assert "Ваши карты" not in group_text and "Your cards" not in group_text
    rows = db_rows(settings.database, "SELECT SUM(balance), COUNT(*) FROM ledger")
    assert rows == [(0, seats)], rows
    # each seat's ledger balance is its figure in the result's settlement line
    settlement = next(ln for ln in result.text.splitlines() if ln.startswith("Расчёт"))
    balances = dict(db_rows(settings.database, "SELECT user_id, balance FROM ledger"))
    for user in players:
        figure = re.search(rf"{user.first_name} ([+−]?\d+)", settlement)
        assert figure is not None, settlement
        assert balances[user.id] == int(figure.group(1).replace("−", "-")), settlement
    figures = []
    for n, (start, stop) in enumerate(itertools.pairwise(marks), 1):
        calls = fake.count(since=start) - fake.count(since=stop)
        in_group = fake.count(chat_id=group.id, since=start) - fake.count(
            chat_id=group.id, since=stop
        )
        assert calls < 1000, (n, calls)
        figures.append(f"deal {n}: {calls} calls, group {in_group}, private {calls - in_group}")
    print(f"Кончинка, {seats} players, {presses} presses, {deals} deals:", *figures, sep="\n  ")  # noqa: T201
