"""Every SQL statement of the bot that SQLite and PostgreSQL share, written once.

Statements use ``?`` parameters (PostgreSQL's subclass numbers them ``$1, $2, …``) and the SQL
both backends speak (``ON CONFLICT``, ``TRUE``/``FALSE``); the few words that differ are class
attributes. A subclass says how a statement runs: :meth:`_all`, :meth:`_one` read; :meth:`_run`
writes as part of the current unit of work; :meth:`_write` and :meth:`_write_one` write on their
own, committed when they return (SQLite commits a group of them together); :meth:`_insert`
returns the new row's id. Rows come back as the frozen dataclasses of :mod:`bot.storage.rows`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, ClassVar, Unpack

from bot.storage.outbox_sql import OutboxStatements
from bot.storage.pacing_sql import PacingStatements
from bot.storage.ratings_sql import RatingStatements
from bot.storage.rows import (
    OPEN_SQL,
    T_COLUMNS,
    TABLE_COLUMNS,
    TABLE_FIELDS,
    Bar,
    ChatRow,
    Deadline,
    Decided,
    HandRow,
    LedgerRow,
    MatchRow,
    Row,
    SeatKind,
    SeatMarks,
    SeatRow,
    SeatSpec,
    TableFields,
    TableRow,
    UserRow,
    deadline_row,
    match_row,
    table_row,
)
from bot.storage.settings import ChatSettings, UserSettings, chat_settings, user_settings

_SEAT_COLUMNS = (
    "seat, kind, user_id, name, away, level, expiries, barred, noticed, toggled_at, private,"
    " agreed, cards_at"
)
_LEDGER_COLUMNS = "l.chat_id, l.game, l.user_id, u.first_name, l.balance, l.played, l.won, l.points"
_LEDGER_ADD = (
    " ON CONFLICT(chat_id, game, user_id) DO UPDATE SET"
    " balance = ledger.balance + excluded.balance, played = ledger.played + excluded.played,"
    " won = ledger.won + excluded.won, points = ledger.points + excluded.points"
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


def ledger_row(r: Row) -> LedgerRow:
    """A ledger line joined with its user's name as a :class:`LedgerRow`."""
    names = ("chat_id", "game", "user_id", "first_name", "balance", "played", "won", "points")
    return LedgerRow(*(r[n] for n in names))


def _where(conditions: Sequence[tuple[str, int | None]]) -> tuple[str, list[int]]:
    """A ``WHERE`` clause of the conditions whose value is given, and those values."""
    given = [(sql, value) for sql, value in conditions if value is not None]
    clause = ("WHERE " + " AND ".join(sql for sql, _ in given)) if given else ""
    return clause, [value for _, value in given]


