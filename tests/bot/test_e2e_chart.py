"""A game's chart through the fake Bot API: 📈 on a finished pulka's result posts its chart in the
group once (a PNG that names the players, a reply to the result), a second press only says it is
above, a forged or stale press changes nothing, and /record sends the chart after the documents;
in a forum the chart goes to the table's topic, and a restart still knows it was posted."""

from __future__ import annotations

import io
import random

from PIL import Image
from PIL.PngImagePlugin import PngImageFile

from bot.app import RunningBot, running_bot
from bot.config import Settings
from tests.bot.helpers import (
    Shown,
    Topic,
    fixed_seeds,
    open_table,
    play_until_end,
    result_message,
    watched,
)
from tests.bot.test_e2e_limits import three
from tests.bot.test_e2e_topics import forum
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import SentMessage
from tests.fakeapi.users import SimGroup, SimUser


def photos(shown: Shown) -> list[SentMessage]:
    return [m for m in shown.messages if m.photo is not None]


def picture(message: SentMessage) -> PngImageFile:
    """The photo as Telegram got it, opened with Pillow."""
    assert message.photo is not None
    image = Image.open(io.BytesIO(message.photo.data))
    assert isinstance(image, PngImageFile)
    image.load()
    return image


async def chart_pressed(
    fake: FakeTelegram, shown: Shown, result: SentMessage, user: SimUser
) -> SentMessage:
    """``user`` presses 📈 (silently answered); the one chart that comes."""
    answer = await user.press(result, "📈")
    assert not answer.text, answer.text
    await fake.wait_until(lambda: len(photos(shown)) == 1, timeout=10)
    await fake.settle(quiet=0.05)
    (chart,) = photos(shown)
    return chart


async def finished(fake: FakeTelegram, seed: int) -> tuple[SimGroup, list[SimUser], SentMessage]:
    """A pulka of Anna, Boris and Vera in «Пятница» played to its end: the group, the players
    and the result message."""
    group, players = await three(fake)
    await open_table(fake, group, players)
    await play_until_end(fake, group, players, random.Random(seed))
    await fake.settle(quiet=0.05)
    result = result_message(group)
    assert result is not None
    return group, players, result


async def test_the_chart_goes_once_on_request_and_with_record(
    fake_telegram: FakeTelegram, bot: RunningBot
) -> None:
    fake = fake_telegram
    group, (anna, boris, vera), result = await finished(fake, 3)
    assert "📈 График" in result.describe_buttons()
    chart = await chart_pressed(fake, group, result, vera)  # anyone in the group, not only Anna
    assert chart.reply_to == result.message_id
    image = picture(chart)
    assert image.size == (1000, 600)
    assert image.text["Legend"].split("\n") == ["Anna", "Boris", "Vera"]
    assert image.text["Title"] == "«Пятница» · Мушка · пулька 1"  # the chat's language
    assert len(fake.calls("sendPhoto")) == 1
    # pressed again, by anyone: a toast in his language, no second photo
    assert (await boris.press(result, "📈")).text == "График уже выше."
    assert (await vera.press(result, "📈")).text == "The chart is above."
    await fake.settle(quiet=0.05)
    assert len(photos(group)) == 1 and len(fake.calls("sendPhoto")) == 1
    # /record: the record, its transcript, its replay page, the chart, then 🔎 each deal's review
    count = len(group.messages)
    await anna.send(group, "/record")
    await fake.wait_until(lambda: len(group.messages) >= count + 5, timeout=10)
    await fake.settle(quiet=0.05)
    jsonl, words, page, drawn, reviews = group.messages[count:]
    assert reviews.text == "🔎 Разбор сдачи:" and reviews.all_buttons
    assert jsonl.document is not None and jsonl.document.filename.endswith(".jsonl")
    assert words.document is not None and words.document.filename.endswith(".txt")
    assert page.document is not None and page.document.filename.endswith(".html")
    assert drawn.photo is not None and chart.photo is not None
    assert drawn.photo.data == chart.photo.data  # the same picture
    await boris.send_private("/record")  # in private: his last game, with its chart
    await fake.wait_until(lambda: any(m.photo is not None for m in boris.messages), timeout=10)
    (private,) = [m for m in boris.messages if m.photo is not None]
    assert picture(private).text["Legend"] == "Anna\nBoris\nVera"


async def test_a_forged_or_stale_chart_press_changes_nothing(
    fake_telegram: FakeTelegram, bot: RunningBot
) -> None:
    fake = fake_telegram
    group, (anna, boris, _), result = await finished(fake, 4)
    data = result.button("📈").callback_data
    assert data is not None
    forged = data[:-1] + ("A" if data[-1] != "A" else "B")  # the tag no longer matches
    assert (await boris.press_raw(result, data=forged)).text == "Кнопка не распознана."
    # another pulka: the result's buttons go, and so does its 📈
    assert not (await anna.press(result, "🔁")).text
    await fake.wait_until(lambda: not result.all_buttons, timeout=10)
    # refused either way: the message forgotten (one process) or still in the shared book of
    # several workers (Redis), where the result's generation is past
    stale = (await boris.press_raw(result, data=data)).text
    assert stale in ("Кнопка не распознана.", "Эта кнопка устарела."), stale
    await fake.settle(quiet=0.05)
    assert photos(group) == [] and fake.calls("sendPhoto") == []


async def test_in_a_forum_the_chart_goes_to_the_table_s_topic_and_a_restart_knows_it(
    fake_telegram: FakeTelegram, settings: Settings
) -> None:
    fake = fake_telegram
    group, users = forum(fake, 3)
    topic = Topic(group, group.create_topic("Игра", by=users[0]))
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await open_table(fake, group, users, thread=topic.thread)
        await play_until_end(fake, group, users, random.Random(6))  # its one table: in the topic
        await fake.settle(quiet=0.05)
        result = result_message(topic)
        assert result is not None
        chart = await chart_pressed(fake, topic, result, users[1])
        assert chart.thread_id == topic.thread and chart.reply_to == result.message_id
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        assert (await users[2].press(result, "📈")).text == "График уже выше."
        await fake.settle(quiet=0.05)
    assert len(photos(group)) == 1 and group.in_topic(None) == []
