"""Toggles across workers: a player's own toggles (🤖 / 🙋) are limited by what the database
holds, not by one worker's memory — two webhook workers, one Redis, one SQLite file; his presses
land on either worker, and still only the first toggle in the gap counts and the group gets no
message from any of them."""

from __future__ import annotations

from pathlib import Path

from tests.bot.fleet import fleet, open_all, seat_tables
from tests.bot.helpers import hand_message
from tests.bot.test_e2e_seats import group_sends, toggle
from tests.databases import TestDatabase, db_rows
from tests.fakeapi import FakeTelegram

SCALE = 0.05


async def test_toggles_are_limited_across_workers(
    fake_telegram: FakeTelegram, tmp_path: Path, redis_url: str, database: TestDatabase
) -> None:
    fake = fake_telegram
    seated = seat_tables(fake, 1)
    group, players = seated[0]
    async with fleet(
        fake, tmp_path, redis_url, 2, BOT_OUTBOX_TIME_SCALE=str(SCALE), BOT_DATABASE=str(database)
    ) as running:
        assert len(running.pids()) == 2
        await open_all(fake, seated, options="target=25")
        vera = players[2]
        await fake.wait_until(lambda: hand_message(vera) is not None, timeout=30)
        await fake.settle(quiet=0.3, timeout=30)
        mark = fake.mark()
        answers = []
        for _ in range(6):
            answers.append(await toggle(fake, vera))
            await fake.settle(quiet=0.1, timeout=30)
        log = running.tail(200_000)
    assert answers[0] in (None, ""), answers
    again = "Переключиться снова можно через"
    assert all((a or "").startswith(again) for a in answers[1:]), answers
    away = db_rows(database, "SELECT away, barred FROM seats WHERE user_id = ?", vera.id)
    assert [(int(str(a)), str(b)) for a, b in away] == [(1, "")]
    assert group_sends(fake, group, mark) == 0
    assert "Traceback" not in log, log[-4000:]
