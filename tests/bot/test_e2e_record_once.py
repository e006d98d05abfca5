"""/record once per game and chat, through the fake Bot API: ten /record commands after a game
post its record, transcript and chart once and answer every other one with a pointer to the post
(a link in a supergroup; a reply to it in a basic group and in private), a restart still knows
the post, and the chart is drawn in a worker thread, not on the event loop."""

from __future__ import annotations

import logging
import random
import threading

import pytest

from bot.app import running_bot
from bot.config import Settings
from tests.bot.helpers import fixed_seeds, open_table, play_until_end, say, watched
from tests.bot.test_e2e_chart import finished
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import SentMessage
from tests.fakeapi.users import SimGroup, SimUser

ASKS = 10
ABOVE = "📎 Запись этой игры уже выше"
GOING = "📎 Запись этой игры уже отправляется."
POINTERS = (ABOVE, GOING)


def posts(chat: SimGroup | SimUser) -> list[SentMessage]:
    """The record's files and chart in the chat."""
    return [m for m in chat.messages if m.document is not None or m.photo is not None]


def pointers(chat: SimGroup | SimUser) -> list[SentMessage]:
    return [m for m in chat.messages if m.text.startswith(POINTERS)]


def link_to(message: SentMessage) -> str:
    """A supergroup message's link (the fake's supergroup ids are -100 and its number)."""
    return f"https://t.me/c/{str(message.chat_id).removeprefix('-100')}/{message.message_id}"


async def test_ten_records_in_a_group_post_the_game_once_and_point_to_it_after_a_restart(
    fake_telegram: FakeTelegram, settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    fake = fake_telegram
    caplog.set_level(logging.INFO, logger="bot.drawing")
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        group, players, _ = await finished(fake, 3)
        mark = fake.mark()
        for n in range(ASKS):  # at once, by all three
            await players[n % 3].send(group, "/record")
        await fake.settle(quiet=0.2, timeout=30)  # every command answered
        assert fake.count("sendDocument", since=mark) == 3
        assert fake.count("sendPhoto", since=mark) == 1
        # every other ask is answered with a pointer (how many messages: the commands'
        # answers' window, which this test's time scale shrinks to nothing)
        assert 1 <= len(pointers(group)) <= ASKS - 1
        jsonl, text, page, chart = posts(group)
        assert jsonl.document is not None and jsonl.document.filename.endswith(".jsonl")
        assert text.document is not None and text.document.filename.endswith(".txt")
        assert page.document is not None and page.document.filename.endswith(".html")
        assert chart.photo is not None
        above = [m for m in pointers(group) if m.text.startswith(ABOVE)]
        assert all(link_to(jsonl) in m.html for m in above)  # the rest: it was on its way
        drawn = [r for r in caplog.records if r.name == "bot.drawing"]
        assert len(drawn) == 1 and drawn[0].thread != threading.get_ident()  # off the loop

    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        mark = fake.mark()
        again = await say(fake, players[2], "/record", group)
        await fake.settle(quiet=0.1)
        assert again.text == f"{ABOVE}: {jsonl.document.filename}"
        assert f'<a href="{link_to(jsonl)}">' in again.html
        assert again.reply_to is not None  # an answer to the asker's command
        assert fake.count("sendDocument", since=mark) == fake.count("sendPhoto", since=mark) == 0


async def test_a_record_asked_again_in_a_basic_group_or_in_private_replies_to_the_post(
    fake_telegram: FakeTelegram, settings: Settings
) -> None:
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    boris = fake.add_user(102, "Boris", language_code="ru")
    vera = fake.add_user(103, "Vera", language_code="ru")
    group = fake.add_group(-4242, "Суббота", admins=[101], members=[102, 103], supergroup=False)
    players = [anna, boris, vera]
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await open_table(fake, group, players)
        await play_until_end(fake, group, players, random.Random(3))
        await fake.settle(quiet=0.05)
        await say(fake, anna, "/record", group)
        await fake.settle(quiet=0.05)
        jsonl = posts(group)[0]
        assert jsonl.document is not None
        again = await say(fake, boris, "/record", group)
        assert again.text == f"{ABOVE}." and again.reply_to == jsonl.message_id

        mine = await say(fake, vera, "/record")  # in private: her last game, once for her
        await fake.settle(quiet=0.05)
        assert mine.document is not None and mine.document.data == jsonl.document.data
        again = await say(fake, vera, "/record")
        assert again.text == f"{ABOVE}." and again.reply_to == mine.message_id
        await fake.settle(quiet=0.05)
        assert len(posts(vera)) == len(posts(group)) == 4  # .jsonl, .txt, .html, chart: once
