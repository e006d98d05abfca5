"""Seasons below the bot: a standing is stamped with the month it is rated in (UTC, at the
month's last second and first), a season's board is rated afresh from its month's matches
alone and places from three, a month's news is told once however many workers ask at once,
months are read strictly, and a big board pages within Telegram's limit with names escaped.
On the suite's database (SQLite; PostgreSQL with ``BOT_TEST_DATABASE``)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from bot.i18n import Catalogues, bundled_locales
from bot.message_limits import MAX_TEXT, plain_length
from bot.render.seasons import season, season_over
from bot.runtime.ratings import rate
from bot.runtime.seasons import MIN_GAMES, Month, SeasonBoard, SeasonLine, Seasons, period_boards
from bot.storage.protocol import Store
from bot.storage.rows import ResultRow, ResultSeat

CHAT = -1001
LAST_SECOND = datetime(2040, 11, 30, 23, 59, 59, tzinfo=UTC).timestamp()
FIRST_SECOND = datetime(2040, 12, 1, tzinfo=UTC).timestamp()


def match(table_id: int, chat: int, *people: int) -> ResultRow:
    """A Мушка match of ``people`` (user ids, first wins), each named after his id."""
    seats = tuple(
        ResultSeat(u, "", f"p{u}", place, 10 - 5 * place) for place, u in enumerate(people, 1)
    )
    return ResultRow(table_id, 1, chat, "mushka", False, seats)


async def rated_at(store: Store, at: float, row: ResultRow) -> ResultRow:
    async with store.unit() as tx:
        return await rate(tx, row, lambda: at)


async def test_a_match_belongs_to_the_utc_month_it_is_rated_in(store: Store) -> None:
    await rated_at(store, LAST_SECOND, match(1, CHAT, 1, 2))
    await rated_at(store, FIRST_SECOND, match(2, CHAT, 2, 1))
    november = await store.season_results("2040-11", chat_id=CHAT)
    december = await store.season_results("2040-12")
    assert [(r.table_id, r.month) for r in november] == [(1, "2040-11")]
    assert [(r.table_id, r.month) for r in december] == [(2, "2040-12")]
    assert await store.season_results("2040-11", chat_id=CHAT, game="pamfil") == []


async def test_a_season_rates_its_month_afresh_and_places_from_three_matches(
    store: Store,
) -> None:
    for no in range(4):  # October: 1 beats 2 four times — no weight in November
        await rated_at(store, LAST_SECOND - 40 * 86400, match(10 + no, CHAT, 1, 2))
    for no in range(MIN_GAMES):
        await rated_at(store, LAST_SECOND, match(20 + no, CHAT, 2, 1))
    await rated_at(store, LAST_SECOND, match(30, CHAT, 3, 2))  # 3: one match only
    await rated_at(store, LAST_SECOND, match(31, -1002, 4, 1))  # another group's
    seasons = Seasons(store, lambda: FIRST_SECOND)
    (board,) = await seasons.boards(Month(2040, 11), chat_id=CHAT)
    assert [(x.user_id, x.games, x.won) for x in board.placed] == [(2, 4, 3), (1, 3, 0)]
    assert [(x.user_id, x.games) for x in board.unplaced] == [(3, 1)]
    assert board.placed[0].money == 3 * 5 + 0  # three wins at +5, one second place at 0
    # the all-time ratings hold October too, as they were
    alltime = await store.ratings(CHAT, game="mushka")
    assert {r.user_id: r.games for r in alltime} == {1: 7, 2: 8, 3: 1}
    (across,) = await seasons.boards(Month(2040, 11), chat_id=None)
    assert sorted(x.user_id for x in (*across.placed, *across.unplaced)) == [1, 2, 3, 4]
    assert [x.games for x in across.placed if x.user_id == 1] == [4]


async def test_a_season_over_is_told_once_however_many_workers_ask(store: Store) -> None:
    await rated_at(store, LAST_SECOND, match(1, CHAT, 1, 2))
    workers = [Seasons(store, lambda: FIRST_SECOND) for _ in range(4)]
    news = await asyncio.gather(*(w.ended(CHAT) for w in workers), workers[0].ended(CHAT))
    told = [n for n in news if n is not None]
    assert len(told) == 1 and told[0].month == Month(2040, 11)
    assert [x.user_id for x in told[0].boards[0].placed + told[0].boards[0].unplaced] == [1, 2]
    again = Seasons(store, lambda: FIRST_SECOND + 86400)  # a restart the next day
    assert await again.ended(CHAT) is None
    assert await again.ended(-1002) is None  # no matches there: nothing to tell


def test_months_are_read_strictly() -> None:
    assert Month.parse("2026-11") == Month(2026, 11)
    assert [Month.parse(t) for t in ("2026-13", "2026-00", "26-11", "2026-1", "ноябрь")] == [
        None
    ] * 5
    assert Month(2027, 1).previous() == Month(2026, 12)
    assert str(Month.of(FIRST_SECOND - 1)) == "2040-11"


def test_a_big_season_board_pages_within_the_limit_and_names_stay_data() -> None:
    tr = Catalogues.load(bundled_locales(), "ru").tr("ru")
    name = "<i>" + "Я" * 60
    lines = tuple(SeasonLine(u, "", f"{name}{u}", 100 - u, 5, 1, 3) for u in range(1, 40))
    few = tuple(SeasonLine(u, "", f"{name}{u}", 0, 1, 0, 0) for u in range(40, 80))
    games = ("kopilka", "konchinka", "lenturlu", "mistigri", "mushka", "pamfil", "shutikha")
    boards = [SeasonBoard(g, lines, few) for g in games]
    for pages in (
        season("«Пятница» " * 20, Month(2040, 11), boards, tr, running=False),
        season_over(Month(2040, 11), boards, tr),
    ):
        assert len(pages) > 1
        assert all(plain_length(p) <= MAX_TEXT for p in pages)
        assert all("<i>" not in p and "&lt;i&gt;" in p for p in pages)
    assert "… и ещё 29 в зачёте" in season("", Month(2040, 11), boards, tr, running=True)[0]
    en = Catalogues.load(bundled_locales(), "ru").tr("en")
    told = season_over(Month(2040, 11), [SeasonBoard("mushka", lines[:2], few[:1])], en)
    assert told[0].startswith("🏆 Season November 2040 (Mushka):\n1. "), told


def test_period_boards_keep_to_their_chat() -> None:
    rows = [match(1, CHAT, 1, 2), match(2, -1002, 3, 4)]
    (board,) = period_boards(rows, CHAT, least=1)
    assert {x.user_id for x in board.placed} == {1, 2}
