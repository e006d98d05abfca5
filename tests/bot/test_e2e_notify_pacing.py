"""/notify paced, through the fake Bot API: a new table's pings go a minute after it opens and
only if it still seats then — ten lobbies opened and cancelled within their minute, or one
started within it, ping nobody — and a subscriber is pinged about a group's tables at most once
per half an hour (two tables five minutes apart: one ping each; a third after the half hour:
one more). The times are the settings' (a one-second delay here) on a clock the test moves."""

from __future__ import annotations

import time

from bot.app import running_bot
from bot.config import Settings
from tests.bot.helpers import db_rows, fixed_seeds, lobby_message, open_table, watched
from tests.bot.test_e2e_groups import replies, three
from tests.databases import TestDatabase
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import SentMessage
from tests.fakeapi.users import SimGroup, SimUser

CYCLES = 10
DELAY_S = 1.0  # the test's "minute": the scheduler looks again at least this often


def paced(settings: Settings) -> Settings:
    return settings.model_copy(update={"notify_delay_s": DELAY_S, "notify_gap_s": 1800.0})


def pings(user: SimUser) -> list[SentMessage]:
    """The new-table pings in the user's private chat, in his language: their ✋ Join."""
    return [m for m in user.messages if any("start=j_" in (b.url or "") for b in m.all_buttons)]


def waiting_pings(database: TestDatabase) -> int:
    """The new tables whose pings are still to fall due."""
    rows = db_rows(database, "SELECT COUNT(*) FROM deadlines WHERE kind = 'notify'")
    return int(str(rows[0][0]))


async def subscribe(fake: FakeTelegram, group: SimGroup, users: list[SimUser]) -> None:
    for user in users:
        await user.start_bot()
    await fake.settle(quiet=0.05)

    def told() -> int:
        return len(replies(group, "🔔 Напишу в личку"))

    for user in users:
        before = told()
        await user.send(group, "/notify")
        await fake.wait_until(lambda: told() > before, timeout=10)  # noqa: B023 — awaited here


async def open_lobby(fake: FakeTelegram, group: SimGroup, opener: SimUser) -> None:
    await opener.send(group, "/newgame mushka")
    await fake.wait_until(lambda: lobby_message(group) is not None, timeout=10)


async def cancel_lobby(fake: FakeTelegram, group: SimGroup, opener: SimUser) -> None:
    lobby = lobby_message(group)
    assert lobby is not None
    assert not (await opener.press(lobby, "✖️")).text
    await fake.wait_until(lambda: "✖️ Да" in lobby.describe_buttons(), timeout=10)
    assert not (await opener.press(lobby, "✖️ Да")).text
    await fake.wait_until(lambda: lobby_message(group) is None, timeout=10)


async def test_ten_lobbies_cancelled_within_their_minute_and_one_started_ping_nobody(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    fake = fake_telegram
    (anna, boris, vera), group = three(fake)
    gleb, zoya = fake.add_user(104, "Gleb"), fake.add_user(105, "Zoya")
    group.state.members.update({gleb.id: "member", zoya.id: "member"})
    now = [time.time() + 1e7]  # the bot's wall clock: still until the test moves it
    async with watched(
        fake, running_bot(paced(settings), seeds=fixed_seeds(), clock=lambda: now[0])
    ):
        await subscribe(fake, group, [boris, vera])
        for _ in range(CYCLES):  # ✖️ → ✖️, again and again, the clock standing still
            await open_lobby(fake, group, anna)
            await cancel_lobby(fake, group, anna)
        await fake.settle(quiet=0.1)
        assert pings(boris) == [] and pings(vera) == []
        assert waiting_pings(database) == CYCLES
        now[0] += 2 * DELAY_S  # every lobby's minute is over: each was closed by then
        await fake.wait_until(lambda: waiting_pings(database) == 0, timeout=10)
        await fake.settle(quiet=0.1)
        assert pings(boris) == [] and pings(vera) == []

        await open_table(fake, group, [anna, gleb, zoya])  # started within its minute
        assert waiting_pings(database) == 1
        now[0] += 2 * DELAY_S
        await fake.wait_until(lambda: waiting_pings(database) == 0, timeout=10)
        await fake.settle(quiet=0.1)
        assert pings(boris) == [] and pings(vera) == []


async def test_two_tables_five_minutes_apart_ping_each_subscriber_once(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    fake = fake_telegram
    (anna, boris, vera), group = three(fake)
    now = [time.time() + 1e7]
    async with watched(
        fake, running_bot(paced(settings), seeds=fixed_seeds(), clock=lambda: now[0])
    ):
        await subscribe(fake, group, [boris, vera])
        await open_lobby(fake, group, anna)
        assert pings(boris) == [] and pings(vera) == []  # not at once: a minute later
        now[0] += 2 * DELAY_S
        await fake.wait_until(lambda: len(pings(boris)) == len(pings(vera)) == 1, timeout=10)
        await cancel_lobby(fake, group, anna)

        now[0] += 300.0  # five minutes on, another table
        await open_lobby(fake, group, anna)
        now[0] += 2 * DELAY_S
        await fake.wait_until(lambda: waiting_pings(database) == 0, timeout=10)
        await fake.settle(quiet=0.1)
        assert len(pings(boris)) == len(pings(vera)) == 1
        await cancel_lobby(fake, group, anna)

        now[0] += 1800.0  # the half hour is over: the next table pings them again
        await open_lobby(fake, group, anna)
        now[0] += 2 * DELAY_S
        await fake.wait_until(lambda: len(pings(boris)) == len(pings(vera)) == 2, timeout=10)
        await fake.settle(quiet=0.1)
        assert pings(anna) == []  # the opener is never pinged about his own table
