"""``/daily top``'s boards (:mod:`bot.runtime.daily`): across every group and private chat, the
best of the day's deals of today (UTC) and of the week — the last :data:`WEEK_DAYS` UTC days,
today included, each person ranked by the sum of his finished tries' scores there (more days
played count more: a reason to come back each day) — and the asker's own place on each."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from bot.caches.people import People
from bot.clock import Clock
from bot.game_names import GAME_NAMES
from bot.runtime.daily_deals import day_of
from bot.runtime.hidden_names import hidden_numbers
from bot.storage.daily_sql import DailyEntry, DailyPlace
from bot.storage.protocol import Reads

WEEK_DAYS: Final = 7
ONE_GAME: Final = 10  # the lines of a board asked for by its game
EACH_GAME: Final = 3  # the lines of each game's board when no game is named
DAY_S: Final = 86_400


@dataclass(frozen=True, slots=True)
class PeriodTop:
    """A board of a game over some days: its best ``lines``, the asker's place (None: he
    finished no try there), and the people on it who hide their names, each with his number
    (:mod:`bot.runtime.hidden_names`)."""

    lines: tuple[DailyEntry, ...]
    mine: DailyPlace | None
    hidden: Mapping[int, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class GameTop:
    """A game's boards: today's and the week's."""

    game: str
    today: PeriodTop
    week: PeriodTop


@dataclass(frozen=True, slots=True)
class DailyTops:
    """``/daily top``'s answer: the day (``YYYY-MM-DD``), the week's first day, and the boards
    of the games that had a finished try this week (of the one game asked for, even empty)."""

    day: str
    week_from: str
    games: tuple[GameTop, ...]


class DailyBoards:
    """Reads the day's deals' boards."""

    def __init__(self, repo: Reads, people: People, clock: Clock) -> None:
        self.repo = repo
        self.people = people
        self.clock = clock

    async def tops(self, game: str | None, user_id: int) -> DailyTops:
        now = self.clock()
        day = day_of(now)
        week_from = day_of(now - (WEEK_DAYS - 1) * DAY_S)
        limit = EACH_GAME if game is None else ONE_GAME
        games: list[GameTop] = []
        for code in GAME_NAMES if game is None else (game,):
            today = await self._period(day, day, code, user_id, limit)
            week = await self._period(week_from, day, code, user_id, limit)
            if week.lines or game is not None:
                games.append(GameTop(code, today, week))
        return DailyTops(day, week_from, tuple(games))

    async def _period(
        self, first: str, last: str, game: str, user_id: int, limit: int
    ) -> PeriodTop:
        lines = await self.repo.daily_board(first, last, game, limit)
        mine = await self.repo.daily_place(first, last, game, user_id)
        hidden = await hidden_numbers(self.people, (x.user_id for x in lines), user_id)
        return PeriodTop(tuple(lines), mine, hidden)
