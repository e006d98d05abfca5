"""Pacing across workers: two webhook workers, one Redis, one database, the updates landing on
either. Twenty taps at once on a table's 🂠 send the player's cards once (the seat's last 🂠 is
the database's, not a worker's memory), ten /record commands at once post the game's record
once (so is the claim), and three tables opened one after the other ping each /notify
subscriber once (so is his last ping)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.app import running_bot
from bot.config import Settings
from tests.bot.fleet import fleet
from tests.bot.helpers import (
    db_rows,
    fixed_seeds,
    hand_message,
    lobby_message,
    table_message,
    watched,
)
from tests.bot.test_e2e_chart import finished
from tests.bot.test_e2e_ephemeral import started
from tests.bot.test_e2e_my_cards_throttle import AGAIN, TAPS
from tests.bot.test_e2e_notify_pacing import pings, subscribe, waiting_pings
from tests.bot.test_e2e_record_once import ASKS, pointers
from tests.databases import TestDatabase
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import SentMessage
from tests.fakeapi.users import SimGroup, SimUser

TABLES = 3
NAMES = ("Gleb", "Dina", "Egor")


async def opened(fake: FakeTelegram, group: SimGroup, opener: SimUser) -> SentMessage:
    """A lobby opened, on either worker: its message (a new one)."""
    sent = len(group.messages)
    await opener.send(group, "/newgame mushka")
    await fake.wait_until(lambda: lobby_message(group) in group.messages[sent:], timeout=30)
    lobby = lobby_message(group)
    assert lobby is not None
    return lobby


async def cancelled(
    fake: FakeTelegram, lobby: SentMessage, opener: SimUser, database: TestDatabase
) -> None:
    """✖️ → ✖️ Да on the lobby, on either worker; the database says when it is closed (the
    lobby's message may stay as it was: see the report)."""
    assert not (await opener.press(lobby, "✖️")).text
    await fake.wait_until(lambda: "✖️ Да" in lobby.describe_buttons(), timeout=30)
    assert not (await opener.press(lobby, "✖️ Да")).text

    def closed() -> bool:
        rows = db_rows(database, "SELECT status FROM tables ORDER BY id DESC LIMIT 1")
        return rows == [("closed",)]

    await fake.wait_until(closed, timeout=30)


async def test_records_and_new_table_pings_are_paced_across_two_workers(
    fake_telegram: FakeTelegram,
    settings: Settings,
    tmp_path: Path,
    redis_url: str,
    database: TestDatabase,
) -> None:
    fake = fake_telegram
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):  # a finished game
        group, (anna, boris, vera), _ = await finished(fake, 3)
        await subscribe(fake, group, [boris, vera])
    others = [fake.add_user(111 + i, n, language_code="ru") for i, n in enumerate(NAMES)]
    club = fake.add_group(-1003, "Клуб", admins=[111], members=[112, 113], bot_admin=True)
    async with fleet(
        fake, tmp_path, redis_url, 2, BOT_DATABASE=str(database), BOT_NOTIFY_DELAY_S="0"
    ) as running:
        await started(fake, club, others)  # hands in the group, each for its owner alone
        await fake.wait_until(
            lambda: table_message(club) is not None and all(hand_message(u) for u in others),
            timeout=30,
        )
        await fake.settle(quiet=0.3, timeout=60)
        table, gleb = table_message(club), others[0]
        assert table is not None
        before = len(fake.ephemeral_of(gleb.id))
        taps = await asyncio.gather(*(gleb.press(table, "🂠") for _ in range(TAPS)))
        await fake.settle(quiet=0.3, timeout=60)
        cards = len(fake.ephemeral_of(gleb.id)) - before

        mark = fake.mark()
        for n in range(ASKS):  # at once, on either worker
            await (anna, boris, vera)[n % 3].send(group, "/record")
        await fake.settle(quiet=0.3, timeout=60)
        documents = fake.count("sendDocument", since=mark)
        photos = fake.count("sendPhoto", since=mark)
        answered = len(pointers(group))

        for _ in range(TABLES):
            lobby = await opened(fake, group, anna)
            await fake.wait_until(lambda: not waiting_pings(database), timeout=30)  # fired
            await cancelled(fake, lobby, anna, database)
        await fake.settle(quiet=0.3, timeout=60)
        log = running.tail(200_000)
    assert sorted(a.text or "" for a in taps) == [""] + [AGAIN] * (TAPS - 1)
    assert cards == 1
    assert (documents, photos) == (3, 1)  # the game posted once; every other ask a pointer,
    assert 1 <= answered <= ASKS - 1  # one per person and command a window (commands' answers)
    assert len(pings(boris)) == len(pings(vera)) == 1
    assert "Traceback" not in log, log[-4000:]
