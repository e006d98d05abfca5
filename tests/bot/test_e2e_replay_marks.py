"""/record's replay page carries the review's marks: every deal someone reviewed (🔎) in the
chat's language brings its marks, stored with the review; a game with few enough deals not yet
reviewed has them computed on /record, a longer one keeps only the reviewed ones; the page's
header says which deals carry marks, so it never pretends to be complete."""

from __future__ import annotations

import random

from bot.app import RunningBot
from bot.records import GameRecord, Records
from bot.reviews import ON_RECORD, marks_of
from engine.review import deal_numbers
from tests.bot.helpers import open_table, play_until_end
from tests.bot.test_e2e_limits import three
from tests.bot.test_e2e_replay import documents
from tests.bot.test_e2e_review import deal_result, opened, reviews_of
from tests.bot.test_replay_html import data_of
from tests.fakeapi import FakeTelegram
from tests.fakeapi.users import SimGroup, SimUser


async def last_game(bot: RunningBot, group: SimGroup) -> GameRecord:
    records = bot.dispatcher["records"]
    assert isinstance(records, Records)
    found = await records.last_over(chat_id=group.id)
    assert found is not None
    return found


async def page_of(fake: FakeTelegram, group: SimGroup, user: SimUser) -> dict[str, object]:
    """``user`` sends /record in the group: its replay page's embedded data."""
    count = len(group.messages)
    await user.send(group, "/record")
    await fake.wait_until(lambda: len(documents(group.messages[count:])) >= 3, timeout=20)
    page = documents(group.messages[count:])[2].document
    assert page is not None and page.filename.endswith(".html")
    return data_of(page.data.decode())


def step_marks(data: dict[str, object]) -> list[str]:
    steps = data["steps"]
    assert isinstance(steps, list)
    return [str(s[4]) for s in steps if len(s) > 4]


async def test_a_reviewed_deal_brings_its_marks_to_the_record_page(
    fake_telegram: FakeTelegram, bot: RunningBot
) -> None:
    fake = fake_telegram
    group, (anna, boris, vera) = await three(fake)
    await open_table(fake, group, [anna, boris, vera])
    await play_until_end(fake, group, [anna, boris, vera], random.Random(3))
    await fake.settle(quiet=0.05)
    game = await last_game(bot, group)
    assert len(deal_numbers(game.lines)) * 3 > ON_RECORD  # too many to compute them all
    await opened(fake, boris, deal_result(group, 1))  # Boris reviews deal 1 (in Russian)
    (stored,) = await bot.db.review_marks(game.table.id, game.no, "ru")
    mine = marks_of(stored.marks)
    assert stored.deal_no == 1 and stored.seat == 1 and mine  # his costliest decisions, kept
    data = await page_of(fake, group, anna)
    shown = step_marks(data)
    assert all(m.text in shown for m in mine)  # the page marks his decisions' steps
    assert data["marked"] == "Разбор: отмечена сдача 1"
    assert await bot.db.count("reviews") == 1  # nothing else computed for a game this long


async def test_a_long_game_nobody_reviewed_has_no_marks_and_says_so(
    fake_telegram: FakeTelegram, bot: RunningBot
) -> None:
    fake = fake_telegram
    group, (anna, boris, vera) = await three(fake)
    await open_table(fake, group, [anna, boris, vera])
    await play_until_end(fake, group, [anna, boris, vera], random.Random(3))
    await fake.settle(quiet=0.05)
    game = await last_game(bot, group)
    assert len(deal_numbers(game.lines)) * 3 > ON_RECORD
    data = await page_of(fake, group, vera)
    assert data["marked"] == "Разбор: отметок пока нет." and step_marks(data) == []
    assert reviews_of(bot).computed == 0 and await bot.db.count("reviews") == 0


async def test_a_short_game_has_its_marks_computed_on_record(
    fake_telegram: FakeTelegram, bot: RunningBot
) -> None:
    fake = fake_telegram
    group, (anna, boris, vera) = await three(fake)
    await open_table(fake, group, [anna, boris, vera], options="target=5")
    await play_until_end(fake, group, [anna, boris, vera], random.Random(9))
    await fake.settle(quiet=0.05)
    game = await last_game(bot, group)
    deals = deal_numbers(game.lines)
    assert len(deals) * 3 <= ON_RECORD
    data = await page_of(fake, group, anna)
    assert reviews_of(bot).computed == len(deals) * 3  # every deal, every seat: reviewed
    stored = await bot.db.review_marks(game.table.id, game.no, "ru")
    marks = [m for row in stored for m in marks_of(row.marks)]
    assert marks and sorted(step_marks(data)) == sorted(m.text for m in marks)
    marked = sorted({m.deal for m in marks})
    assert data["marked"] == "Разбор: отмечены сдачи " + ", ".join(str(d) for d in marked)
    assert await bot.db.count("reviews") == len(deals) * 3  # kept for every later 🔎
