"""The day's deal played by many people at once through the fake Bot API, on one process: each
meets the same cards and the same computers' answers for the same moves, and the day's board
counts every finished try exactly once. The suite runs a sample (:data:`SAMPLE` people); the
``slow`` one runs ``BOT_DAILY_PEOPLE`` (1,000 by default) — ``python -m pytest -n 0 -m slow
tests/bot/test_e2e_daily_load.py``."""

from __future__ import annotations

import asyncio
import os
import random
from functools import partial

import pytest

from bot.app import running_bot
from bot.config import Settings
from tests.bot.helpers import act_of, fixed_seeds, hand_message, watched
from tests.bot.test_e2e_daily import CHOOSERS, DAY, log_of, moved, results, shown_of, tries
from tests.databases import TestDatabase, db_rows
from tests.fakeapi import FakeTelegram
from tests.fakeapi.users import SimUser

SAMPLE = 8  # people in the suite's run
WAYS = 3  # the people play one of this many move sequences (their seeds), so some meet
POLL = 0.05  # how often a player looks at his chat (many players: not every 5 ms)
WAITING = ("Ждём", "Waiting")
LAGGED = ("Эта кнопка устарела", "Сейчас ходит")  # a hand pressed before it was redrawn
UNPLAYABLE = ("", "u", "M")  # no button, ↻ Обновить, ⋯: no move of his to press


def ready(user: SimUser) -> bool:
    """His try is over, or his hand waits for his press."""
    hand = hand_message(user)
    return bool(results(user)) or (
        hand is not None
        and not any(w in hand.text for w in WAITING)
        and any(act_of(b)[0] not in UNPLAYABLE for b in hand.all_buttons)
    )


async def play(fake: FakeTelegram, user: SimUser, seed: str, patience: float) -> None:
    """/daily mushka, then his hand until his try's result shows (no waiting for the whole
    fake to fall quiet: the others keep it busy). His n-th move is chosen by ``seed`` and n
    alone, so a press on a hand not yet redrawn (refused as stale, the hand shown again) is
    chosen again the same way."""
    await user.start_bot()
    await user.send_private("/daily mushka")
    moves = 0
    for _ in range(400):
        await fake.wait_until(partial(ready, user), timeout=patience, interval=POLL)
        if results(user):
            return
        hand = hand_message(user)
        assert hand is not None
        shown = shown_of(hand)
        button = CHOOSERS["mushka"](hand, random.Random(f"{seed}:{moves}"))
        answer = await user.press(hand, data=button.callback_data)
        lagged = answer.text and answer.text.startswith(LAGGED)
        assert not answer.text or lagged, f"{user.first_name}: {answer.text}"
        moves += not answer.text
        await fake.wait_until(partial(moved, user, 0, shown), timeout=patience, interval=POLL)
    raise AssertionError(f"{user.first_name}: his try did not end")


async def crowd(fake: FakeTelegram, settings: Settings, database: TestDatabase, n: int) -> None:
    people = [fake.add_user(1000 + k, f"P{k}", language_code="ru") for k in range(n)]
    seeds = {p.id: f"way{k % WAYS}" for k, p in enumerate(people)}
    now = [DAY]
    patience = 60.0 + n * 0.5
    async with watched(fake, running_bot(settings, seeds=fixed_seeds(), clock=lambda: now[0])):
        await asyncio.gather(*(play(fake, p, seeds[p.id], patience) for p in people))
    rows = tries(database)
    assert len(rows) == n and all(score is not None for *_, score in rows)
    assert db_rows(database, "SELECT COUNT(*) FROM daily_deals") == [(1,)]
    # the same moves, the same log: every shuffle, every computer's answer
    by_way: dict[str, set[str]] = {}
    for _, _, user_id, table, _ in rows:
        by_way.setdefault(seeds[user_id], set()).add(repr(log_of(database, table)))
    assert all(len(logs) == 1 for logs in by_way.values()), {w: len(v) for w, v in by_way.items()}
    # the people dealt the same cards: every log opens with the same deck
    firsts = {repr(log_of(database, table)[:1]) for *_, table, _ in rows}
    assert len(firsts) <= WAYS
    # each finished try counted once, and each person told once: the places were among the
    # tries finished by then, never more than there are; the last to finish, among all of them
    counted = []
    for person in people:
        (told,) = (m.text for m in results(person))
        counted.append(int(told.split(" из ")[1].split()[0]) if " из " in told else 1)
    assert max(counted) == n and min(counted) >= 1, counted


async def test_several_people_at_once_meet_the_same_deal_and_are_each_counted_once(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    await crowd(fake_telegram, settings, database, SAMPLE)


@pytest.mark.slow
async def test_many_people_at_once_meet_the_same_deal_and_are_each_counted_once(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    await crowd(fake_telegram, settings, database, int(os.environ.get("BOT_DAILY_PEOPLE", "1000")))
