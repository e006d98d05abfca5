"""Games that last a day through the fake Bot API: a table with 12-hour turns (``/newgame …
turn=12h``) that survives restarts with its deadlines intact, its reminder when a third of the
time is left sent once, the computer's move when the time runs out; a person's quiet hours
(23:00–08:00 in his language's time zone, Moscow for ru) holding a reminder until the morning,
a turn that runs out at night played without a ping, and quiet hours turned off in /settings.

The bot's wall clock is a day in June 2027 that runs in real time, moved on by the test: the
scheduler looks at it often (``BOT_SCHEDULER_LOOK_S``), as it would after a clock set forward.
"""

from __future__ import annotations

import json
import re
import time
from datetime import UTC, datetime
from functools import partial

from bot.app import running_bot
from bot.config import Settings
from tests.bot.helpers import (
    db_rows,
    fixed_seeds,
    lobby_message,
    open_table,
    say,
    table_message,
    to_act,
    watched,
)
from tests.databases import TestDatabase
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import SentMessage
from tests.fakeapi.users import SimGroup, SimUser

HOUR = 3600.0
NAMES = ["Anna", "Boris", "Vera"]
PING = "🔔 Ваш ход"
TIME_UP = "Время вышло"


class Clock:
    """The bot's wall clock: ``at`` (UTC) when made, running in real time, moved on by
    :meth:`to`."""

    def __init__(self, at: datetime) -> None:
        self.at = at.timestamp()
        self.start = time.time()

    def __call__(self) -> float:
        return self.at + time.time() - self.start

    def to(self, when: float) -> None:
        """Set forward to just after ``when``."""
        self.at += when + 1.0 - self()


def daylong(settings: Settings) -> Settings:
    return settings.model_copy(update={"scheduler_look_s": 0.1})


def three(fake: FakeTelegram) -> tuple[list[SimUser], SimGroup]:
    players = [fake.add_user(101 + i, n, language_code="ru") for i, n in enumerate(NAMES)]
    group = fake.add_group(-1001, "Пятница", admins=[101], members=[102, 103])
    return players, group


def due(database: TestDatabase, kind: str) -> float | None:
    rows = db_rows(database, "SELECT due_at FROM deadlines WHERE kind = ?", kind)
    return float(str(rows[0][0])) if rows else None


def said(user: SimUser, text: str) -> list[SentMessage]:
    """The bot's messages to the user (deleted ones too) that say ``text``."""
    return [m for m in user.messages if text in m.text]


def shows(message: SentMessage, button: str) -> bool:
    return button in message.describe_buttons()


def reminded_timer(group: SimGroup) -> str | None:
    """The table's «⏳ 1:59:45 — напомнили»: the time it shows (None: no reminded timer)."""
    table = table_message(group)
    found = re.search(r"⏳ ([\d:]+) — напомнили", table.text) if table is not None else None
    return found[1] if found else None


def mentions(group: SimGroup) -> list[str]:
    return [m.text for m in group.visible if "ваш ход (" in m.text]


def expiries(database: TestDatabase, user: SimUser) -> int:
    rows = db_rows(database, "SELECT expiries FROM seats WHERE user_id = ?", user.id)
    return int(str(rows[0][0]))


