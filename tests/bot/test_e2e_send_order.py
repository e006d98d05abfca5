"""The order a player gets a deal's messages in, through the fake Bot API with the group's own
budget of messages spent (the lobby's edits took it): the table goes out before any hand or
turn ping of its deal, and a deal's result before any hand of the next deal — in the group and
in private chats alike."""

from __future__ import annotations

import random
import re

import pytest

from bot.app import running_bot
from bot.config import Settings
from tests.bot.helpers import (
    deal_results,
    fixed_seeds,
    hand_message,
    play_step,
    to_act,
    watched,
)
from tests.bot.test_e2e_ephemeral import in_group, seated, started
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import ApiCall

DEAL = re.compile(r"· сдача (\d+) · место")  # a hand's head line
SENDS = ("sendmessage", "editmessagetext", "editephemeralmessagetext")


def tight(settings: Settings, hands_in_group: bool) -> Settings:
    """The group's budget as Telegram's, scaled down: three sends or edits per 0.6 s — so the
    lobby's edits leave the table's send waiting, while a hand's own chat is free."""
    chosen = in_group(settings) if hands_in_group else settings
    return chosen.model_copy(update={"outbox_time_scale": 0.01, "group_per_minute": 3})


def text(call: ApiCall) -> str:
    return str(call.params.get("text", ""))


def is_table(call: ApiCall, group_id: int) -> bool:
    return (
        call.method.lower() == "sendmessage"
        and call.chat_id == group_id
        and not call.ephemeral
        and text(call).startswith("🃏")
        and "пулька" in text(call)
    )


def hand_deal(call: ApiCall) -> int | None:
    """The deal a hand's send or edit shows (None: no hand, or no such call)."""
    if call.method.lower() not in SENDS or not call.ok:
        return None
    found = DEAL.search(text(call))
    return int(found.group(1)) if found else None


@pytest.mark.parametrize("hands_in_group", [True, False], ids=["in_group", "in_private"])
async def test_the_table_comes_before_the_hands_and_a_result_before_the_next_deals_hands(
    fake_telegram: FakeTelegram, settings: Settings, hands_in_group: bool
) -> None:
    fake = fake_telegram
    players, group = seated(fake, 3)
    rng = random.Random(2)
    async with watched(fake, running_bot(tight(settings, hands_in_group), seeds=fixed_seeds())):
        if not hands_in_group:
            for user in players:
                await user.start_bot()
            await fake.settle(quiet=0.05)
        mark = fake.mark()
        await started(fake, group, players, "target=25", joined=None)
        await fake.wait_until(lambda: all(hand_message(u) for u in players), timeout=20)
        for _ in range(60):
            if deal_results(group) >= 1:
                break
            await fake.wait_until(lambda: to_act(group, players) is not None, timeout=20)
            assert await play_step(fake, group, players, rng)
        await fake.wait_until(lambda: all(hand_message(u) for u in players), timeout=20)
        await fake.wait_until(
            lambda: any(hand_deal(c) == 2 for c in fake.requests[mark:]), timeout=20
        )
        calls = [c for c in fake.requests[mark:] if c.ok]
    table = next(i for i, c in enumerate(calls) if is_table(c, group.id))
    first_hand = next(i for i, c in enumerate(calls) if hand_deal(c) == 1)
    pings = [i for i, c in enumerate(calls) if text(c).startswith("🔔")]
    assert table < first_hand, [(c.method, text(c)[:30]) for c in calls[: first_hand + 1]]
    assert pings and table < pings[0]
    result = next(i for i, c in enumerate(calls) if text(c).startswith("📋"))
    second = next(i for i, c in enumerate(calls) if hand_deal(c) == 2)
    assert result < second, [(c.method, text(c)[:30]) for c in calls[result - 3 : second + 3]]
