"""The outbox under Telegram's group limit: edits counted, players pressing as fast
as the bot answers, not one 429 for the group — and every final screen right.

Telegram's time is scaled down (``outbox_time_scale``): 20 sends+edits per 60 s become 20 per
``60 × SCALE`` s, the 3 s edit gap ``3 × SCALE`` s; the fake enforces the same scaled window."""

from __future__ import annotations

import random

from bot.app import running_bot
from bot.callbacks import b36
from bot.config import Settings
from bot.runtime.outcome import hand_key
from tests.bot.helpers import (
    choose,
    expected_screens,
    fixed_seeds,
    hand_message,
    open_table,
    play_until_end,
    result_message,
    table_message,
    watched,
)
from tests.bot.test_e2e_limits import three
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import SentMessage

SCALE = 0.05  # a 3 s window for the 20 group calls, an edit gap of 0.15 s
GROUP_CALLS = ("sendmessage", "editmessagetext", "editmessagereplymarkup")


def scaled(settings: Settings, **more: object) -> Settings:
    return settings.model_copy(update={"outbox_time_scale": SCALE, **more})


def drawn_at(offers: frozenset[str] | None) -> set[str]:
    """The move counters hand buttons were drawn at."""
    return {d.split(":")[3] for d in offers or () if d.startswith("h:")}


def offers_of(message: SentMessage | None) -> frozenset[str]:
    """The callback data a message's buttons carry."""
    datas = [b.callback_data for b in message.all_buttons] if message else []
    return frozenset(d for d in datas if d)


def peak(times: list[float], window: float) -> int:
    """The most calls within any ``window`` seconds."""
    best, start = 0, 0
    for end, at in enumerate(times):
        while at - times[start] >= window:
            start += 1
        best = max(best, end - start + 1)
    return best


async def test_13_a_whole_pulka_at_machine_speed_gets_no_429_in_the_group(
    fake_telegram: FakeTelegram, settings: Settings
) -> None:
    fake = fake_telegram
    group, players = await three(fake)
    window = 60 * SCALE
    fake.rate_limit(per_chat=20, window=window, groups_only=True)
    async with watched(fake, running_bot(scaled(settings), seeds=fixed_seeds())) as bot:
        mark = fake.mark()
        await open_table(fake, group, players, options="target=5")
        presses = await play_until_end(fake, group, players, random.Random(3))
        await fake.settle(quiet=0.1)
        calls = [c for c in fake.requests[mark:] if c.chat_id == group.id]
        counted = [c for c in calls if c.method.lower() in GROUP_CALLS]
        assert [c for c in calls if not c.ok and c.error_code == 429] == []
        assert peak([c.at for c in counted], window) <= 20
        edits = [c for c in counted if c.method.lower() == "editmessagetext"]
        assert len(edits) < presses, "edits were not coalesced: the test proves nothing"
        deal_results = [m for m in group.messages if m.text.startswith("📋")]
        assert len(deal_results) >= 2  # several deals, each result delivered
        result = result_message(group)
        assert result is not None and "🏁" in result.text
        # the order of the group: every deal result after its table, the match result last
        order = [m.message_id for m in group.messages]
        assert order == sorted(order) and group.messages[-1] is result
        runtime = bot.services.runtime
        table_id = await runtime.queries.open_table_id(group.id)
        assert table_id is not None
        table = await runtime.ctx.load(table_id)
        assert table is not None and table.row.status == "ended"
        net = table.match.state.result.net if table.match and table.match.state.result else None
        assert net is not None and sum(net) == 0
        for name, value in zip([p.first_name for p in players], net, strict=True):
            shown = f"{name} {'+' if value > 0 else '−' if value < 0 else ''}{abs(value)}"
            assert shown in result.text, (shown, result.text)


async def test_13_a_restart_with_edits_still_queued_brings_every_screen_up_to_date(
    fake_telegram: FakeTelegram, settings: Settings
) -> None:
    fake = fake_telegram
    group, players = await three(fake)
    slow = scaled(settings, drain_s=0, outbox_time_scale=1.0)  # Telegram's own pace
    async with watched(fake, running_bot(scaled(settings), seeds=fixed_seeds())):
        await open_table(fake, group, players, options="target=15")
    async with running_bot(slow, seeds=fixed_seeds()) as bot:
        await fake.settle(quiet=0.1)
        rng = random.Random(4)
        runtime = bot.services.runtime
        table_id = await runtime.queries.open_table_id(group.id)
        assert table_id is not None
        for _ in range(12):  # until a table edit waits for the group's 3 s gap at the stop
            live = await runtime.ctx.load(table_id)
            assert live is not None and live.match is not None
            seat, moves = live.match.state.to_act, b36(live.row.moves)
            assert seat is not None
            user = next(p for p in players if p.id == live.seats[seat].user_id)
            key = hand_key(table_id, seat)
            box = bot.services.outbox
            # the press answer comes before its screens are queued: wait for this move's hand
            await fake.wait_until(lambda: drawn_at(box.offers(user.id, key)) == {moves}, timeout=10)  # noqa: B023
            wanted = box.offers(user.id, key)
            # the private chat's pace (one a second): wait until his hand shows what it should
            await fake.wait_until(lambda: offers_of(hand_message(user)) == wanted, timeout=20)  # noqa: B023
            message = hand_message(user)
            assert message is not None
            answer = await user.press(message, data=choose(message, rng).callback_data)
            assert not answer.text, answer.text
            # its screens are queued (his hand waits for a new table or result of the group)
            await fake.wait_until(lambda: box.offers(user.id, key) != wanted, timeout=10)  # noqa: B023
            if box.pending(group.id) > 0:
                break
        assert bot.services.outbox.pending(group.id) > 0, "nothing was queued at the stop"
    stale = table_message(group)
    async with watched(fake, running_bot(scaled(settings), seeds=fixed_seeds())) as bot:
        await fake.settle(quiet=0.2)
        table_html, hands = await expected_screens(bot, group.id)
        table = table_message(group)
        assert table is not None and table is stale and table.html == table_html
        for user in players:
            hand = hand_message(user)
            assert hand is not None and (hand.message_id, hand.html) == hands[user.id]