async def test_a_12_hour_turn_resumes_after_restarts_with_its_deadlines_and_reminds_once(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    fake = fake_telegram
    players, group = three(fake)
    clock = Clock(datetime(2027, 6, 1, 6, 0, tzinfo=UTC))  # 09:00 in Moscow: no quiet hours
    bot = daylong(settings)
    async with watched(fake, running_bot(bot, seeds=fixed_seeds(), clock=clock)):
        await open_table(fake, group, players, options="target=25 turn=12h")
        absent = to_act(group, players)
        assert absent is not None
        assert db_rows(database, "SELECT turn_timeout_s FROM tables")[0][0] == 12 * HOUR
        table = table_message(group)
        assert table is not None
        assert "⏳ 12:00:00" in table.text, table.text
        remind = due(database, "remind")
        assert remind is not None and abs(remind - (clock() + 8 * HOUR)) < 30
        idle = due(database, "idle")  # a day-long table waits days for a move, not half an hour
        assert idle is not None and idle > clock() + 36 * HOUR - 30

    async with watched(fake, running_bot(bot, seeds=fixed_seeds(), clock=clock)):
        await fake.settle(quiet=0.3)
        after = due(database, "remind")
        assert after is not None and abs(after - remind) < 5  # intact, but the restart's seconds
        assert said(absent, "Осталось") == [] and mentions(group) == []
        clock.to(after)  # two thirds of the turn have passed: a third is left
        await fake.wait_until(lambda: bool(mentions(group) and said(absent, "Осталось")), 10)
        assert said(absent, "⏳ Осталось 4 ч — ваш ход в «Пятница»")
        assert absent.first_name in mentions(group)[0] and "(осталось 4 ч)" in mentions(group)[0]
        expiry = due(database, "turn")
        assert expiry is not None and abs(expiry - (after + 4 * HOUR)) < 2

    async with watched(fake, running_bot(bot, seeds=fixed_seeds(), clock=clock)):
        await fake.settle(quiet=0.3)
        assert len(said(absent, "Осталось")) == 1 and len(mentions(group)) == 1  # sent once
        resumed = due(database, "turn")
        assert resumed is not None and abs(resumed - expiry) < 5
        assert said(absent, TIME_UP) == []
        clock.to(resumed)  # the time has run out: the computer moves for him, once
        await fake.wait_until(lambda: bool(said(absent, TIME_UP)), timeout=10)
        await fake.settle(quiet=0.1)
        assert expiries(database, absent) == 1 and to_act(group, players) is not absent
        assert mentions(group) == [] and len(said(absent, TIME_UP)) == 1


async def test_quiet_hours_hold_a_reminder_until_the_morning_and_send_it_once(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    fake = fake_telegram
    players, group = three(fake)
    clock = Clock(datetime(2027, 6, 1, 7, 0, tzinfo=UTC))  # 10:00 in Moscow, a 24-hour turn
    morning = datetime(2027, 6, 2, 5, 0, tzinfo=UTC).timestamp()  # 08:00 in Moscow
    bot = daylong(settings)
    async with watched(fake, running_bot(bot, seeds=fixed_seeds(), clock=clock)):
        await open_table(fake, group, players, options="target=25 turn=24h")
        absent = to_act(group, players)
        assert absent is not None
        remind = due(database, "remind")
        assert remind is not None
        clock.to(remind)  # 02:00 in Moscow: his reminder waits for the morning
        await fake.wait_until(lambda: due(database, "quiet") is not None, timeout=10)
        assert due(database, "quiet") == morning
        await fake.settle(quiet=0.3)
        assert said(absent, "Осталось") == [] and mentions(group) == []
        expiry = due(database, "turn")  # the turn's end itself does not move
        assert expiry is not None and abs(expiry - (remind + 8 * HOUR)) < 2

    async with watched(fake, running_bot(bot, seeds=fixed_seeds(), clock=clock)):
        await fake.settle(quiet=0.3)  # a restart at night: still held
        assert said(absent, "Осталось") == [] and mentions(group) == []
        table = table_message(group)  # drawn again: not "reminded" while the reminder waits
        assert table is not None and "⏳" in table.text
        assert "напомнили" not in table.text, table.text
        held = due(database, "quiet")
        assert held is not None and abs(held - morning) < 5
        clock.to(held)
        await fake.wait_until(lambda: bool(mentions(group) and said(absent, "Осталось")), 10)
        assert said(absent, "⏳ Осталось 2 ч — ваш ход в «Пятница»")
        assert "(осталось 2 ч)" in mentions(group)[0]
        assert due(database, "quiet") is None

    async with watched(fake, running_bot(bot, seeds=fixed_seeds(), clock=clock)):
        await fake.settle(quiet=0.3)
        assert len(said(absent, "Осталось")) == 1 and len(mentions(group)) == 1  # once
        # shown again in place after the restart, saying what it said
        assert said(absent, "Осталось")[0].text.startswith("⏳ Осталось 2 ч")
        assert "(осталось 2 ч)" in mentions(group)[0]
        # the table (drawn again) counts to the turn's end, unmoved by the held reminder
        await fake.wait_until(lambda: reminded_timer(group) is not None, timeout=10)
        assert reminded_timer(group) in ("2:00:00", "1:59:45", "1:59:30"), reminded_timer(group)


async def test_a_turn_that_runs_out_at_night_is_played_without_a_ping(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    fake = fake_telegram
    players, group = three(fake)
    clock = Clock(datetime(2027, 6, 1, 23, 0, tzinfo=UTC))  # 02:00 in Moscow, 1-hour turns
    async with watched(fake, running_bot(daylong(settings), seeds=fixed_seeds(), clock=clock)):
        await open_table(fake, group, players, options="target=25 turn=1h")
        absent = to_act(group, players)
        assert absent is not None
        moves = db_rows(database, "SELECT moves FROM tables")[0][0]
        remind = due(database, "remind")
        assert remind is not None
        clock.to(remind)  # 02:40: held to 08:00, after the turn's end: no reminder at all
        await fake.wait_until(lambda: due(database, "turn") is not None, timeout=10)
        await fake.settle(quiet=0.3)
        assert due(database, "quiet") is None
        expiry = due(database, "turn")
        assert expiry is not None
        clock.to(expiry)  # 03:00: the computer moves for him, and nobody's phone rings
        await fake.wait_until(
            lambda: db_rows(database, "SELECT moves FROM tables")[0][0] != moves, timeout=10
        )
        await fake.settle(quiet=0.3)
        assert expiries(database, absent) == 1
        for user in players:
            assert said(user, PING) == [] and said(user, "Осталось") == [], user.first_name
        assert said(absent, TIME_UP) == [] and mentions(group) == []


async def test_quiet_hours_turned_off_in_settings_let_the_night_ping_through(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    fake = fake_telegram
    players, group = three(fake)
    clock = Clock(datetime(2027, 6, 1, 23, 0, tzinfo=UTC))  # 02:00 in Moscow
    async with watched(fake, running_bot(daylong(settings), seeds=fixed_seeds(), clock=clock)):
        for user in players:
            await quiet_off(fake, user)
        stored = db_rows(database, "SELECT settings FROM users WHERE id = ?", players[0].id)
        assert json.loads(str(stored[0][0]))["quiet"] is False
        await open_table(fake, group, players, options="target=25 turn=6h")
        absent = to_act(group, players)
        assert absent is not None
        await fake.wait_until(lambda: bool(said(absent, PING)), timeout=10)


async def quiet_off(fake: FakeTelegram, user: SimUser) -> None:
    """He turns his quiet hours off in his /settings (they are on, in his language's zone)."""
    await user.start_bot()
    await user.send_private("/settings")
    shown = "Тихие часы: 23:00–08:00"

    def pane() -> SentMessage | None:
        return next(iter(said(user, shown)), None)

    await fake.wait_until(lambda: pane() is not None, timeout=10)
    await fake.settle(quiet=0.05)
    message = pane()
    assert message is not None
    assert "Часовой пояс: Europe/Moscow" in message.text  # his language's
    assert not (await user.press(message, "🌙")).text
    await fake.wait_until(lambda: "Тихие часы: выкл." in message.text, timeout=10)
    assert "🕰" not in message.describe_buttons()


async def test_the_lobby_steps_the_table_turn_time_to_12_hours(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    fake = fake_telegram
    players, group = three(fake)
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        for user in players:
            await user.start_bot()
        refused = await say(fake, players[0], "/newgame mushka turn=7h", group)
        allowed = "30s, 60s, 90s, 180s, 300s, 1h, 6h, 12h, 24h"  # whole: the bot's own list
        assert allowed in refused.text and "turn=7h" in refused.text, refused.text
        await players[0].send(group, "/newgame mushka target=25")
        await fake.wait_until(lambda: lobby_message(group) is not None, timeout=10)
        lobby = lobby_message(group)
        assert lobby is not None
        await players[0].press(lobby, "⚙️")
        await fake.wait_until(lambda: "⏱ Время на ход: 90 с" in lobby.describe_buttons(), 10)
        for step in ("180 с", "300 с", "1 ч", "6 ч", "12 ч"):
            answer = await players[1].press(lobby, "⏱")  # not the creator's to change
            assert answer.text, answer
            assert not (await players[0].press(lobby, "⏱")).text
            await fake.wait_until(partial(shows, lobby, f"⏱ Время на ход: {step}"), timeout=10)
        await players[0].press(lobby, "↩️")
        await fake.wait_until(lambda: "⏱ 12 ч на ход: игра может идти" in lobby.text, 10)
        assert db_rows(database, "SELECT turn_timeout_s FROM tables")[0][0] == 12 * HOUR