class SqlStatements(OutboxStatements, RatingStatements, PacingStatements):
    """The shared statements; the subclass runs them on its connection."""

    SAME: ClassVar[str] = "IS"  # null-safe equality
    BYTES: ClassVar[str] = ""  # the collation that sorts text by its bytes (SQLite's default)

    # _all, _one, _run, _write: :class:`OutboxStatements`'s

    async def _write_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        raise NotImplementedError

    async def _insert(self, sql: str, params: Sequence[Any]) -> int:
        raise NotImplementedError

    # --- chats and users ---------------------------------------------------------------

    async def upsert_chat(self, chat_id: int, title: str) -> None:
        await self._run(
            "INSERT INTO chats(id, title) VALUES (?, ?) "
            "ON CONFLICT(id) DO UPDATE SET title = excluded.title",
            (chat_id, title),
        )

    async def chat(self, chat_id: int) -> ChatRow | None:
        sql = "SELECT id, title, language, settings FROM chats WHERE id = ?"
        row = await self._one(sql, (chat_id,))
        if row is None:
            return None
        settings = chat_settings(row["settings"], chat_id)
        return ChatRow(row["id"], row["title"], row["language"], settings)

    async def set_chat_settings(self, chat_id: int, settings: ChatSettings) -> None:
        text = settings.model_dump_json(exclude_defaults=True)
        await self._run("UPDATE chats SET settings = ? WHERE id = ?", (text, chat_id))

    async def set_user_settings(self, user_id: int, settings: UserSettings) -> None:
        text = settings.model_dump_json(exclude_defaults=True)
        await self._run("UPDATE users SET settings = ? WHERE id = ?", (text, user_id))

    async def set_chat_language(self, chat_id: int, language: str) -> None:
        await self._run("UPDATE chats SET language = ? WHERE id = ?", (language, chat_id))

    async def upsert_user(
        self, user_id: int, first_name: str, username: str | None, language_code: str | None
    ) -> None:
        await self._run(
            "INSERT INTO users(id, first_name, username, language_code) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(id) DO UPDATE SET first_name = excluded.first_name, "
            "username = excluded.username, language_code = excluded.language_code",
            (user_id, first_name, username, language_code),
        )

    async def user(self, user_id: int) -> UserRow | None:
        row = await self._one(
            "SELECT id, first_name, username, language_code, language, private_ok, settings"
            " FROM users WHERE id = ?",
            (user_id,),
        )
        if row is None:
            return None
        return UserRow(
            row["id"],
            row["first_name"],
            row["username"],
            row["language_code"],
            row["language"],
            bool(row["private_ok"]),
            user_settings(row["settings"], user_id),
        )

    async def set_user_language(self, user_id: int, language: str) -> None:
        await self._run("UPDATE users SET language = ? WHERE id = ?", (language, user_id))

    async def set_private_ok(self, user_id: int, ok: bool) -> None:
        await self._run("UPDATE users SET private_ok = ? WHERE id = ?", (ok, user_id))

    async def notified(self, chat_id: int) -> list[int]:
        sql = "SELECT user_id FROM notify WHERE chat_id = ? ORDER BY user_id"
        return [int(r["user_id"]) for r in await self._all(sql, (chat_id,))]

    async def set_notify(self, chat_id: int, user_id: int, on: bool) -> None:
        if on:
            sql = "INSERT INTO notify(chat_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING"
        else:
            sql = "DELETE FROM notify WHERE chat_id = ? AND user_id = ?"
        await self._run(sql, (chat_id, user_id))

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
        return await self._insert(
            "INSERT INTO tables(chat_id, game, options, status, creator_id, join_code, "
            "created_at, thread_id) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?)",
            (chat_id, game, json.dumps(options), creator, code, now, thread_id),
        )

    async def table(self, table_id: int) -> TableRow | None:
        row = await self._one(f"SELECT {TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,))
        return table_row(row) if row else None

    async def open_table(self, chat_id: int, thread_id: int | None = None) -> TableRow | None:
        row = await self._one(
            f"SELECT {TABLE_COLUMNS} FROM tables WHERE chat_id = ?"
            f" AND thread_id {self.SAME} ? AND status IN {OPEN_SQL} ORDER BY id DESC LIMIT 1",
            (chat_id, thread_id),
        )
        return table_row(row) if row else None

    async def open_tables(self, chat_id: int | None = None) -> list[TableRow]:
        where = "" if chat_id is None else " AND chat_id = ?"
        rows = await self._all(
            f"SELECT {TABLE_COLUMNS} FROM tables WHERE status IN {OPEN_SQL}{where} ORDER BY id",
            () if chat_id is None else (chat_id,),
        )
        return [table_row(r) for r in rows]

    async def update_table(self, table_id: int, **fields: Unpack[TableFields]) -> None:
        if not fields or not set(fields) <= TABLE_FIELDS:
            raise ValueError(f"bad table fields {sorted(fields)}")
        values = [json.dumps(v) if k == "options" else v for k, v in fields.items()]
        assignments = ", ".join(f"{k} = ?" for k in fields)
        await self._run(f"UPDATE tables SET {assignments} WHERE id = ?", (*values, table_id))

    async def tables_of_user(self, user_id: int) -> list[TableRow]:
        rows = await self._all(
            f"SELECT {T_COLUMNS} FROM tables t JOIN seats s ON s.table_id = t.id"
            f" WHERE s.user_id = ? AND t.status IN {OPEN_SQL} ORDER BY t.id",
            (user_id,),
        )
        return [table_row(r) for r in rows]

    async def tables(
        self, *, chat_id: int | None = None, user_id: int | None = None
    ) -> list[TableRow]:
        clause, params = _where(
            [
                ("t.chat_id = ?", chat_id),
                ("t.id IN (SELECT table_id FROM seats WHERE user_id = ?)", user_id),
            ]
        )
        sql = f"SELECT {T_COLUMNS} FROM tables t {clause} ORDER BY t.id DESC"
        return [table_row(r) for r in await self._all(sql, params)]

    # --- seats -------------------------------------------------------------------------

    async def seats(self, table_id: int) -> list[SeatRow]:
        sql = f"SELECT {_SEAT_COLUMNS} FROM seats WHERE table_id = ? ORDER BY seat"
        return [seat_row(r) for r in await self._all(sql, (table_id,))]

    async def set_away(self, table_id: int, seat: int, away: bool) -> None:
        sql = "UPDATE seats SET away = ? WHERE table_id = ? AND seat = ?"
        await self._run(sql, (away, table_id, seat))

    async def set_expiries(self, table_id: int, seat: int, expiries: int) -> None:
        sql = "UPDATE seats SET expiries = ? WHERE table_id = ? AND seat = ?"
        await self._run(sql, (expiries, table_id, seat))

    async def set_seat_marks(self, table_id: int, seat: int, marks: SeatMarks) -> None:
        await self._run(
            "UPDATE seats SET barred = ?, noticed = ?, toggled_at = ?"
            " WHERE table_id = ? AND seat = ?",
            (marks.barred.value, marks.noticed, marks.toggled_at, table_id, seat),
        )

    async def set_agreed(self, table_id: int, seat: int | None, agreed: bool) -> None:
        """The seat's person agreed to close the running table (``seat`` None: every seat of
        the table, e.g. the question went)."""
        if seat is None:
            await self._run("UPDATE seats SET agreed = ? WHERE table_id = ?", (agreed, table_id))
            return
        sql = "UPDATE seats SET agreed = ? WHERE table_id = ? AND seat = ?"
        await self._run(sql, (agreed, table_id, seat))

    async def set_seat_private(self, table_id: int, seat: int) -> None:
        sql = "UPDATE seats SET private = ? WHERE table_id = ? AND seat = ?"
        await self._run(sql, (True, table_id, seat))

    async def replace_seats(self, table_id: int, seats: Sequence[SeatSpec]) -> None:
        await self._run("DELETE FROM seats WHERE table_id = ?", (table_id,))
        for index, (kind, user_id, name, *level) in enumerate(seats):
            await self._run(
                "INSERT INTO seats(table_id, seat, kind, user_id, name, level)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (table_id, index, kind.value, user_id, name, level[0] if level else "normal"),
            )

    # --- when the bot was last alive (PRODUCT.md §13: downtime is not counted) ------------

    async def alive_at(self) -> float | None:
        row = await self._one("SELECT at FROM alive WHERE id = 1")
        return float(row["at"]) if row is not None else None

    async def set_alive(self, at: float) -> None:
        await self._run(
            "INSERT INTO alive(id, at) VALUES (1, ?)"
            " ON CONFLICT(id) DO UPDATE SET at = excluded.at",
            (at,),
        )

    async def shift_deadlines(self, by: float) -> None:
        """Every stored deadline ``by`` seconds later (the time the bot was down)."""
        await self._run("UPDATE deadlines SET due_at = due_at + ?", (by,))

    # --- a group became a supergroup ----------------------------------------------------

    async def migrate_chat(self, old: int, new: int) -> bool:
        moved = await self._one(
            "SELECT (SELECT COUNT(*) FROM tables WHERE chat_id = ?)"
            " + (SELECT COUNT(*) FROM ledger WHERE chat_id = ?)"
            " + (SELECT COUNT(*) FROM messages WHERE chat_id = ?) AS n",
            (old, old, old),
        )
        if old == new or moved is None or not moved["n"]:
            return False
        await self._run(
            "INSERT INTO chats(id, title, language, settings) SELECT ?, title, language, settings"
            " FROM chats WHERE id = ? ON CONFLICT(id) DO UPDATE SET"
            " title = CASE WHEN excluded.title != '' THEN excluded.title ELSE chats.title END,"
            " language = COALESCE(excluded.language, chats.language), settings = CASE"
            " WHEN excluded.settings != '{}' THEN excluded.settings ELSE chats.settings END",
            (new, old),
        )
        await self._run("UPDATE tables SET chat_id = ? WHERE chat_id = ?", (new, old))
        await self._run(  # "AND true": SQLite's parser wants a WHERE before an upsert's SELECT
            "INSERT INTO ledger(chat_id, game, user_id, balance, played, won, points)"
            " SELECT ?, game, user_id, balance, played, won, points FROM ledger"
            " WHERE chat_id = ? AND true" + _LEDGER_ADD,
            (new, old),
        )
        await self._run("DELETE FROM ledger WHERE chat_id = ?", (old,))
        await self._run("DELETE FROM messages WHERE chat_id = ?", (old,))
        await self._run("UPDATE owed SET chat_id = ? WHERE chat_id = ?", (new, old))  # #36
        await self.migrate_ratings(old, new)  # #35
        return True

    # --- updates already taken (a redelivered update acts once) ---------------------------

    async def claim_update(self, update_id: int, at: float) -> bool:
        """True the first time ``update_id`` is claimed, False for a repeat (one statement)."""
        row = await self._write_one(
            "INSERT INTO updates(update_id, seen_at) VALUES (?, ?) "
            "ON CONFLICT(update_id) DO NOTHING RETURNING update_id",
            (update_id, at),
        )
        return row is not None

    async def prune_updates(self, before: float) -> None:
        await self._write("DELETE FROM updates WHERE seen_at < ?", (before,))

    # --- matches and the action log ------------------------------------------------------

    async def add_match(
        self, table_id: int, no: int, seed: int, prev_dealer: int | None, first_seq: int
    ) -> None:
        await self._run(
            "INSERT INTO matches(table_id, no, seed, prev_dealer, first_seq)"
            " VALUES (?, ?, ?, ?, ?)",
            (table_id, no, seed, prev_dealer, first_seq),
        )

    async def set_match_drawn(self, table_id: int, no: int, drawn: str | None) -> None:
        sql = "UPDATE matches SET drawn = ? WHERE table_id = ? AND no = ?"
        await self._run(sql, (drawn, table_id, no))

    async def match(self, table_id: int, no: int) -> MatchRow | None:
        row = await self._one(
            "SELECT no, seed, prev_dealer, first_seq, net, drawn FROM matches"
            " WHERE table_id = ? AND no = ?",
            (table_id, no),
        )
        return match_row(row) if row is not None else None

    async def matches(self, table_id: int) -> list[MatchRow]:
        rows = await self._all(
            "SELECT no, seed, prev_dealer, first_seq, net, drawn FROM matches WHERE table_id = ?"
            " ORDER BY no",
            (table_id,),
        )
        return [match_row(r) for r in rows]

    async def set_match_net(self, table_id: int, no: int, net: list[int]) -> None:
        sql = "UPDATE matches SET net = ? WHERE table_id = ? AND no = ?"
        await self._run(sql, (json.dumps(net), table_id, no))

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
        await self._run(
            "INSERT INTO actions(table_id, seq, seat, action, drawn, stand_in)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (table_id, seq, seat, action, drawn, stand_in),
        )

    async def deciders(self, table_id: int, from_seq: int) -> list[Decided]:
        """Who decided the actions from ``from_seq`` on (a match's), counted per seat."""
        rows = await self._all(
            "SELECT seat, stand_in, COUNT(*) AS n FROM actions WHERE table_id = ? AND seq >= ?"
            f" GROUP BY seat, stand_in ORDER BY seat, stand_in{self.BYTES}",
            (table_id, from_seq),
        )
        return [Decided(r["seat"], r["stand_in"], int(r["n"])) for r in rows]

    async def actions(self, table_id: int, from_seq: int) -> list[tuple[int, str]]:
        rows = await self._all(
            "SELECT seat, action FROM actions WHERE table_id = ? AND seq >= ? ORDER BY seq",
            (table_id, from_seq),
        )
        return [(r["seat"], r["action"]) for r in rows]

    async def draws(self, table_id: int, from_seq: int) -> list[tuple[int, str]]:
        rows = await self._all(
            "SELECT seq, drawn FROM actions WHERE table_id = ? AND seq >= ?"
            " AND drawn IS NOT NULL ORDER BY seq",
            (table_id, from_seq),
        )
        return [(r["seq"], r["drawn"]) for r in rows]

    # --- hand messages -----------------------------------------------------------------

    async def hands(self, table_id: int) -> dict[int, HandRow]:
        rows = await self._all(
            "SELECT seat, marks, mode FROM hands WHERE table_id = ?", (table_id,)
        )
        return {r["seat"]: HandRow(r["seat"], r["marks"], r["mode"]) for r in rows}

    async def set_hand_ui(self, table_id: int, seat: int, marks: str, mode: str) -> None:
        await self._run(
            "INSERT INTO hands(table_id, seat, marks, mode) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(table_id, seat) DO UPDATE SET marks = excluded.marks,"
            " mode = excluded.mode",
            (table_id, seat, marks, mode),
        )

    async def clear_hand_ui(self, table_id: int) -> None:
        await self._run("DELETE FROM hands WHERE table_id = ?", (table_id,))

    # --- ledger ------------------------------------------------------------------------

    async def book(
        self, chat_id: int, game: str, user_id: int, money: int, won: bool, points: int = 0
    ) -> None:
        await self._run(
            "INSERT INTO ledger(chat_id, game, user_id, balance, played, won, points)"
            " VALUES (?, ?, ?, ?, 1, ?, ?)" + _LEDGER_ADD,
            (chat_id, game, user_id, money, int(won), points),
        )

    async def ledger(
        self, *, chat_id: int | None = None, user_id: int | None = None
    ) -> list[LedgerRow]:
        clause, params = _where([("l.chat_id = ?", chat_id), ("l.user_id = ?", user_id)])
        rows = await self._all(  # names that tie sort by their bytes, in both backends
            f"SELECT {_LEDGER_COLUMNS} FROM ledger l JOIN users u ON u.id = l.user_id {clause}"
            f" ORDER BY l.game{self.BYTES}, l.balance DESC, l.won DESC, u.first_name{self.BYTES}",
            params,
        )
        return [ledger_row(r) for r in rows]

    # --- deadlines ---------------------------------------------------------------------

    async def deadlines(self, table_id: int | None = None) -> list[Deadline]:
        sql = "SELECT table_id, kind, due_at, moves FROM deadlines"
        rows = await (
            self._all(sql + " WHERE table_id = ?", (table_id,))
            if table_id is not None
            else self._all(sql)
        )
        return [deadline_row(r) for r in rows]

    async def put_deadline(self, deadline: Deadline) -> None:
        await self._run(
            "INSERT INTO deadlines(table_id, kind, due_at, moves) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(table_id, kind) DO UPDATE SET due_at = excluded.due_at, "
            "moves = excluded.moves",
            (deadline.table_id, deadline.kind, deadline.due_at, deadline.moves),
        )

    async def drop_deadline(self, table_id: int, kind: str) -> None:
        sql = "DELETE FROM deadlines WHERE table_id = ? AND kind = ?"
        await self._run(sql, (table_id, kind))
