"""Restarts mid-deal (PRODUCT.md P6, §9): every table continues where it was, and the bot never
sends an edit identical to what a message shows — not after a restart either, nor when a
table's edit waiting for the group's budget is brought back to what the table shows."""

from __future__ import annotations

import asyncio
import contextlib
import random

import pytest

from bot.app import running_bot
from bot.config import Settings
from tests.bot.helpers import (
    act_of,
    choose,
    expected_screens,
    fixed_seeds,
    hand_message,
    open_table,
    play_step,
    play_until_end,
    table_message,
    to_act,
    watched,
)
from tests.bot.test_e2e_seats import three, toggle
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


@pytest.mark.parametrize("in_group", [False, True], ids=["hands in private", "hands in the group"])
async def test_a_whole_pulka_with_a_seat_handed_over_and_back_sends_no_identical_edit(
    fake_telegram: FakeTelegram, settings: Settings, in_group: bool
) -> None:
    """A pulka played through two restarts; in the middle, at a group budget of one message a
    window, a player's seat goes to the computer, comes back and goes again while the table's
    edit waits for the group's turn: that edit then shows what the table shows, and is not sent
    (it was: Telegram's «message is not modified», a call out of the group's 20)."""
    fake = fake_telegram
    players, group = three(fake, bot_admin=in_group)
    rng = random.Random(47)
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await open_table(fake, group, players, options="target=5")
        for _ in range(3):
            assert await play_step(fake, group, players, rng)
        await fake.settle(quiet=0.05)
    # Telegram's windows at 0.15, one group message a window: an edit of the table waits up to
    # 9 s for the one before it
    paced = settings.model_copy(update={"outbox_time_scale": 0.15, "group_per_minute": 1})
    async with watched(fake, running_bot(paced, seeds=fixed_seeds())) as running:
        running.services.runtime.parts.absent.toggle_gap = 0.0  # his toggles in a moment
        other = next(p for p in players if p is not to_act(group, players))
        assert not await toggle(fake, other)  # 🤖: his seat line shows it, in the window's edit
        await fake.settle(quiet=0.1, timeout=30)
        table = table_message(group)
        assert table is not None and "🤖" in table.text
        mark = fake.mark()
        assert not await toggle(fake, other)  # 🙋: the table's edit without it waits …
        await fake.wait_until(lambda: bool((h := hand_message(other)) and h.has_button("⋯")))
        assert not await toggle(fake, other)  # … 🤖 again before it could go: shown already
        await fake.settle(quiet=0.1, timeout=30)
        toggled = fake.count("editMessageText", group.id, since=mark)
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())) as running:
        running.services.runtime.parts.absent.toggle_gap = 0.0
        await fake.settle(quiet=0.1)
        assert not await toggle(fake, other)  # back at the table for the rest of the pulka
        await fake.settle(quiet=0.05)
        await play_until_end(fake, group, players, rng)
        await fake.settle(quiet=0.05)
    assert identical_edits(fake) == []
    assert toggled == 0  # nothing to show after all: no call made


async def test_a_stop_while_the_tables_edit_is_on_its_way_lets_it_end(
    fake_telegram: FakeTelegram, settings: Settings
) -> None:
    """A stop (a deploy) while the table's edit is on its way to Telegram, its queue drained
    no longer: the edit is let end, and what the table shows is known — it was cut short,
    Telegram made it all the same, and the restart sent it again («message is not modified»)."""
    fake = fake_telegram
    players, group = three(fake)
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await open_table(fake, group, players, options="target=5")
    rng = random.Random(8)
    edits = fake.count("editMessageText", group.id)
    held = fake.gate("editMessageText", chat_id=group.id, whole=True)  # a slow answer
    async with contextlib.AsyncExitStack() as stack:
        await stack.enter_async_context(
            running_bot(settings.model_copy(update={"drain_s": 0.0}), seeds=fixed_seeds())
        )
        actor = to_act(group, players)
        assert actor is not None
        hand = hand_message(actor)
        assert hand is not None
        answer = await actor.press(hand, data=choose(hand, rng).callback_data)
        assert not answer.text
        await fake.wait_until(lambda: fake.count("editMessageText", group.id) > edits)
        stopping = asyncio.create_task(stack.aclose())  # the stop, the edit on its way
        await asyncio.wait([stopping], timeout=0.5)
        held.set()  # Telegram answers (it made the edit, whoever still waits)
        await stopping
    mark = fake.mark()
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await fake.settle(quiet=0.1)
    assert identical_edits(fake, mark) == []
    table = table_message(group)
    assert table is not None and table.edits > 0
