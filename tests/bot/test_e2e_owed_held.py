"""What a group is owed reaches it while the bot runs: a deal's result whose send
fails past the Bot API's patience (here Telegram's 500s, which the session does not retry; six
429s in a row: ``test_outbox_faults.py``) is held and sent again with back-off — no restart
needed — and the deals' results reach the group in the order the deals ended, while the table
goes on. (A stop or a kill: ``test_e2e_owed.py``.)"""

from __future__ import annotations

import logging
import random
import re

import pytest

from bot.app import running_bot
from bot.config import Settings
from bot.storage.protocol import Store
from tests.bot.helpers import (
    WAITING,
    _key,
    choose,
    fixed_seeds,
    hand_message,
    moved_on,
    open_table,
    shown_move,
    table_message,
    watched,
)
from tests.bot.test_e2e_owed import DEAL_RESULT, seated, settled_book
from tests.fakeapi import FakeTelegram
from tests.fakeapi.users import SimGroup, SimUser

DEAL_NO = re.compile(r"^📋 \S+ (\d+)")


def paced(settings: Settings) -> Settings:
    """Telegram's windows at a hundredth: a held result is tried again within 0.6 s."""
    return settings.model_copy(update={"outbox_time_scale": 0.01})


def results(group: SimGroup) -> list[int]:
    """The deals whose results the group shows, in the order they came."""
    return [
        int(found.group(1))
        for m in group.visible
        if (found := DEAL_NO.match(m.text)) is not None and m.text.startswith(DEAL_RESULT)
    ]


async def step(fake: FakeTelegram, players: list[SimUser], rng: random.Random) -> None:
    """One legal press by whoever his hand says is to act, and its hands shown (not the whole
    bot quiet: a held result is tried again all the while)."""
    for user in players:
        hand = hand_message(user)
        if hand is None or any(w in hand.text for w in WAITING):
            continue
        before, move = _key(hand), shown_move(players)
        answer = await user.press(hand, data=choose(hand, rng).callback_data)
        assert not answer.text, answer.text
        await fake.wait_until(lambda: moved_on(user, before, move, players), timeout=10)  # noqa: B023
        return
    raise AssertionError("nobody's hand is to act")


async def test_a_deal_result_telegram_refused_comes_while_the_bot_runs_before_later_ones(
    fake_telegram: FakeTelegram,
    settings: Settings,
    store: Store,
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake = fake_telegram
    group, players = seated(fake)
    outage = [True]  # every deal's result refused until the test says otherwise
    fake.fail_next(
        "sendMessage",
        500,
        "Internal Server Error",
        chat_id=group.id,
        times=1_000_000,
        when=lambda params: outage[0] and str(params.get("text", "")).startswith(DEAL_RESULT),
    )
    caplog.set_level(logging.WARNING, logger="bot.sending.outbox")
    rng = random.Random(47)
    async with watched(fake, running_bot(paced(settings), seeds=fixed_seeds())):
        await open_table(fake, group, players, options="target=10")
        for _ in range(300):  # two deals end while their results can't go
            await step(fake, players, rng)
            table = table_message(group)
            if table is not None and ("сдача 3" in table.text or "deal 3" in table.text):
                break
        owed = await store.owed()
        assert [r.ref.ref[:5] for r in owed] == ["deal:", "deal:"], owed
        assert results(group) == []  # nothing came, but the table went on into deal 3
        tries = fake.count("sendMessage", group.id, ok=False)
        await fake.wait_until(  # the first is tried again and again (not the second: behind)
            lambda: fake.count("sendMessage", group.id, ok=False) >= tries + 2, timeout=10
        )
        outage[0] = False  # Telegram takes them again
        await fake.wait_until(lambda: len(results(group)) == 2, timeout=10)
        assert results(group) == [1, 2]  # in order, each once
        assert await settled_book(store) == []
        for _ in range(3):  # the game goes on
            await step(fake, players, rng)
        await fake.settle(quiet=0.05)
    assert results(group) == [1, 2]
    said = [r.getMessage() for r in caplog.records]
    assert len([s for s in said if "can't be sent now" in s]) == 1, said  # once per outage
    assert len([s for s in said if "goes out again" in s]) == 1, said
