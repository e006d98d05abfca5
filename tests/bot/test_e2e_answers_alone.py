"""Answers to commands in a group go to the asker alone where Telegram allows it: a
command he sent ephemerally (a reply to it — a bot that is no administrator may answer him so
too), or any command where the bot is an administrator (a reply to his command); the commands
whose answer concerns the asker alone are declared ``is_ephemeral``, so clients send them so."""

from __future__ import annotations

import json

from bot.app import ALONE, RunningBot, running_bot
from bot.config import Settings
from tests.bot.helpers import db_rows, fixed_seeds, say, watched
from tests.bot.test_e2e_settings import press_until
from tests.databases import TestDatabase
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import SentMessage
from tests.fakeapi.users import SimGroup, SimUser

SCALE = 0.05  # a group's window of 3 s: a repeat within it is shown in place
GROUP_COMMANDS = [
    "newgame",
    "daily",
    "score",
    "record",
    "rules",
    "help",
    "hand",
    "language",
    "settings",
    "cancel",
    "kick",
    "notify",
]


def people(fake: FakeTelegram, *, bot_admin: bool) -> tuple[SimUser, SimUser, SimGroup]:
    """Anna, the group's admin, and Boris, who writes first: the group speaks English."""
    anna = fake.add_user(101, "Anna", language_code="ru")
    boris = fake.add_user(102, "Boris", language_code="en")
    group = fake.add_group(-1001, "Пятница", admins=[101], members=[102], bot_admin=bot_admin)
    return anna, boris, group


def scaled(settings: Settings) -> Settings:
    return settings.model_copy(update={"outbox_time_scale": SCALE})


def sends(fake: FakeTelegram, group: SimGroup, since: int) -> int:
    """Messages sent to the group (for anyone, or for one member alone) since ``since``."""
    return fake.count("sendMessage", group.id, ok=True, since=since)


async def alone_to(fake: FakeTelegram, user: SimUser, group: SimGroup, count: int) -> SentMessage:
    """The ``count``-th message shown to ``user`` alone in ``group``, once it is there."""
    await fake.wait_until(lambda: len(user.ephemeral(group)) >= count, timeout=5)
    return user.ephemeral(group)[count - 1]


async def test_group_commands_whose_answer_concerns_the_asker_alone_are_ephemeral(
    fake_telegram: FakeTelegram, bot: RunningBot
) -> None:
    fake = fake_telegram
    for language in ("ru", "en", ""):
        listed = fake.commands_for({"type": "all_group_chats"}, language)
        flags = {c["command"]: c.get("is_ephemeral", False) for c in listed}
        assert sorted(flags) == sorted(GROUP_COMMANDS)
        assert {c for c, on in flags.items() if on} == ALONE
        assert {"newgame", "cancel", "kick", "record"}.isdisjoint(ALONE)
        private = fake.commands_for({"type": "all_private_chats"}, language)
        assert private and all("is_ephemeral" not in c for c in private)


async def test_a_plain_member_bot_answers_an_ephemeral_command_to_its_sender_alone(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    fake = fake_telegram
    anna, boris, group = people(fake, bot_admin=False)
    async with watched(fake, running_bot(scaled(settings), seeds=fixed_seeds())):
        sent = await boris.send_ephemeral(group, "/help")
        helped = await alone_to(fake, boris, group, 1)
        assert "/newgame" in helped.text and helped.reply_to_ephemeral == sent.ephemeral_id
        mark = fake.mark()
        await boris.send_ephemeral(group, "/help")  # again within the window: no call at all
        await fake.settle(quiet=0.05)
        assert sends(fake, group, mark) == 0 and boris.ephemeral(group) == [helped]

        await boris.send_ephemeral(group, "/rules mushka")
        rules = await alone_to(fake, boris, group, 2)
        assert rules.text.startswith("Mushka")
        await boris.send_ephemeral(group, "/rules pamfil")  # another answer to it: in place
        await fake.wait_until(lambda: rules.text.startswith("Pamfil"), timeout=5)
        assert len(boris.ephemeral(group)) == 2

        # an admin's settings pane, for her alone: its buttons work there
        await anna.send_ephemeral(group, "/settings")
        pane = await alone_to(fake, anna, group, 1)
        await press_until(fake, anna, pane, "⏱", "Turn time: 180 s")
        stored = db_rows(database, "SELECT settings FROM chats WHERE id = ?", group.id)
        assert json.loads(str(stored[0][0]))["turn_timeout_s"] == 180

        # a command written for everyone to see: the group sees its answer (no right here)
        shown = await say(fake, boris, "/help", group)
        assert shown.text == helped.text and shown.ephemeral_id is None
        assert anna.ephemeral(group) == [pane] and len(boris.ephemeral(group)) == 2


async def test_where_the_bot_is_an_admin_every_answer_goes_to_the_asker_alone(
    fake_telegram: FakeTelegram, settings: Settings
) -> None:
    fake = fake_telegram
    anna, boris, group = people(fake, bot_admin=True)
    async with watched(fake, running_bot(scaled(settings), seeds=fixed_seeds())):
        asked = await boris.send(group, "/score")  # written for everyone: answered to him
        score = await alone_to(fake, boris, group, 1)
        assert score.text.startswith("📊") and score.reply_to == asked.message_id
        await boris.send(group, "/settings")  # no admin: told so, alone
        refused = await alone_to(fake, boris, group, 2)
        assert refused.text == "Only the group's admins change its settings."
        await anna.send(group, "/settings")
        pane = await alone_to(fake, anna, group, 1)
        await press_until(fake, anna, pane, "🤖", "Computer players: no")
        assert group.messages == []  # the group saw none of it
        # a message written as the group names nobody: answered in the group
        await anna.send_anonymously(group, "/help")
        await fake.wait_until(lambda: len(group.messages) == 1, timeout=5)
        assert "/newgame" in group.messages[0].text
