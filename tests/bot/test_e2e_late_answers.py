"""A press answered too late: Telegram hands the bot a press made while it was down
(after a restart, a kill -9), or one that waited its turn too long, and refuses its answer with
400 «query is too old». That is expected: one warning line, no error and no traceback, and what
the press did stands — a card played, a refusal's fresh hand shown."""

from __future__ import annotations

import logging
import random

import pytest

from bot.app import running_bot
from bot.config import Settings
from tests.bot.helpers import (
    _key,
    choose,
    fixed_seeds,
    hand_message,
    moved_on,
    open_table,
    shown_move,
    to_act,
    watched,
)
from tests.fakeapi import FakeTelegram
from tests.fakeapi.methods import QUERY_TOO_OLD
from tests.fakeapi.users import SimGroup, SimUser


def three(fake: FakeTelegram) -> tuple[list[SimUser], SimGroup]:
    players = [
        fake.add_user(101 + i, name, language_code="ru")
        for i, name in enumerate(("Anna", "Boris", "Vera"))
    ]
    return players, fake.add_group(-1001, "Пятница", admins=[101], members=[102, 103])


def too_old(fake: FakeTelegram, query_id: str) -> bool:
    return any(
        c.params.get("callback_query_id") == query_id and c.description == QUERY_TOO_OLD
        for c in fake.calls("answerCallbackQuery")
    )


def quiet_about_it(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The bot's lines about late answers; and no error, no traceback anywhere."""
    assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert not [r.getMessage() for r in caplog.records if r.exc_info]
    return [
        r.getMessage()
        for r in caplog.records
        if r.levelno == logging.WARNING and "answered too late" in r.getMessage()
    ]


async def test_a_press_redelivered_after_a_restart_too_late_to_answer_still_counts(
    fake_telegram: FakeTelegram, settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    fake = fake_telegram
    players, group = three(fake)
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await open_table(fake, group, players, options="target=25")
    # the bot is down: the one to act plays a card; Telegram keeps the press for it
    actor = to_act(group, players)
    assert actor is not None
    hand = hand_message(actor)
    assert hand is not None
    button = choose(hand, random.Random(3))
    before, move = _key(hand), shown_move(players)
    fake.query_life_s = 0.0  # answered once the bot is back: too late
    query = actor.press_nowait(hand, data=button.callback_data or "")
    caplog.set_level(logging.INFO)
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await fake.wait_until(lambda: too_old(fake, query), timeout=10)
        await fake.wait_until(lambda: moved_on(actor, before, move, players, group), timeout=10)
        await fake.settle(quiet=0.1)
    [line] = quiet_about_it(caplog)
    assert f"callback query {query} answered too late" in line, line
    updates = [r.getMessage() for r in caplog.records if r.name == "bot.updates"]
    assert [u for u in updates if "kind=callback_query" in u and "outcome=ok" in u], updates


async def test_a_stale_press_whose_refusal_comes_too_late_is_only_a_warning(
    fake_telegram: FakeTelegram, settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    """A press on an old hand is refused (its toast and the current hand): the toast comes too
    late, and that is a warning, not an error."""
    fake = fake_telegram
    players, group = three(fake)
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await open_table(fake, group, players, options="target=25")
        actor = to_act(group, players)
        assert actor is not None
        hand = hand_message(actor)
        assert hand is not None
        button = choose(hand, random.Random(3))
        old = button.callback_data or ""
        await actor.press(hand, data=old)  # played: the button is stale now
        await fake.settle(quiet=0.1)
        caplog.set_level(logging.INFO)
        fake.query_life_s = 0.0
        query = actor.press_nowait(hand, data=old)
        await fake.wait_until(lambda: too_old(fake, query), timeout=10)
        await fake.settle(quiet=0.1)
    [line] = quiet_about_it(caplog)
    assert f"callback query {query} answered too late" in line, line
    updates = [r.getMessage() for r in caplog.records if r.name == "bot.updates"]
    assert [u for u in updates if "kind=callback_query" in u and "outcome=refused" in u], updates
