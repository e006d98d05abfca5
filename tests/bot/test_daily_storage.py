"""The day's deal's statements on either backend (PostgreSQL's with ``BOT_TEST_DATABASE``): the
day's secret stored once (a second writer reads the first's), one try a day and person, a try's
score kept once, and a score's place among the day's finished tries; and its texts in both
languages, plural forms included."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.i18n import Catalogues
from bot.render.daily import daily_text
from bot.runtime.daily_deals import (
    SETUPS,
    DailyDeals,
    DailyTold,
    day_of,
    deck_seed,
    fresh_secret,
    label_of,
)
from bot.runtime.outcome import DailyResult
from bot.storage.daily_sql import DailyStanding, DailyTry
from bot.storage.protocol import Store
from engine.cards import parse_cards
from engine.games import GAMES

ROOT = Path(__file__).resolve().parents[2]
CATALOGUES = Catalogues.load(ROOT / "locales")
DAY = "2027-01-15"


async def test_the_days_secret_is_stored_once_and_read_back_by_every_asker(repo: Store) -> None:
    first, second = fresh_secret(), fresh_secret()
    assert first != second
    assert await repo.daily_secret(DAY, "mushka", first) == first
    assert await repo.daily_secret(DAY, "mushka", second) == first  # lost the race: the winner's
    assert await repo.stored_daily_secret(DAY, "mushka") == first
    assert await repo.stored_daily_secret(DAY, "pamfil") is None  # each game its own
    assert await repo.daily_secret(DAY, "pamfil", second) == second


async def test_one_try_a_day_each_scored_once_and_placed_among_the_finished(repo: Store) -> None:
    scores = {1: 5, 2: -10, 3: 5, 4: 2}
    for user, table in zip(scores, range(11, 15), strict=True):
        async with repo.unit() as tx:
            await tx.add_try(DailyTry(DAY, "mushka", user, f"P{user}", table))
    with pytest.raises(Exception):  # noqa: B017  # either backend's integrity error
        async with repo.unit() as tx:
            await tx.add_try(DailyTry(DAY, "mushka", 1, "P1", 99))
    assert await repo.daily_standing(DAY, "mushka", 0) == DailyStanding(0, 0, 0, 0, "")
    for at, (user, score) in enumerate(scores.items()):
        async with repo.unit() as tx:
            await tx.finish_try(10 + user, score, 100.0 + at)
    async with repo.unit() as tx:
        await tx.finish_try(11, -50, 200.0)  # finished already: keeps its own score
    mine = await repo.daily_try(DAY, "mushka", 1)
    assert mine is not None and mine.finished and mine.score == 5
    assert (await repo.daily_try_at(12)) == DailyTry(DAY, "mushka", 2, "P2", 12, None, -10, 101.0)
    assert await repo.daily_try(DAY, "pamfil", 1) is None
    # 5, 5, 2, −10: the best is whoever scored 5 first; equal scores share a place
    assert await repo.daily_standing(DAY, "mushka", 5) == DailyStanding(4, 0, 2, 5, "P1")
    two = await repo.daily_standing(DAY, "mushka", 2)
    assert (two.place, two.better_than) == (3, 25)
    assert (await repo.daily_standing(DAY, "mushka", -10)).place == 4


def test_the_deals_seeds_are_apart_and_the_same_for_the_same_secret() -> None:
    secret = fresh_secret()
    assert label_of(secret) == label_of(secret) and deck_seed(secret) == deck_seed(secret)
    assert 0 <= label_of(secret) < 2**53  # a record seed every JSON reader keeps exact
    other = fresh_secret()
    assert label_of(other) != label_of(secret) and deck_seed(other) != deck_seed(secret)
    a, b = DailyDeals(secret).fresh(), DailyDeals(secret).fresh()
    assert a[0] == b[0] == label_of(secret)
    deck = parse_cards("7H 8H 9H 10H JH QH KH AH 7S 8S 9S 10S")
    assert a[1].shuffled(deck) == b[1].shuffled(deck) != deck
    assert day_of(1_800_000_000.0) == "2027-01-15" and day_of(1_800_000_000.0 + 57_599) == DAY
    assert day_of(1_800_000_000.0 + 57_600) == "2027-01-16"  # UTC midnight
    assert set(SETUPS) == set(GAMES)  # every game has its day's deal


@pytest.mark.parametrize(
    ("locale", "game", "score", "expected"),
    [
        ("ru", "mushka", 5, "Вы списали 5 очков."),
        ("ru", "mushka", 1, "Вы списали 1 очко."),
        ("ru", "pamfil", -3, "Ремиз: 3 очка."),
        ("en", "mushka", -1, "Remise: 1 point."),
        ("en", "mistigri", 4, "You wrote off 4 points."),
        ("ru", "kopilka", -7, "Ваш итог: −7."),
        ("en", "lenturlu", 12, "Your net: +12."),
        ("ru", "konchinka", 2, "Вы набрали 2 очка."),
        ("en", "konchinka", 1, "You scored 1 point."),
    ],
)
def test_a_tries_result_reads_in_the_games_terms(
    locale: str, game: str, score: int, expected: str
) -> None:
    standing = DailyStanding(41, 2, 38, 5, "Аня <b>")
    screen = DailyResult(101, locale, DailyTold.ENDED, game, "Anna", score, standing)
    text = daily_text(screen, CATALOGUES.tr(locale))
    assert expected in text.splitlines()[1], text
    board = text.splitlines()[2]
    if locale == "ru":
        assert board == "Место 3 из 41 · лучше, чем 93% · лучший: Аня &lt;b&gt; +5", board
    else:
        assert board == "Place 3 of 41 · better than 93% · best: Аня &lt;b&gt; +5", board
    group = DailyResult(-1001, locale, DailyTold.GROUP, game, "Anna", score, standing)
    line = daily_text(group, CATALOGUES.tr(locale))
    assert line.endswith("(3-е из 41)" if locale == "ru" else "(place 3 of 41)"), line
