"""Restarts mid-deal (PRODUCT.md P6, §9): every table continues where it was, and the bot never
sends an edit identical to what a message shows — not after a restart either."""

from __future__ import annotations

import random

from bot.app import running_bot
from bot.config import Settings
from tests.bot.helpers import (
    act_of,
    expected_screens,
    fixed_seeds,
    hand_message,
    open_table,
    play_step,
    table_message,
    to_act,
    watched,
)
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import ApiCall

RESTARTS = 6


def identical_edits(fake: FakeTelegram, since: int = 0) -> list[ApiCall]:
    """Edits whose content equals what the message showed (Telegram: "not modified")."""
    return [
        c
        for c in fake.requests[since:]
        if c.method.lower() in ("editmessagetext", "editmessagereplymarkup")
        and "not modified" in (c.description or "")
    ]


async def test_9_restarts_mid_deal_send_no_identical_edit(
    fake_telegram: FakeTelegram, settings: Settings
) -> None:
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    boris = fake.add_user(102, "Boris", language_code="ru")
    vera = fake.add_user(103, "Vera", language_code="en")
    group = fake.add_group(-1001, "Пятница", admins=[101], members=[102, 103])
    other = fake.add_group(-1002, "Суббота", members=[101, 102])
    players = [anna, boris, vera]
    rng = random.Random(6)
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await open_table(fake, group, players, options="target=15")
        await anna.send(other, "/newgame pamfil")  # a lobby, too
        await fake.settle(quiet=0.05)
    edits_before = fake.count("editMessageText")
    for restart in range(RESTARTS):
        async with watched(fake, running_bot(settings, seeds=fixed_seeds())) as running:
            await fake.settle(quiet=0.1)
            table_html, hands = await expected_screens(running, group.id)
            table = table_message(group)
            assert table is not None and table.html == table_html, restart
            for user in players:  # every screen shows the engine's state
                hand = hand_message(user)
                assert hand is not None and (hand.message_id, hand.html) == hands[user.id]
            if restart % 2 == 0:  # leave a mark pending over the next restart, sometimes
                actor = to_act(group, players)
                assert actor is not None
                hand = hand_message(actor)
                assert hand is not None
                if any(act_of(b)[0] == "y" for b in hand.all_buttons):
                    await actor.press(hand, "✅")
                    await fake.settle(quiet=0.05)
            for _ in range(3):
                assert await play_step(fake, group, players, rng)
            await fake.settle(quiet=0.05)
    assert identical_edits(fake) == []
    assert fake.count("editMessageText") > edits_before  # the table did move on
