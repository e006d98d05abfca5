"""Commands must not freeze a running table with several workers: two webhook workers,
one Redis, at Telegram's own pace. One member's 40 commands land on either worker; the group's
window, its answers' half of it and his quota are the workers' together, so the table's next
move still shows within 5 seconds and the group gets no more than his quota of answers."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot.fleet import fleet, open_all, seat_tables
from tests.bot.helpers import hand_message, table_message
from tests.bot.test_e2e_answers import (
    BOUND,
    COMMANDS,
    SPAM,
    VISIBLE_S,
    group_posts,
    next_move_shown,
)
from tests.databases import TestDatabase
from tests.fakeapi import FakeTelegram

FLEET_TIMEOUT_S = 600  # pytest-timeout: two bot processes start on two shared cores


@pytest.mark.timeout(FLEET_TIMEOUT_S)
async def test_forty_commands_leave_the_tables_next_move_visible_across_workers(
    fake_telegram: FakeTelegram, tmp_path: Path, redis_url: str, database: TestDatabase
) -> None:
    fake = fake_telegram
    seated = seat_tables(fake, 1)
    group, players = seated[0]
    mallory = fake.add_user(300_001, "Mallory", language_code="ru")
    group.add_member(mallory)
    fake.rate_limit(per_chat=20, window=60.0, groups_only=True)  # Telegram's, in a group
    async with fleet(
        fake, tmp_path, redis_url, 2, BOT_OUTBOX_TIME_SCALE="1", BOT_DATABASE=str(database)
    ) as running:
        assert len(running.pids()) == 2
        await open_all(fake, seated, options="target=15")
        await fake.wait_until(
            lambda: (
                table_message(group) is not None
                and all(hand_message(p) is not None for p in players)
            ),
            timeout=60,
        )
        await fake.settle(quiet=0.3, timeout=60)
        table = table_message(group)
        assert table is not None
        mark = fake.mark()
        for i in range(COMMANDS):
            await mallory.send(group, SPAM[i % len(SPAM)])
        await fake.settle(quiet=0.5, timeout=60)  # every command handled, on either worker
        waited = await next_move_shown(fake, group, players, table, database)
        await fake.settle(quiet=0.5, timeout=60)
        log = running.tail(200_000)
    posts = group_posts(fake, group, mark)
    from_commands = [c for c in posts if c.params.get("message_id") != table.message_id]
    assert waited < VISIBLE_S
    assert 1 <= len(from_commands) <= BOUND, [c.params.get("text") for c in from_commands]
    assert [c for c in fake.requests[mark:] if c.error_code == 429] == []
    assert "Traceback" not in log, log[-4000:]
