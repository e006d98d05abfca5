"""The statements of the day's deal, shared by both backends: each day's and game's secret
(``daily_deals``, stored once: the first to store it wins), and each person's one try a day and
game (``daily_tries``: his table, then his score once finished — one row each, counted once)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.rows import Row
from bot.storage.runner import Runner

TRY_COLUMNS = "day, game, user_id, name, table_id, group_id, score, finished_at"


@dataclass(frozen=True, slots=True)
class DailyTry:
    """A person's try at a day's deal: ``day`` ``YYYY-MM-DD`` (UTC), ``table_id`` his private
    table, ``group_id`` the group he started it from (None: his private chat); ``score`` None
    while it is played, then his result in the game's terms (higher is better)."""

    day: str
    game: str
    user_id: int
    name: str
    table_id: int
    group_id: int | None = None
    score: int | None = None
    finished_at: float | None = None

    @property
    def finished(self) -> bool:
        return self.score is not None


@dataclass(frozen=True, slots=True)
class DailyStanding:
    """A score among every finished try at a day's deal: how many finished (``tries``), how
    many scored more (``above``) and less (``below``), and the best score and whose it is (of
    equal best scores, whoever finished first)."""

    tries: int
    above: int
    below: int
    best: int
    best_name: str

    @property
    def place(self) -> int:
        """1 + the tries that scored more (equal scores share a place)."""
        return 1 + self.above

    @property
    def better_than(self) -> int:
        """The percentage of the finished tries that scored less, rounded."""
        return round(100 * self.below / self.tries) if self.tries else 0


@dataclass(frozen=True, slots=True)
class DailyEntry:
    """A person's line of a board of the day's deals of a game over some days: the sum of his
    finished tries' scores (``total``), how many (``tries``), and the name he last played by."""

    user_id: int
    name: str
    total: int
    tries: int


@dataclass(frozen=True, slots=True)
class DailyPlace:
    """A person's place on such a board: ``place`` (1 + the people with a higher total: equal
    totals share a place) of ``people``, and his own line."""

    place: int
    people: int
    entry: DailyEntry


def try_of(row: Row) -> DailyTry:
    return DailyTry(
        str(row["day"]),
        str(row["game"]),
        int(row["user_id"]),
        str(row["name"]),
        int(row["table_id"]),
        None if row["group_id"] is None else int(row["group_id"]),
        None if row["score"] is None else int(row["score"]),
        None if row["finished_at"] is None else float(row["finished_at"]),
    )


