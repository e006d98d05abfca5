"""Seasons: a calendar month (UTC) has its own boards per game, in each group and across
groups, from that month's rated matches alone — the all-time ratings are untouched.

A season's rating is computed afresh, from a newcomer's, over the month's rated matches in the
order they were rated, with the ratings' own model (:class:`bot.rating.Book`: the same places,
the same rules for a seat the computer played); beside it the matches played, the wins and the
net money of the month. A player is placed from :data:`MIN_GAMES` matches of the month; the
others are counted under the board. :func:`period_boards` ranks any such period's matches (a
day's deal can use it as it is).

A match belongs to the month it finished in: its standing is stamped with the month
(``results.month``) under the ratings' lock as it is rated (:func:`bot.runtime.ratings.rate`).
So once a month is over its boards never change again: no later match can be stamped with it,
and a season is drawn from its stamped standings alone — a group's /score of a past month and
its archive message show the same board. A group is told its season's boards once, at its first
activity after the month ends (:meth:`Seasons.ended`)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from bot.clock import Clock
from bot.lru import Lru
from bot.rating import EVERYWHERE, Book, shown
from bot.storage.protocol import Repository
from bot.storage.rows import ResultRow

MIN_GAMES = 3
"""A season places a player from this many of its rated matches of a game (fewer: counted,
not placed — one lucky match tops no board)."""

_MONTH = re.compile(r"(\d{4})-(\d{2})")


@dataclass(frozen=True, slots=True, order=True)
class Month:
    """A calendar month, UTC: a season."""

    year: int
    month: int

    @classmethod
    def of(cls, at: float) -> Month:
        """The month of wall-clock second ``at`` (UTC)."""
        day = datetime.fromtimestamp(at, UTC)
        return cls(day.year, day.month)

    @classmethod
    def parse(cls, text: str) -> Month | None:
        """``2026-11`` as a month; None for anything else."""
        found = _MONTH.fullmatch(text.strip())
        if found is None or not 1 <= int(found[2]) <= 12 or int(found[1]) < 2000:
            return None
        return cls(int(found[1]), int(found[2]))

    def previous(self) -> Month:
        return Month(self.year, self.month - 1) if self.month > 1 else Month(self.year - 1, 12)

    def __str__(self) -> str:
        return f"{self.year:04d}-{self.month:02d}"


@dataclass(frozen=True, slots=True)
class SeasonLine:
    """One player's line of a period: a person (``name``: as he last played then) or a
    computer ``level``; the period's rating (from 0, as :func:`bot.rating.shown`), matches
    rated, wins and net money."""

    user_id: int
    level: str
    name: str
    rating: int
    games: int
    won: int
    money: int


@dataclass(frozen=True, slots=True)
class SeasonBoard:
    """A game's board of a period: ``placed`` best first, ``unplaced`` (fewer than
    :data:`MIN_GAMES` matches) most matches first; ``hidden``: the people on a board across
    groups who hide their names, each with his number (:mod:`bot.runtime.hidden_names`)."""

    game: str
    placed: tuple[SeasonLine, ...]
    unplaced: tuple[SeasonLine, ...]
    hidden: Mapping[int, int] = field(default_factory=dict)


def _order(line: SeasonLine) -> tuple[int, int, int, bytes, int, str]:
    return (-line.rating, -line.games, -line.money, line.name.encode(), line.user_id, line.level)


def period_boards(
    results: Sequence[ResultRow], chat_id: int | None, *, least: int = MIN_GAMES
) -> list[SeasonBoard]:
    """Each game's board of a period's rated matches (``results``, in the order they were
    rated; of chat ``chat_id`` only, or of every chat for None: across groups), by game."""
    book = Book()
    names: dict[int, str] = {}
    for result in results:
        if chat_id is not None and result.chat_id != chat_id:
            continue
        book.add(result)
        for seat in result.seats:
            if seat.user_id and not seat.level:
                names[seat.user_id] = seat.name
    scope = EVERYWHERE if chat_id is None else chat_id
    games: dict[str, list[SeasonLine]] = {}
    for (where, game, player), row in book.rows.items():
        if where != scope:
            continue
        name = "" if player.is_computer else names.get(player.user_id, "")
        rating = shown(row.mu, row.sigma)
        line = SeasonLine(player.user_id, player.level, name, rating, row.games, row.won, row.money)
        games.setdefault(game, []).append(line)
    boards = []
    for game, lines in sorted(games.items()):
        placed = sorted((x for x in lines if x.games >= least), key=_order)
        rest = sorted((x for x in lines if x.games < least), key=lambda x: (-x.games, _order(x)))
        boards.append(SeasonBoard(game, tuple(placed), tuple(rest)))
    return boards


@dataclass(frozen=True, slots=True)
class SeasonNews:
    """A group's season just over, to be told once: its month and boards."""

    chat_id: int
    month: Month
    boards: tuple[SeasonBoard, ...]


class Seasons:
    """The seasons' boards as /score asks them, and the news of a season just over."""

    def __init__(self, repo: Repository, clock: Clock, *, memo: int = 50_000) -> None:
        self.repo = repo
        self.clock = clock
        self._checked: Lru[int, Month] = Lru(memo)  # chat → the last month seen told (or empty)

    def now(self) -> Month:
        return Month.of(self.clock())

    async def boards(
        self, month: Month, *, chat_id: int | None, game: str | None = None
    ) -> list[SeasonBoard]:
        """``month``'s boards in the chat (None: across groups), of one game where given."""
        results = await self.repo.season_results(str(month), chat_id=chat_id, game=game)
        return period_boards(results, chat_id)

    async def ended(self, chat_id: int) -> SeasonNews | None:
        """At the group's activity: last month's boards if the group had rated matches then and
        was not told them yet — told once: of the workers and restarts asking, the one unit
        that writes it told, under the ratings' lock (a match rated meanwhile waits for it, and
        is stamped with the month it then is). Remembered per chat, so that the group's later
        updates of the month read nothing."""
        last = self.now().previous()
        if self._checked.get(chat_id) == last:
            return None
        async with self.repo.unit() as tx:
            await tx.lock_ratings()  # every match stamped with last month is in by now
            results = await tx.season_results(str(last), chat_id=chat_id)
            told = bool(results) and await tx.tell_season(chat_id, str(last))
        self._checked.put(chat_id, last)
        if not told:
            return None
        return SeasonNews(chat_id, last, tuple(period_boards(results, chat_id)))
