"""Every statement of the PostgreSQL repository, in PostgreSQL's words (``$n`` parameters,
``ON CONFLICT DO NOTHING``, ``RETURNING``) and with :mod:`bot.storage.sqlite`'s semantics.

:class:`Statements` says only what runs; :mod:`bot.storage.postgres` says on which connection
(the pool, or a unit of work's transaction).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Unpack

import asyncpg

from bot.storage.rows import (
    OPEN_SQL,
    T_COLUMNS,
    TABLE_COLUMNS,
    TABLE_FIELDS,
    Bar,
    ChatRow,
    Deadline,
    HandRow,
    LedgerRow,
    MatchRow,
    SeatKind,
    SeatMarks,
    SeatRow,
    SeatSpec,
    StoredMessage,
    TableFields,
    TableRow,
    UserRow,
    deadline_row,
    match_row,
    table_row,
)
from bot.storage.settings import ChatSettings, UserSettings, chat_settings, user_settings

Record = asyncpg.Record


class Statements:
    """Every statement; the subclass says which connection runs it."""

    async def _all(self, sql: str, *args: Any) -> list[Record]:
        raise NotImplementedError

    async def _one(self, sql: str, *args: Any) -> Record | None:
        raise NotImplementedError

    async def _run(self, sql: str, *args: Any) -> None:
        raise NotImplementedError

    # --- chats and users ---------------------------------------------------------------

    async def upsert_chat(self, chat_id: int, title: str) -> None:
        await self._run(
            "INSERT INTO chats(id, title) VALUES ($1, $2) "
            "ON CONFLICT(id) DO UPDATE SET title = excluded.title",
            chat_id,
            title,
        )

    async def chat(self, chat_id: int) -> ChatRow | None:
        row = await self._one(
            "SELECT id, title, language, settings FROM chats WHERE id = $1", chat_id
        )
        if row is None:
            return None
        settings = chat_settings(row["settings"], chat_id)
        return ChatRow(row["id"], row["title"], row["language"], settings)

    async def set_chat_settings(self, chat_id: int, settings: ChatSettings) -> None:
        text = settings.model_dump_json(exclude_defaults=True)
        await self._run("UPDATE chats SET settings = $1 WHERE id = $2", text, chat_id)

    async def set_user_settings(self, user_id: int, settings: UserSettings) -> None:
        text = settings.model_dump_json(exclude_defaults=True)
        await self._run("UPDATE users SET settings = $1 WHERE id = $2", text, user_id)

    async def set_chat_language(self, chat_id: int, language: str) -> None:
        await self._run("UPDATE chats SET language = $1 WHERE id = $2", language, chat_id)

    async def upsert_user(
        self, user_id: int, first_name: str, username: str | None, language_code: str | None
    ) -> None:
        await self._run(
            "INSERT INTO users(id, first_name, username, language_code) VALUES ($1, $2, $3, $4) "
            "ON CONFLICT(id) DO UPDATE SET first_name = excluded.first_name, "
            "username = excluded.username, language_code = excluded.language_code",
            user_id,
            first_name,
            username,
            language_code,
        )

    async def user(self, user_id: int) -> UserRow | None:
        row = await self._one(
            "SELECT id, first_name, username, language_code, language, private_ok, settings"
            " FROM users WHERE id = $1",
            user_id,
        )
        if row is None:
            return None
        return UserRow(
            row["id"],
            row["first_name"],
            row["username"],
            row["language_code"],
            row["language"],
            row["private_ok"],
            user_settings(row["settings"], user_id),
        )

    async def set_user_language(self, user_id: int, language: str) -> None:
        await self._run("UPDATE users SET language = $1 WHERE id = $2", language, user_id)

    async def set_private_ok(self, user_id: int, ok: bool) -> None:
        await self._run("UPDATE users SET private_ok = $1 WHERE id = $2", ok, user_id)

    async def notified(self, chat_id: int) -> list[int]:
        rows = await self._all(
            "SELECT user_id FROM notify WHERE chat_id = $1 ORDER BY user_id", chat_id
        )
        return [int(r["user_id"]) for r in rows]

    async def set_notify(self, chat_id: int, user_id: int, on: bool) -> None:
        if on:
            await self._run(
                "INSERT INTO notify(chat_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                chat_id,
                user_id,
            )
        else:
            await self._run(
                "DELETE FROM notify WHERE chat_id = $1 AND user_id = $2", chat_id, user_id
            )

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
        row = await self._one(
            "INSERT INTO tables(chat_id, game, options, status, creator_id, join_code, "
            "created_at, thread_id) VALUES ($1, $2, $3, 'lobby', $4, $5, $6, $7) RETURNING id",
            chat_id,
            game,
            json.dumps(options),
            creator,
            code,
            now,
            thread_id,
        )
        assert row is not None
        return int(row["id"])

    async def table(self, table_id: int) -> TableRow | None:
        row = await self._one(f"SELECT {TABLE_COLUMNS} FROM tables WHERE id = $1", table_id)
        return table_row(row) if row else None

    async def open_table(self, chat_id: int, thread_id: int | None = None) -> TableRow | None:
        row = await self._one(
            f"SELECT {TABLE_COLUMNS} FROM tables WHERE chat_id = $1"
            f" AND thread_id IS NOT DISTINCT FROM $2 AND status IN {OPEN_SQL}"
            " ORDER BY id DESC LIMIT 1",
            chat_id,
            thread_id,
        )
        return table_row(row) if row else None

    async def open_tables(self, chat_id: int | None = None) -> list[TableRow]:
        if chat_id is None:
            rows = await self._all(
                f"SELECT {TABLE_COLUMNS} FROM tables WHERE status IN {OPEN_SQL} ORDER BY id"
            )
        else:
            rows = await self._all(
                f"SELECT {TABLE_COLUMNS} FROM tables WHERE status IN {OPEN_SQL} AND chat_id = $1"
                " ORDER BY id",
                chat_id,
            )
        return [table_row(r) for r in rows]

    async def update_table(self, table_id: int, **fields: Unpack[TableFields]) -> None:
        if not fields or not set(fields) <= TABLE_FIELDS:
            raise ValueError(f"bad table fields {sorted(fields)}")
        values = [json.dumps(v) if k == "options" else v for k, v in fields.items()]
        assignments = ", ".join(f"{k} = ${i}" for i, k in enumerate(fields, start=1))
        await self._run(
            f"UPDATE tables SET {assignments} WHERE id = ${len(fields) + 1}", *values, table_id
        )

    async def tables_of_user(self, user_id: int) -> list[TableRow]:
        rows = await self._all(
            f"SELECT {T_COLUMNS} FROM tables t JOIN seats s ON s.table_id = t.id"
            f" WHERE s.user_id = $1 AND t.status IN {OPEN_SQL} ORDER BY t.id",
            user_id,
        )
        return [table_row(r) for r in rows]

    async def tables(
        self, *, chat_id: int | None = None, user_id: int | None = None
    ) -> list[TableRow]:
        where: list[str] = []
        params: list[int] = []
        if chat_id is not None:
            params.append(chat_id)
            where.append(f"t.chat_id = ${len(params)}")
        if user_id is not None:
            params.append(user_id)
            where.append(f"t.id IN (SELECT table_id FROM seats WHERE user_id = ${len(params)})")
        clause = ("WHERE " + " AND ".join(where)) if where else ""
        rows = await self._all(
            f"SELECT {T_COLUMNS} FROM tables t {clause} ORDER BY t.id DESC", *params
        )
        return [table_row(r) for r in rows]

    # --- seats -------------------------------------------------------------------------

    async def seats(self, table_id: int) -> list[SeatRow]:
        rows = await self._all(
            "SELECT seat, kind, user_id, name, away, level, expiries, barred, noticed, toggled_at"
            " FROM seats"
            " WHERE table_id = $1 ORDER BY seat",
            table_id,
        )
        return [
            SeatRow(
                r["seat"],
                r["user_id"],
                r["name"],
                r["away"],
                SeatKind(r["kind"]),
                r["level"],
                r["expiries"],
                Bar(r["barred"]),
                int(r["noticed"]),
                float(r["toggled_at"]),
            )
            for r in rows
        ]

    async def set_away(self, table_id: int, seat: int, away: bool) -> None:
        await self._run(
            "UPDATE seats SET away = $1 WHERE table_id = $2 AND seat = $3", away, table_id, seat
        )

    async def set_expiries(self, table_id: int, seat: int, expiries: int) -> None:
        await self._run(
            "UPDATE seats SET expiries = $1 WHERE table_id = $2 AND seat = $3",
            expiries,
            table_id,
            seat,
        )

    async def set_seat_marks(self, table_id: int, seat: int, marks: SeatMarks) -> None:
        await self._run(
            "UPDATE seats SET barred = $1, noticed = $2, toggled_at = $3"
            " WHERE table_id = $4 AND seat = $5",
            *(marks.barred.value, marks.noticed, marks.toggled_at, table_id, seat),
        )

    async def replace_seats(self, table_id: int, seats: Sequence[SeatSpec]) -> None:
        await self._run("DELETE FROM seats WHERE table_id = $1", table_id)
        for index, (kind, user_id, name, *level) in enumerate(seats):
            await self._run(
                "INSERT INTO seats(table_id, seat, kind, user_id, name, level)"
                " VALUES ($1, $2, $3, $4, $5, $6)",
                table_id,
                index,
                kind.value,
                user_id,
                name,
                level[0] if level else "normal",
            )

    # --- when the bot was last alive (PRODUCT.md §13: downtime is not counted) ------------

    async def alive_at(self) -> float | None:
        row = await self._one("SELECT at FROM alive WHERE id = 1")
        return float(row["at"]) if row is not None else None

    async def set_alive(self, at: float) -> None:
        await self._run(
            "INSERT INTO alive(id, at) VALUES (1, $1)"
            " ON CONFLICT(id) DO UPDATE SET at = excluded.at",
            at,
        )

    async def shift_deadlines(self, by: float) -> None:
        """Every stored deadline ``by`` seconds later (the time the bot was down)."""
        await self._run("UPDATE deadlines SET due_at = due_at + $1", by)

    # --- a group became a supergroup ----------------------------------------------------

    async def migrate_chat(self, old: int, new: int) -> bool:
        moved = await self._one(
            "SELECT (SELECT COUNT(*) FROM tables WHERE chat_id = $1)"
            " + (SELECT COUNT(*) FROM ledger WHERE chat_id = $1)"
            " + (SELECT COUNT(*) FROM messages WHERE chat_id = $1) AS n",
            old,
        )
        if old == new or moved is None or not moved["n"]:
            return False
        await self._run(
            "INSERT INTO chats(id, title, language, settings) SELECT $1, title, language,"
            " settings FROM chats WHERE id = $2 ON CONFLICT(id) DO UPDATE SET"
            " title = CASE WHEN excluded.title != '' THEN excluded.title ELSE chats.title END,"
            " language = COALESCE(excluded.language, chats.language), settings = CASE"
            " WHEN excluded.settings != '{}' THEN excluded.settings ELSE chats.settings END",
            new,
            old,
        )
        await self._run("UPDATE tables SET chat_id = $1 WHERE chat_id = $2", new, old)
        await self._run(
            "INSERT INTO ledger(chat_id, game, user_id, balance, played, won, points)"
            " SELECT $1, game, user_id, balance, played, won, points FROM ledger"
            " WHERE chat_id = $2 ON CONFLICT(chat_id, game, user_id) DO UPDATE SET"
            " balance = ledger.balance + excluded.balance,"
            " played = ledger.played + excluded.played, won = ledger.won + excluded.won,"
            " points = ledger.points + excluded.points",
            new,
            old,
        )
        await self._run("DELETE FROM ledger WHERE chat_id = $1", old)
        await self._run("DELETE FROM messages WHERE chat_id = $1", old)
        return True

    # --- updates already taken (a redelivered update acts once) ---------------------------

    async def claim_update(self, update_id: int, at: float) -> bool:
        """True the first time ``update_id`` is claimed, False for a repeat (one statement)."""
        row = await self._one(
            "INSERT INTO updates(update_id, seen_at) VALUES ($1, $2) "
            "ON CONFLICT(update_id) DO NOTHING RETURNING update_id",
            update_id,
            at,
        )
        return row is not None

    async def prune_updates(self, before: float) -> None:
        await self._run("DELETE FROM updates WHERE seen_at < $1", before)

    # --- matches and the action log ------------------------------------------------------

    async def add_match(
        self, table_id: int, no: int, seed: int, prev_dealer: int | None, first_seq: int
    ) -> None:
        await self._run(
            "INSERT INTO matches(table_id, no, seed, prev_dealer, first_seq)"
            " VALUES ($1, $2, $3, $4, $5)",
            *(table_id, no, seed, prev_dealer, first_seq),
        )

    async def set_match_drawn(self, table_id: int, no: int, drawn: str | None) -> None:
        sql = "UPDATE matches SET drawn = $1 WHERE table_id = $2 AND no = $3"
        await self._run(sql, drawn, table_id, no)

    async def match(self, table_id: int, no: int) -> MatchRow | None:
        row = await self._one(
            "SELECT no, seed, prev_dealer, first_seq, net, drawn FROM matches"
            " WHERE table_id = $1 AND no = $2",
            table_id,
            no,
        )
        return match_row(row) if row is not None else None

    async def matches(self, table_id: int) -> list[MatchRow]:
        rows = await self._all(
            "SELECT no, seed, prev_dealer, first_seq, net, drawn FROM matches WHERE table_id = $1"
            " ORDER BY no",
            table_id,
        )
        return [match_row(r) for r in rows]

    async def set_match_net(self, table_id: int, no: int, net: list[int]) -> None:
        await self._run(
            "UPDATE matches SET net = $1 WHERE table_id = $2 AND no = $3",
            json.dumps(net),
            table_id,
            no,
        )

    async def add_action(
        self, table_id: int, seq: int, seat: int, action: str, drawn: str | None = None
    ) -> None:
        """Log one action; the primary key makes a second insert at ``seq`` fail."""
        await self._run(
            "INSERT INTO actions(table_id, seq, seat, action, drawn) VALUES ($1, $2, $3, $4, $5)",
            *(table_id, seq, seat, action, drawn),
        )

    async def actions(self, table_id: int, from_seq: int) -> list[tuple[int, str]]:
        rows = await self._all(
            "SELECT seat, action FROM actions WHERE table_id = $1 AND seq >= $2 ORDER BY seq",
            table_id,
            from_seq,
        )
        return [(r["seat"], r["action"]) for r in rows]

    async def draws(self, table_id: int, from_seq: int) -> list[tuple[int, str]]:
        rows = await self._all(
            "SELECT seq, drawn FROM actions WHERE table_id = $1 AND seq >= $2"
            " AND drawn IS NOT NULL ORDER BY seq",
            *(table_id, from_seq),
        )
        return [(r["seq"], r["drawn"]) for r in rows]

    # --- hand messages -----------------------------------------------------------------

    async def hands(self, table_id: int) -> dict[int, HandRow]:
        rows = await self._all("SELECT seat, marks, mode FROM hands WHERE table_id = $1", table_id)
        return {r["seat"]: HandRow(r["seat"], r["marks"], r["mode"]) for r in rows}

    async def set_hand_ui(self, table_id: int, seat: int, marks: str, mode: str) -> None:
        await self._run(
            "INSERT INTO hands(table_id, seat, marks, mode) VALUES ($1, $2, $3, $4) "
            "ON CONFLICT(table_id, seat) DO UPDATE SET marks = excluded.marks,"
            " mode = excluded.mode",
            table_id,
            seat,
            marks,
            mode,
        )

    async def clear_hand_ui(self, table_id: int) -> None:
        await self._run("DELETE FROM hands WHERE table_id = $1", table_id)

    # --- ledger ------------------------------------------------------------------------

    async def book(
        self, chat_id: int, game: str, user_id: int, money: int, won: bool, points: int = 0
    ) -> None:
        await self._run(
            "INSERT INTO ledger(chat_id, game, user_id, balance, played, won, points) "
            "VALUES ($1, $2, $3, $4, 1, $5, $6) ON CONFLICT(chat_id, game, user_id) DO UPDATE SET"
            " balance = ledger.balance + excluded.balance, played = ledger.played + 1,"
            " won = ledger.won + excluded.won, points = ledger.points + excluded.points",
            chat_id,
            game,
            user_id,
            money,
            int(won),
            points,
        )

    async def ledger(
        self, *, chat_id: int | None = None, user_id: int | None = None
    ) -> list[LedgerRow]:
        where: list[str] = []
        params: list[int] = []
        if chat_id is not None:
            params.append(chat_id)
            where.append(f"l.chat_id = ${len(params)}")
        if user_id is not None:
            params.append(user_id)
            where.append(f"l.user_id = ${len(params)}")
        clause = ("WHERE " + " AND ".join(where)) if where else ""
        # COLLATE "C": names that tie sort by their bytes, as SQLite sorts them
        rows = await self._all(
            "SELECT l.chat_id, l.game, l.user_id, u.first_name, l.balance, l.played, l.won,"
            f" l.points FROM ledger l JOIN users u ON u.id = l.user_id {clause}"
            ' ORDER BY l.game COLLATE "C", l.balance DESC, l.won DESC, u.first_name COLLATE "C"',
            *params,
        )
        return [LedgerRow(*r) for r in rows]

    # --- deadlines ---------------------------------------------------------------------

    async def deadlines(self, table_id: int | None = None) -> list[Deadline]:
        sql = "SELECT table_id, kind, due_at, moves FROM deadlines"
        rows = await (
            self._all(sql + " WHERE table_id = $1", table_id)
            if table_id is not None
            else self._all(sql)
        )
        return [deadline_row(r) for r in rows]

    async def put_deadline(self, deadline: Deadline) -> None:
        await self._run(
            "INSERT INTO deadlines(table_id, kind, due_at, moves) VALUES ($1, $2, $3, $4) "
            "ON CONFLICT(table_id, kind) DO UPDATE SET due_at = excluded.due_at, "
            "moves = excluded.moves",
            deadline.table_id,
            deadline.kind,
            deadline.due_at,
            deadline.moves,
        )

    async def drop_deadline(self, table_id: int, kind: str) -> None:
        await self._run("DELETE FROM deadlines WHERE table_id = $1 AND kind = $2", table_id, kind)

    # --- the outbox's messages -----------------------------------------------------------

    async def messages(self) -> list[StoredMessage]:
        rows = await self._all(
            "SELECT chat_id, key, message_id, digest, keyboard FROM messages WHERE message_id != 0"
        )
        return [StoredMessage(r[0], r[1], r[2], r[3], r[4]) for r in rows]

    async def intend_message(self, chat_id: int, key: str) -> None:
        await self._run(
            "INSERT INTO messages (chat_id, key, message_id, digest, keyboard, sending)"
            " VALUES ($1, $2, 0, '', FALSE, TRUE)"
            " ON CONFLICT (chat_id, key) DO UPDATE SET sending = TRUE",
            chat_id,
            key,
        )

    async def intents(self) -> list[tuple[int, str]]:
        rows = await self._all("SELECT chat_id, key FROM messages WHERE sending")
        return [(int(r[0]), str(r[1])) for r in rows]

    async def put_message(self, message: StoredMessage) -> None:
        await self._run(
            "INSERT INTO messages (chat_id, key, message_id, digest, keyboard)"
            " VALUES ($1, $2, $3, $4, $5) ON CONFLICT (chat_id, key) DO UPDATE"
            " SET message_id = excluded.message_id, digest = excluded.digest,"
            " keyboard = excluded.keyboard, sending = FALSE",
            message.chat_id,
            message.key,
            message.message_id,
            message.digest,
            message.keyboard,
        )

    async def drop_message(self, chat_id: int, key: str) -> None:
        await self._run("DELETE FROM messages WHERE chat_id = $1 AND key = $2", chat_id, key)
