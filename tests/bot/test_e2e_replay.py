"""/record's replay page: after the record and its transcript, one HTML file of the game, in the
chat's language (a group's; a player's own in private), every step of the game in it, nothing
fetched from anywhere."""

from __future__ import annotations

import random

from bot.app import RunningBot
from engine.record import read_jsonl
from tests.bot.helpers import open_table, play_until_end
from tests.bot.test_e2e_limits import three
from tests.bot.test_replay_html import data_of
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import SentMessage


def documents(messages: list[SentMessage]) -> list[SentMessage]:
    return [m for m in messages if m.document is not None]


async def test_record_sends_the_replay_page_in_the_chats_language(
    fake_telegram: FakeTelegram, bot: RunningBot
) -> None:
    fake = fake_telegram
    group, (anna, boris, vera) = await three(fake)
    await open_table(fake, group, [anna, boris, vera])
    await play_until_end(fake, group, [anna, boris, vera], random.Random(3))
    await fake.settle(quiet=0.05)
    count = len(group.messages)
    await boris.send(group, "/record")
    await fake.wait_until(lambda: len(documents(group.messages[count:])) >= 3, timeout=10)
    jsonl, words, page = documents(group.messages[count:])
    assert jsonl.document is not None and words.document is not None
    assert page.document is not None
    assert page.document.filename == jsonl.document.filename.replace(".jsonl", ".html")
    record = read_jsonl(jsonl.document.data.decode())
    html = page.document.data.decode()
    assert '<html lang="ru">' in html and "://" not in html
    data = data_of(html)
    assert data["names"] == ["Anna", "Boris", "Vera"]
    assert data["title"] == "Мушка — «Пятница», игра 1"
    assert len(data["steps"]) == sum(x["t"] in ("deal", "act") for x in record)
    assert data["final"].startswith("Итог: Anna ")
    # in private, Vera's own language (English)
    await vera.send_private("/record")
    await fake.wait_until(lambda: len(documents(vera.messages)) >= 3, timeout=10)
    mine = documents(vera.messages)[2].document
    assert mine is not None and mine.filename == page.document.filename
    english = data_of(mine.data.decode())
    assert english["lang"] == "en" and english["final"].startswith("Result: Anna ")
    assert english["steps"][0][2] == data["steps"][0][2]  # the same game, dealt the same
