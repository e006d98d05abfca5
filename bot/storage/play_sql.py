"""The statements of the play, shared by both backends: a table's matches, its action log
(what replays it) and the ledger of finished games."""

from __future__ import annotations

import json

from bot.storage.rows import Decided, LedgerRow, MatchRow, Row, match_row
from bot.storage.runner import Runner, where

_LEDGER_COLUMNS = "l.chat_id, l.game, l.user_id, u.first_name, l.balance, l.played, l.won, l.points"
LEDGER_ADD = (
    " ON CONFLICT(chat_id, game, user_id) DO UPDATE SET"
    " balance = ledger.balance + excluded.balance, played = ledger.played + excluded.played,"
    " won = ledger.won + excluded.won, points = ledger.points + excluded.points"
)
"""What a ledger line's upsert adds to the line already there."""


def ledger_row(r: Row) -> LedgerRow:
    """A ledger line joined with its user's name as a :class:`LedgerRow`."""
    names = ("chat_id", "game", "user_id", "first_name", "balance", "played", "won", "points")
    return LedgerRow(*(r[n] for n in names))


class PlayStatements:
    """The matches', actions' and ledger's statements, run by the runner given."""

    def __init__(self, runner: Runner) -> None:
        self.runner = runner

    # --- matches and the action log ------------------------------------------------------

    async def add_match(
        self, table_id: int, no: int, seed: int, prev_dealer: int | None, first_seq: int
    ) -> None:
        await self.runner.run(
            "INSERT INTO matches(table_id, no, seed, prev_dealer, first_seq)"
            " VALUES (?, ?, ?, ?, ?)",
            (table_id, no, seed, prev_dealer, first_seq),
        )

    async def set_match_drawn(self, table_id: int, no: int, drawn: str | None) -> None:
        sql = "UPDATE matches SET drawn = ? WHERE table_id = ? AND no = ?"
        await self.runner.run(sql, (drawn, table_id, no))

    async def match(self, table_id: int, no: int) -> MatchRow | None:
        row = await self.runner.one(
            "SELECT no, seed, prev_dealer, first_seq, net, drawn FROM matches"
            " WHERE table_id = ? AND no = ?",
            (table_id, no),
        )
        return match_row(row) if row is not None else None

    async def matches(self, table_id: int) -> list[MatchRow]:
        rows = await self.runner.all(
            "SELECT no, seed, prev_dealer, first_seq, net, drawn FROM matches WHERE table_id = ?"
            " ORDER BY no",
            (table_id,),
        )
        return [match_row(r) for r in rows]

    async def finished_matches(self, user_id: int, game: str) -> int:
        row = await self.runner.one(
            "SELECT COUNT(*) AS n FROM matches m JOIN tables t ON t.id = m.table_id"
            " JOIN seats s ON s.table_id = m.table_id"
            " WHERE s.user_id = ? AND t.game = ? AND m.net IS NOT NULL",
            (user_id, game),
        )
        return int(row["n"]) if row is not None else 0

    async def set_match_net(self, table_id: int, no: int, net: list[int]) -> None:
        sql = "UPDATE matches SET net = ? WHERE table_id = ? AND no = ?"
        await self.runner.run(sql, (json.dumps(net), table_id, no))

    async def add_action(
        self,
        table_id: int,
        seq: int,
        seat: int,
        action: str,
        drawn: str | None = None,
        stand_in: str = "",
    ) -> None:
        """Log one action (``stand_in``: the level of the computer that decided it for the
        seat's person, "" his own); the primary key makes a second insert at ``seq`` fail."""
        await self.runner.run(
            "INSERT INTO actions(table_id, seq, seat, action, drawn, stand_in)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (table_id, seq, seat, action, drawn, stand_in),
        )

    async def deciders(self, table_id: int, from_seq: int) -> list[Decided]:
        """Who decided the actions from ``from_seq`` on (a match's), counted per seat."""
        by_bytes = self.runner.dialect.by_bytes
        rows = await self.runner.all(
            "SELECT seat, stand_in, COUNT(*) AS n FROM actions WHERE table_id = ? AND seq >= ?"
            f" GROUP BY seat, stand_in ORDER BY seat, stand_in{by_bytes}",
            (table_id, from_seq),
        )
        return [Decided(r["seat"], r["stand_in"], int(r["n"])) for r in rows]

    async def actions(self, table_id: int, from_seq: int) -> list[tuple[int, str]]:
        rows = await self.runner.all(
            "SELECT seat, action FROM actions WHERE table_id = ? AND seq >= ? ORDER BY seq",
            (table_id, from_seq),
        )
        return [(r["seat"], r["action"]) for r in rows]

    async def draws(self, table_id: int, from_seq: int) -> list[tuple[int, str]]:
        rows = await self.runner.all(
            "SELECT seq, drawn FROM actions WHERE table_id = ? AND seq >= ?"
            " AND drawn IS NOT NULL ORDER BY seq",
            (table_id, from_seq),
        )
        return [(r["seq"], r["drawn"]) for r in rows]

    # --- ledger ------------------------------------------------------------------------

    async def book(
        self, chat_id: int, game: str, user_id: int, money: int, won: bool, points: int = 0
    ) -> None:
        await self.runner.run(
            "INSERT INTO ledger(chat_id, game, user_id, balance, played, won, points)"
            " VALUES (?, ?, ?, ?, 1, ?, ?)" + LEDGER_ADD,
            (chat_id, game, user_id, money, int(won), points),
        )

    async def ledger(
        self, *, chat_id: int | None = None, user_id: int | None = None
    ) -> list[LedgerRow]:
        clause, params = where([("l.chat_id = ?", chat_id), ("l.user_id = ?", user_id)])
        by_bytes = self.runner.dialect.by_bytes
        rows = await self.runner.all(  # names that tie sort by their bytes, in both backends
            f"SELECT {_LEDGER_COLUMNS} FROM ledger l JOIN users u ON u.id = l.user_id {clause}"
            f" ORDER BY l.game{by_bytes}, l.balance DESC, l.won DESC, u.first_name{by_bytes}",
            params,
        )
        return [ledger_row(r) for r in rows]