class DailyStatements:
    """The statements of :class:`bot.storage.protocol.Repository`'s day's deals."""

    def __init__(self, runner: Runner) -> None:
        self.runner = runner

    async def daily_secret(self, day: str, game: str, fresh: str) -> str:
        """The day's and game's secret; ``fresh`` is stored first when there is none (of
        workers asking together, the first to store it wins and all get its value)."""
        await self.runner.write(
            "INSERT INTO daily_deals(day, game, secret) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
            (day, game, fresh),
        )
        row = await self.runner.one(
            "SELECT secret FROM daily_deals WHERE day = ? AND game = ?", (day, game)
        )
        assert row is not None  # just stored, or stored before
        return str(row["secret"])

    async def stored_daily_secret(self, day: str, game: str) -> str | None:
        """The day's and game's secret, if drawn (a table of that deal loaded again)."""
        row = await self.runner.one(
            "SELECT secret FROM daily_deals WHERE day = ? AND game = ?", (day, game)
        )
        return None if row is None else str(row["secret"])

    async def daily_try(self, day: str, game: str, user_id: int) -> DailyTry | None:
        row = await self.runner.one(
            f"SELECT {TRY_COLUMNS} FROM daily_tries WHERE day = ? AND game = ? AND user_id = ?",
            (day, game, user_id),
        )
        return None if row is None else try_of(row)

    async def daily_try_at(self, table_id: int) -> DailyTry | None:
        """The try played at the table (None: no day's deal's table)."""
        row = await self.runner.one(
            f"SELECT {TRY_COLUMNS} FROM daily_tries WHERE table_id = ?", (table_id,)
        )
        return None if row is None else try_of(row)

    async def daily_standing(self, day: str, game: str, score: int) -> DailyStanding:
        """``score`` among the day's finished tries (its own among them, if finished)."""
        counted = await self.runner.one(
            "SELECT COUNT(*) AS n,"
            " COALESCE(SUM(CASE WHEN score > ? THEN 1 ELSE 0 END), 0) AS above,"
            " COALESCE(SUM(CASE WHEN score < ? THEN 1 ELSE 0 END), 0) AS below"
            " FROM daily_tries WHERE day = ? AND game = ? AND score IS NOT NULL",
            (score, score, day, game),
        )
        best = await self.runner.one(
            "SELECT name, score FROM daily_tries WHERE day = ? AND game = ?"
            " AND score IS NOT NULL ORDER BY score DESC, finished_at, user_id LIMIT 1",
            (day, game),
        )
        assert counted is not None  # an aggregate always has its row
        return DailyStanding(
            int(counted["n"]),
            int(counted["above"]),
            int(counted["below"]),
            score if best is None else int(best["score"]),
            "" if best is None else str(best["name"]),
        )

    async def daily_board(self, first: str, last: str, game: str, limit: int) -> list[DailyEntry]:
        """The best ``limit`` people by their finished tries' total at the game's day's deals
        from day ``first`` to ``last`` (both included): the higher total first, then fewer
        tries, then who finished first."""
        rows = await self.runner.all(
            "SELECT t.user_id, SUM(t.score) AS total, COUNT(*) AS n,"
            " MIN(t.finished_at) AS first_at,"
            " (SELECT l.name FROM daily_tries l WHERE l.user_id = t.user_id AND l.game = t.game"
            " AND l.day >= ? AND l.day <= ? AND l.score IS NOT NULL"
            " ORDER BY l.day DESC LIMIT 1) AS name"
            " FROM daily_tries t WHERE t.game = ? AND t.day >= ? AND t.day <= ?"
            " AND t.score IS NOT NULL GROUP BY t.user_id, t.game"
            " ORDER BY total DESC, n, first_at, t.user_id LIMIT ?",
            (first, last, game, first, last, limit),
        )
        return [
            DailyEntry(int(r["user_id"]), str(r["name"]), int(r["total"]), int(r["n"]))
            for r in rows
        ]

    async def daily_place(
        self, first: str, last: str, game: str, user_id: int
    ) -> DailyPlace | None:
        """The person's place on :meth:`daily_board`'s board (None: no finished try there)."""
        mine = await self.runner.one(
            "SELECT SUM(score) AS total, COUNT(*) AS n,"
            " (SELECT l.name FROM daily_tries l WHERE l.user_id = ? AND l.game = ?"
            " AND l.day >= ? AND l.day <= ? AND l.score IS NOT NULL"
            " ORDER BY l.day DESC LIMIT 1) AS name"
            " FROM daily_tries WHERE user_id = ? AND game = ? AND day >= ? AND day <= ?"
            " AND score IS NOT NULL",
            (user_id, game, first, last, user_id, game, first, last),
        )
        if mine is None or not mine["n"]:
            return None
        total = int(mine["total"])
        counted = await self.runner.one(
            "SELECT COUNT(*) AS people,"
            " COALESCE(SUM(CASE WHEN x.total > ? THEN 1 ELSE 0 END), 0) AS above"
            " FROM (SELECT SUM(score) AS total FROM daily_tries WHERE game = ? AND day >= ?"
            " AND day <= ? AND score IS NOT NULL GROUP BY user_id) x",
            (total, game, first, last),
        )
        assert counted is not None  # an aggregate always has its row
        entry = DailyEntry(user_id, str(mine["name"]), total, int(mine["n"]))
        return DailyPlace(1 + int(counted["above"]), int(counted["people"]), entry)

    async def add_try(self, row: DailyTry) -> None:
        """His try starts (in the unit that opens its table; the key (day, game, person) lets
        one try a day be stored: a second insert fails the unit)."""
        await self.runner.run(
            f"INSERT INTO daily_tries({TRY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, NULL, NULL)",
            (row.day, row.game, row.user_id, row.name, row.table_id, row.group_id),
        )

    async def finish_try(self, table_id: int, score: int, at: float) -> None:
        """The try at the table is over with ``score`` (a try finished already keeps its own)."""
        await self.runner.run(
            "UPDATE daily_tries SET score = ?, finished_at = ? WHERE table_id = ?"
            " AND score IS NULL",
            (score, at, table_id),
        )
