"""The statements of the tables, their seats and their hand messages, shared by both
backends."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Unpack

from bot.storage.rows import (
    OPEN_SQL,
    T_COLUMNS,
    TABLE_COLUMNS,
    TABLE_FIELDS,
    Bar,
    HandRow,
    Row,
    SeatKind,
    SeatMarks,
    SeatRow,
    SeatSpec,
    TableFields,
    TableRow,
    table_row,
)
from bot.storage.runner import Runner, where

_SEAT_COLUMNS = (
    "seat, kind, user_id, name, away, level, expiries, barred, noticed, toggled_at, private,"
    " agreed, cards_at"
)


def seat_row(r: Row) -> SeatRow:
    """A ``seats`` row (either backend's, by column name) as a :class:`SeatRow`."""
    return SeatRow(
        r["seat"],
        r["user_id"],
        r["name"],
        bool(r["away"]),
        SeatKind(r["kind"]),
        r["level"],
        r["expiries"],
        Bar(r["barred"]),
        int(r["noticed"]),
        float(r["toggled_at"]),
        bool(r["private"]),
        bool(r["agreed"]),
        float(r["cards_at"]),
    )


class TableStatements:
    """The tables', seats' and hand messages' statements, run by the runner given."""

    def __init__(self, runner: Runner) -> None:
        self.runner = runner

    # --- tables ------------------------------------------------------------------------

    async def create_table(
        self,
        chat_id: int,
        game: str,
        options: dict[str, Any],
        creator: int,
        code: str,
        now: float,
        thread_id: int | None = None,
    ) -> int:
        return await self.runner.insert(
            "INSERT INTO tables(chat_id, game, options, status, creator_id, join_code, "
            "created_at, thread_id) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?)",
            (chat_id, game, json.dumps(options), creator, code, now, thread_id),
        )

    async def table(self, table_id: int) -> TableRow | None:
        row = await self.runner.one(f"SELECT {TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,))
        return table_row(row) if row else None

    async def open_table(self, chat_id: int, thread_id: int | None = None) -> TableRow | None:
        same = self.runner.dialect.same  # thread_id may be NULL on either side
        row = await self.runner.one(
            f"SELECT {TABLE_COLUMNS} FROM tables WHERE chat_id = ?"
            f" AND thread_id {same} ? AND status IN {OPEN_SQL} ORDER BY id DESC LIMIT 1",
            (chat_id, thread_id),
        )
        return table_row(row) if row else None

    async def open_tables(self, chat_id: int | None = None) -> list[TableRow]:
        where = "" if chat_id is None else " AND chat_id = ?"
        rows = await self.runner.all(
            f"SELECT {TABLE_COLUMNS} FROM tables WHERE status IN {OPEN_SQL}{where} ORDER BY id",
            () if chat_id is None else (chat_id,),
        )
        return [table_row(r) for r in rows]

    async def update_table(self, table_id: int, **fields: Unpack[TableFields]) -> None:
        if not fields or not set(fields) <= TABLE_FIELDS:
            raise ValueError(f"bad table fields {sorted(fields)}")
        values = [json.dumps(v) if k == "options" else v for k, v in fields.items()]
        assignments = ", ".join(f"{k} = ?" for k in fields)
        await self.runner.run(f"UPDATE tables SET {assignments} WHERE id = ?", (*values, table_id))

    async def tables_of_user(self, user_id: int) -> list[TableRow]:
        rows = await self.runner.all(
            f"SELECT {T_COLUMNS} FROM tables t JOIN seats s ON s.table_id = t.id"
            f" WHERE s.user_id = ? AND t.status IN {OPEN_SQL} ORDER BY t.id",
            (user_id,),
        )
        return [table_row(r) for r in rows]

    async def tables(
        self, *, chat_id: int | None = None, user_id: int | None = None
    ) -> list[TableRow]:
        clause, params = where(
            [
                ("t.chat_id = ?", chat_id),
                ("t.id IN (SELECT table_id FROM seats WHERE user_id = ?)", user_id),
            ]
        )
        sql = f"SELECT {T_COLUMNS} FROM tables t {clause} ORDER BY t.id DESC"
        return [table_row(r) for r in await self.runner.all(sql, params)]

    # --- seats -------------------------------------------------------------------------

    async def seats(self, table_id: int) -> list[SeatRow]:
        sql = f"SELECT {_SEAT_COLUMNS} FROM seats WHERE table_id = ? ORDER BY seat"
        return [seat_row(r) for r in await self.runner.all(sql, (table_id,))]

    async def set_away(self, table_id: int, seat: int, away: bool) -> None:
        sql = "UPDATE seats SET away = ? WHERE table_id = ? AND seat = ?"
        await self.runner.run(sql, (away, table_id, seat))

    async def set_expiries(self, table_id: int, seat: int, expiries: int) -> None:
        sql = "UPDATE seats SET expiries = ? WHERE table_id = ? AND seat = ?"
        await self.runner.run(sql, (expiries, table_id, seat))

    async def set_seat_marks(self, table_id: int, seat: int, marks: SeatMarks) -> None:
        await self.runner.run(
            "UPDATE seats SET barred = ?, noticed = ?, toggled_at = ?"
            " WHERE table_id = ? AND seat = ?",
            (marks.barred.value, marks.noticed, marks.toggled_at, table_id, seat),
        )

    async def set_agreed(self, table_id: int, seat: int | None, agreed: bool) -> None:
        """The seat's person agreed to close the running table (``seat`` None: every seat of
        the table, e.g. the question went)."""
        if seat is None:
            sql = "UPDATE seats SET agreed = ? WHERE table_id = ?"
            await self.runner.run(sql, (agreed, table_id))
            return
        sql = "UPDATE seats SET agreed = ? WHERE table_id = ? AND seat = ?"
        await self.runner.run(sql, (agreed, table_id, seat))

    async def set_seat_private(self, table_id: int, seat: int) -> None:
        sql = "UPDATE seats SET private = ? WHERE table_id = ? AND seat = ?"
        await self.runner.run(sql, (True, table_id, seat))

    async def replace_seats(self, table_id: int, seats: Sequence[SeatSpec]) -> None:
        await self.runner.run("DELETE FROM seats WHERE table_id = ?", (table_id,))
        for index, (kind, user_id, name, *level) in enumerate(seats):
            await self.runner.run(
                "INSERT INTO seats(table_id, seat, kind, user_id, name, level)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (table_id, index, kind.value, user_id, name, level[0] if level else "normal"),
            )

    # --- hand messages -----------------------------------------------------------------

    async def hands(self, table_id: int) -> dict[int, HandRow]:
        rows = await self.runner.all(
            "SELECT seat, marks, mode FROM hands WHERE table_id = ?", (table_id,)
        )
        return {r["seat"]: HandRow(r["seat"], r["marks"], r["mode"]) for r in rows}

    async def set_hand_ui(self, table_id: int, seat: int, marks: str, mode: str) -> None:
        await self.runner.run(
            "INSERT INTO hands(table_id, seat, marks, mode) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(table_id, seat) DO UPDATE SET marks = excluded.marks,"
            " mode = excluded.mode",
            (table_id, seat, marks, mode),
        )

    async def clear_hand_ui(self, table_id: int) -> None:
        await self.runner.run("DELETE FROM hands WHERE table_id = ?", (table_id,))
