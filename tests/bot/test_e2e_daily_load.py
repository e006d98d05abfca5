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
from pathlib import Path

import pytest

from bot.app import running_bot
from bot.config import Settings
from tests.bot.fleet import fleet
from tests.bot.helpers import act_of, fixed_seeds, hand_message, watched
from tests.bot.test_e2e_daily import (
    CHOOSERS,
    DAY,
    keep_all,
    log_of,
    moved,
    results,
    shown_of,
    tries,
)
from tests.databases import TestDatabase, db_rows
from tests.fakeapi import FakeTelegram
from tests.fakeapi.users import SimUser

SAMPLE = 8  # people in the suite's run
FLEET_TIMEOUT_S = 900  # three bot processes beside the others' load
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
        button = keep_all(hand, CHOOSERS["mushka"](hand, random.Random(f"{seed}:{moves}")))
        answer = await user.press(hand, data=button.callback_data)
        lagged = answer.text and answer.text.startswith(LAGGED)
        assert not answer.text or lagged, f"{user.first_name}: {answer.text}"
        moves += not answer.text
        await fake.wait_until(partial(moved, user, 0, shown), timeout=patience, interval=POLL)
    raise AssertionError(f"{user.first_name}: his try did not end")


def people_of(fake: FakeTelegram, n: int) -> tuple[list[SimUser], dict[int, str]]:
    """``n`` people, and the move sequence (its seed) each plays."""
    people = [fake.add_user(1000 + k, f"P{k}", language_code="ru") for k in range(n)]
    return people, {p.id: f"way{k % WAYS}" for k, p in enumerate(people)}


async def crowd(fake: FakeTelegram, settings: Settings, database: TestDatabase, n: int) -> None:
    """``n`` people at once, one bot process on the injected clock."""
    people, seeds = people_of(fake, n)
    now = [DAY]
    async with watched(fake, running_bot(settings, seeds=fixed_seeds(), clock=lambda: now[0])):
        await asyncio.gather(*(play(fake, p, seeds[p.id], 60.0 + n * 0.5) for p in people))
    counted_once(database, people, seeds)


def counted_once(database: TestDatabase, people: list[SimUser], seeds: dict[int, str]) -> None:
    """Every person's try finished and stored once, of the one day's deal; the same moves
    logged the same (every shuffle, take and computer's answer); each told once, placed among
    the tries finished by then — the last to finish among all of them."""
    n = len(people)
    rows = tries(database)
    assert len(rows) == n and all(score is not None for *_, score in rows)
    assert db_rows(database, "SELECT COUNT(*) FROM daily_deals") == [(1,)]
    by_way: dict[str, set[str]] = {}
    for _, _, user_id, table, _ in rows:
        by_way.setdefault(seeds[user_id], set()).add(repr(log_of(database, table)))
    assert all(len(logs) == 1 for logs in by_way.values()), {w: len(v) for w, v in by_way.items()}
    firsts = {repr(log_of(database, table)[:1]) for *_, table, _ in rows}
    assert len(firsts) <= WAYS  # the same deck dealt to all, each way's first move after it
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


@pytest.mark.slow
@pytest.mark.timeout(FLEET_TIMEOUT_S)
async def test_people_at_once_across_three_workers_meet_the_same_deal_and_are_counted_once(
    fake_telegram: FakeTelegram, tmp_path: Path, redis_url: str, database: TestDatabase
) -> None:
    """Three ``python -m bot`` workers (one Redis, the suite's database), the wall clock: the
    day's secret is drawn once whichever worker asks first, and every try counted once."""
    fake = fake_telegram
    n = int(os.environ.get("BOT_DAILY_PEOPLE_FLEET", "30"))
    people, seeds = people_of(fake, n)
    async with fleet(fake, tmp_path, redis_url, 3, BOT_DATABASE=str(database)):
        await asyncio.gather(*(play(fake, p, seeds[p.id], 120.0 + n) for p in people))
    counted_once(database, people, seeds)
