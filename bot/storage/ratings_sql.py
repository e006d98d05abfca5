"""The ratings' statements, shared by both backends: the finished matches' standings
(``results``, the source) and the ratings computed from them (``ratings``; :mod:`bot.rating`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.storage.rows import RatingRow, ResultRow, ResultSeat, rating_row, result_row
from bot.storage.runner import Runner

RATINGS_LOCK = 0x35_4A71  # the ratings' lock key (any number no other lock of ours uses)
_RESULT_COLUMNS = "id, table_id, match_no, chat_id, game, solo, seats, month"
_RATING_COLUMNS = (
    "r.scope, r.game, r.user_id, r.level, COALESCE(u.first_name, '') AS name, r.mu, r.sigma,"
    " r.games, r.solo, r.won, r.money"
)
_PUT_RATING = (
    "INSERT INTO ratings(scope, game, user_id, level, mu, sigma, games, solo, won, money)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(scope, game, user_id, level) DO UPDATE"
    " SET mu = excluded.mu, sigma = excluded.sigma, games = excluded.games,"
    " solo = excluded.solo, won = excluded.won, money = excluded.money"
)


class RatingStatements:
    """The statements of :class:`bot.storage.protocol.Reads`' and ``Writes``' ratings, run by
    the runner given."""

    def __init__(self, runner: Runner) -> None:
        self.runner = runner

    async def lock_ratings(self) -> None:
        """Hold the ratings for the rest of the unit of work: two games ending at once rate one
        after the other, never both from the same old figures."""
        await self.runner.lock(RATINGS_LOCK)

    async def add_result(self, row: ResultRow) -> None:
        await self.runner.run(
            "INSERT INTO results(table_id, match_no, chat_id, game, solo, seats, month)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                row.table_id,
                row.match_no,
                row.chat_id,
                row.game,
                row.solo,
                row.seats_json(),
                row.month,
            ),
        )

    async def set_result_seats(self, table_id: int, no: int, seats: Sequence[ResultSeat]) -> None:
        again = ResultRow(table_id, no, 0, "", False, tuple(seats))
        await self.runner.run(
            "UPDATE results SET seats = ? WHERE table_id = ? AND match_no = ?",
            (again.seats_json(), table_id, no),
        )

    async def result(self, table_id: int, no: int) -> ResultRow | None:
        row = await self.runner.one(
            f"SELECT {_RESULT_COLUMNS} FROM results WHERE table_id = ? AND match_no = ?",
            (table_id, no),
        )
        return result_row(row) if row is not None else None

    async def results(self) -> list[ResultRow]:
        rows = await self.runner.all(f"SELECT {_RESULT_COLUMNS} FROM results ORDER BY id")
        return [result_row(r) for r in rows]

    async def season_results(
        self, month: str, *, chat_id: int | None = None, game: str | None = None
    ) -> list[ResultRow]:
        where = ["month = ?"]
        params: list[Any] = [month]
        if chat_id is not None:
            where.append("chat_id = ?")
            params.append(chat_id)
        if game is not None:
            where.append("game = ?")
            params.append(game)
        rows = await self.runner.all(
            f"SELECT {_RESULT_COLUMNS} FROM results WHERE {' AND '.join(where)} ORDER BY id",
            params,
        )
        return [result_row(r) for r in rows]

    async def tell_season(self, chat_id: int, month: str) -> bool:
        """Run under the ratings' lock (:meth:`lock_ratings`): of the units asking, one sees
        the month untold and writes it told."""
        told = await self.runner.one(
            "SELECT 1 AS told FROM seasons_told WHERE chat_id = ? AND month = ?", (chat_id, month)
        )
        if told is not None:
            return False
        await self.runner.run(
            "INSERT INTO seasons_told(chat_id, month) VALUES (?, ?)", (chat_id, month)
        )
        return True

    async def ratings(
        self,
        scope: int,
        *,
        game: str | None = None,
        user_id: int | None = None,
        players: Sequence[tuple[int, str]] | None = None,
    ) -> list[RatingRow]:
        where: list[str] = ["r.scope = ?"]
        params: list[Any] = [scope]
        if game is not None:
            where.append("r.game = ?")
            params.append(game)
        if user_id is not None:
            where.append("r.user_id = ?")
            params.append(user_id)
        if players is not None:  # a match's seats: read only theirs (never a whole scope)
            if not players:
                return []
            where.append(
                "(" + " OR ".join(["(r.user_id = ? AND r.level = ?)"] * len(players)) + ")"
            )
            params += [v for player in players for v in player]
        by_bytes = self.runner.dialect.by_bytes
        rows = await self.runner.all(
            f"SELECT {_RATING_COLUMNS} FROM ratings r LEFT JOIN users u ON u.id = r.user_id"
            f" WHERE {' AND '.join(where)} ORDER BY r.game{by_bytes},"
            f" r.mu - 3 * r.sigma DESC, r.games DESC, r.user_id, r.level{by_bytes}",
            params,
        )
        return [rating_row(r) for r in rows]

    async def put_rating(self, row: RatingRow) -> None:
        await self.runner.run(
            _PUT_RATING,
            (
                row.scope,
                row.game,
                row.user_id,
                row.level,
                row.mu,
                row.sigma,
                row.games,
                row.solo,
                row.won,
                row.money,
            ),
        )

    async def clear_ratings(self) -> None:
        """Forget every rating (a rebuild computes them again from ``results``)."""
        await self.runner.run("DELETE FROM ratings")

    async def migrate_ratings(self, old: int, new: int) -> None:
        """A group became a supergroup: its results and ratings follow the new id (a new id
        has none of its own: a chat's history starts with its first finished game)."""
        await self.runner.run("UPDATE results SET chat_id = ? WHERE chat_id = ?", (new, old))
        await self.runner.run(
            "DELETE FROM ratings WHERE scope = ?"
            " AND EXISTS (SELECT 1 FROM ratings WHERE scope = ?)",
            (new, old),
        )
        await self.runner.run("UPDATE ratings SET scope = ? WHERE scope = ?", (new, old))
        await self.runner.run(  # the seasons it was told follow it (never told twice)
            "UPDATE seasons_told SET chat_id = ? WHERE chat_id = ?"
            " AND NOT EXISTS (SELECT 1 FROM seasons_told WHERE chat_id = ?)",
            (new, old, new),
        )
