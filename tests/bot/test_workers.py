"""Several webhook workers: real ``python -m bot`` processes with
``BOT_WORKERS=N`` on one port, one Redis, one SQLite file (WAL); the fake Bot API delivers by
webhook over eight connections at once, so any worker gets any update. Many tables play at
once: no press is lost, no action is lost or doubled, every game finishes, each group's
budget holds across the workers — and a worker killed with ``kill -9`` mid-game loses
nothing: the others (and its restarted self) carry on."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import time
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr, ValidationError

from bot.__main__ import _problem
from bot.config import Settings
from engine.games import new_game
from engine.record import chance_of
from tests.bot.fleet import Presses, fleet, open_all, play_table, seat_tables
from tests.databases import TestDatabase, db_rows
from tests.fakeapi import FakeTelegram
from tests.fakeapi.users import SimGroup, SimUser

Seated = list[tuple[SimGroup, list[SimUser]]]
SCALE = 0.05  # the outbox's windows × this: a group's budget is 20 calls in 3 s
GROUP_WINDOW = 60 * SCALE
# Three bot processes, PostgreSQL or SQLite and Redis on two cores, beside another test worker
# (pytest-xdist): the games' time is what they need on a loaded machine, not a speed bound
PLAY_S = 180.0
FLEET_TIMEOUT_S = 600  # pytest-timeout, for these tests (the suite's default is 300 s)
GROUP_CALLS = ("sendmessage", "editmessagetext", "editmessagereplymarkup", "senddocument")


def actions_per_chat(db: TestDatabase) -> dict[int, int]:
    rows = db_rows(
        db,
        "SELECT t.chat_id, COUNT(*) FROM actions a JOIN tables t ON t.id = a.table_id "
        "GROUP BY t.chat_id",
    )
    return {int(chat): int(n) for chat, n in rows}


def replays(db: TestDatabase) -> int:
    """Every match's logged actions replay through the engine (none doubled or illegal), on
    the decks the workers drew and stored (cryptographic: the seed is no deck's)."""
    count = 0
    for table_id, game, options in db_rows(db, "SELECT id, game, options FROM tables"):
        ((n,),) = db_rows(db, "SELECT COUNT(*) FROM seats WHERE table_id = ?", table_id)
        matches = db_rows(
            db,
            "SELECT no, seed, first_seq, prev_dealer, drawn FROM matches WHERE table_id = ?"
            " ORDER BY no",
            table_id,
        )
        for _, seed, first_seq, prev_dealer, drawn in matches:
            later = db_rows(
                db,
                "SELECT drawn FROM actions WHERE table_id = ? AND seq >= ?"
                " AND drawn IS NOT NULL ORDER BY seq",
                table_id,
                first_seq,
            )
            lines = [ln for (text,) in [(drawn,), *later] for ln in json.loads(text)]
            chance = chance_of(lines)
            state = new_game(
                game, int(n), seed, json.loads(options), chance=chance, prev_dealer=prev_dealer
            )
            acts = db_rows(
                db,
                "SELECT seat, action FROM actions WHERE table_id = ? AND seq >= ? ORDER BY seq",
                table_id,
                first_seq,
            )
            for seat, action in acts:
                if state.to_act is None:
                    break  # the next match's actions
                state.apply(seat, action)
                count += 1
    return count


def worst_window(fake: FakeTelegram, chat_id: int) -> int:
    times = sorted(
        c.at for c in fake.requests if c.chat_id == chat_id and c.method.lower() in GROUP_CALLS
    )
    return max((sum(1 for t in times if s <= t < s + GROUP_WINDOW) for s in times), default=0)


async def play_all(
    fake: FakeTelegram, seated: Seated, presses: Presses, seconds: float, seed: int
) -> list[bool]:
    until = time.monotonic() + seconds
    return await asyncio.gather(
        *(
            play_table(fake, g, ps, random.Random(seed + i), presses, until=until)
            for i, (g, ps) in enumerate(seated)
        )
    )


@pytest.mark.timeout(FLEET_TIMEOUT_S)
async def test_three_workers_play_many_tables_at_once(
    fake_telegram: FakeTelegram, tmp_path: Path, redis_url: str, database: TestDatabase
) -> None:
    fake = fake_telegram
    seated = seat_tables(fake, 6)
    async with fleet(
        fake, tmp_path, redis_url, 3, BOT_OUTBOX_TIME_SCALE=str(SCALE), BOT_DATABASE=str(database)
    ) as running:
        assert len(running.pids()) == 3
        await open_all(fake, seated)
        presses = Presses()
        finished = await play_all(fake, seated, presses, PLAY_S, seed=11)
        await fake.settle(quiet=0.3, timeout=30)
        log = running.tail(200_000)
    assert all(finished), (finished, presses)
    assert presses.lost == 0 and presses.sent > 60
    assert fake.count("setWebhook") == 1  # worker 0 only, not three racing
    db = database
    logged = actions_per_chat(db)
    for group, _ in seated:  # every move a press made is in the log once
        assert logged.get(group.id) == presses.acts.get(group.id), (group.id, logged, presses.acts)
    assert replays(db) == sum(logged.values())
    for group, _ in seated:
        assert worst_window(fake, group.id) <= 20, group.id
    assert "Traceback" not in log, log[-4000:]


@pytest.mark.timeout(FLEET_TIMEOUT_S)
async def test_a_worker_killed_mid_game_loses_nothing(
    fake_telegram: FakeTelegram, tmp_path: Path, redis_url: str, database: TestDatabase
) -> None:
    fake = fake_telegram
    seated = seat_tables(fake, 4)
    async with fleet(fake, tmp_path, redis_url, 2, BOT_DATABASE=str(database)) as running:
        await open_all(fake, seated)
        presses = Presses()
        game = asyncio.create_task(play_all(fake, seated, presses, PLAY_S + 30, seed=5))
        await fake.wait_until(lambda: presses.accepted >= 20, timeout=60)
        victim = running.pids()[0]
        os.kill(victim, signal.SIGKILL)  # mid-game, mid-update perhaps
        finished = await game
        await fake.wait_until(lambda: len(running.pids()) == 2, timeout=30)  # restarted
        assert victim not in running.pids()
        await fake.settle(quiet=0.3, timeout=30)
        log = running.tail(200_000)
    assert all(finished), (finished, presses)
    assert presses.lost == 0
    db = database
    logged = actions_per_chat(db)
    assert replays(db) == sum(logged.values())  # nothing doubled: the log is a legal game
    # the durable outbox: every result the group was owed reached it (the restarted worker and
    # the living one both resumed what was owed: one of them sent each), and once — a second
    # copy only of a result whose send the kill cut short between its mark and its settle (logged)
    assert db_rows(db, "SELECT ref FROM owed WHERE state != 'settled'") == []
    cut = sum(
        1
        for line in log.splitlines()
        if "was being sent when the bot stopped" in line and ("deal:" in line or "result:" in line)
    )
    for group, _ in seated:
        posts = [
            str(c.params.get("text"))
            for c in fake.requests
            if c.method == "sendMessage"
            and c.chat_id == group.id
            and str(c.params.get("text", ""))[:1] in ("📋", "🏁")
        ]
        assert len(posts) - len(set(posts)) <= cut, posts


@pytest.mark.slow
async def test_four_workers_soak(
    fake_telegram: FakeTelegram, tmp_path: Path, redis_url: str, database: TestDatabase
) -> None:
    fake = fake_telegram
    seated = seat_tables(fake, 20)
    async with fleet(
        fake, tmp_path, redis_url, 4, BOT_OUTBOX_TIME_SCALE=str(SCALE), BOT_DATABASE=str(database)
    ) as running:
        await open_all(fake, seated, "target=10")
        presses = Presses()
        game = asyncio.create_task(play_all(fake, seated, presses, 600, seed=3))
        for _ in range(3):
            await asyncio.sleep(20)
            pids = running.pids()
            if pids:
                os.kill(random.choice(pids), signal.SIGKILL)
        finished = await game
    assert all(finished), (finished, presses)
    assert presses.lost == 0
    db = database
    assert replays(db) == sum(actions_per_chat(db).values())
    for group, _ in seated:
        assert worst_window(fake, group.id) <= 20, group.id


def test_several_workers_need_webhook_mode_and_redis() -> None:
    base: dict[str, Any] = {"token": SecretStr("123456:TEST-token"), "_env_file": None}
    hook: dict[str, Any] = {
        "webhook_url": "https://bot.example.org/tg",
        "webhook_secret": SecretStr("x" * 16),
    }
    with pytest.raises(ValidationError) as polling:
        Settings(**base, workers=2, redis_url="redis://127.0.0.1:6379/0")
    assert _problem(polling.value) == (
        "configuration error: BOT_WORKERS > 1 needs webhook mode (BOT_WEBHOOK_URL): two "
        "pollers of one token conflict (Telegram answers 409)"
    )
    with pytest.raises(ValidationError) as alone:
        Settings(**base, **hook, workers=2)
    assert "needs BOT_REDIS_URL" in _problem(alone.value)
    with pytest.raises(ValidationError):
        Settings(**base, **hook, workers=2, redis_url="http://127.0.0.1:6379")
    fine = Settings(**base, **hook, workers=4, redis_url="redis://127.0.0.1:6379/0")
    assert fine.workers == 4 and fine.worker_index is None
    assert Settings(**base).redis_url is None  # unset: one process, as before
