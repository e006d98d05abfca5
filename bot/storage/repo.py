"""Repositories: every SQL statement of the bot, parameters only, rows as frozen dataclasses."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import aiosqlite

from bot.storage.db import Database

OPEN_STATUSES = ("lobby", "running", "ended")


@dataclass(frozen=True, slots=True)
class ChatRow:
    id: int
    title: str
    language: str | None


@dataclass(frozen=True, slots=True)
class UserRow:
    id: int
    first_name: str
    username: str | None
    language_code: str | None
    language: str | None
    private_ok: bool


@dataclass(frozen=True, slots=True)
class TableRow:
    id: int
    chat_id: int
    game: str
    options: dict[str, Any]
    status: str
    creator_id: int
    join_code: str
    generation: int
    moves: int
    lobby_msg_id: int | None
    table_msg_id: int | None
    result_msg_id: int | None
    cancel_msg_id: int | None = None  # the latest reply to /cancel (its buttons: x, w)
    notice_msg_id: int | None = None  # the latest unreachable-players notice (n, w)


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    user_id: int
    name: str
    away: bool = False  # the computer plays this seat until its owner is back


@dataclass(frozen=True, slots=True)
class PulkaRow:
    no: int
    seed: int
    prev_dealer: int | None
    first_seq: int
    net: list[int] | None


@dataclass(frozen=True, slots=True)
class HandRow:
    seat: int
    chat_id: int
    message_id: int | None
    marks: str
    mode: str
    offers: frozenset[str] | None = None  # the callback data its buttons carry now (None: unknown)


@dataclass(frozen=True, slots=True)
class ShownRow:
    """What a message shows: digests of its text ("" if unknown) and of its keyboard."""

    text_hash: str
    markup_hash: str


@dataclass(frozen=True, slots=True)
class LedgerRow:
    chat_id: int
    game: str
    user_id: int
    name: str
    balance: int
    played: int
    won: int


def _table(row: aiosqlite.Row) -> TableRow:
    return TableRow(
        id=row["id"],
        chat_id=row["chat_id"],
        game=row["game"],
        options=json.loads(row["options"]),
        status=row["status"],
        creator_id=row["creator_id"],
        join_code=row["join_code"],
        generation=row["generation"],
        moves=row["moves"],
        lobby_msg_id=row["lobby_msg_id"],
        table_msg_id=row["table_msg_id"],
        result_msg_id=row["result_msg_id"],
        cancel_msg_id=row["cancel_msg_id"],
        notice_msg_id=row["notice_msg_id"],
    )


def _lines(offers: frozenset[str]) -> str:
    return "\n".join(sorted(offers))  # callback data is ASCII without newlines (§7.1)


class Repo:
    """All reads and writes. Callers group writes with ``db.transaction()``."""

    def __init__(self, db: Database) -> None:
        self.db = db

    # --- chats and users ---------------------------------------------------------------

    async def upsert_chat(self, chat_id: int, title: str) -> None:
        await self.db.execute(
            "INSERT INTO chats(id, title) VALUES (?, ?) "
            "ON CONFLICT(id) DO UPDATE SET title = excluded.title",
            (chat_id, title),
        )

    async def chat(self, chat_id: int) -> ChatRow | None:
        row = await self.db.one("SELECT id, title, language FROM chats WHERE id = ?", (chat_id,))
        return ChatRow(row["id"], row["title"], row["language"]) if row else None

    async def set_chat_language(self, chat_id: int, language: str) -> None:
        await self.db.execute("UPDATE chats SET language = ? WHERE id = ?", (language, chat_id))

    async def upsert_user(
        self, user_id: int, first_name: str, username: str | None, language_code: str | None
    ) -> None:
        await self.db.execute(
            "INSERT INTO users(id, first_name, username, language_code) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(id) DO UPDATE SET first_name = excluded.first_name, "
            "username = excluded.username, language_code = excluded.language_code",
            (user_id, first_name, username, language_code),
        )

    async def user(self, user_id: int) -> UserRow | None:
        row = await self.db.one("SELECT * FROM users WHERE id = ?", (user_id,))
        if row is None:
            return None
        return UserRow(
            row["id"],
            row["first_name"],
            row["username"],
            row["language_code"],
            row["language"],
            bool(row["private_ok"]),
        )

    async def set_user_language(self, user_id: int, language: str) -> None:
        await self.db.execute("UPDATE users SET language = ? WHERE id = ?", (language, user_id))

    async def set_private_ok(self, user_id: int, ok: bool) -> None:
        await self.db.execute("UPDATE users SET private_ok = ? WHERE id = ?", (int(ok), user_id))

    # --- tables ------------------------------------------------------------------------

    async def create_table(
        self, chat_id: int, game: str, options: dict[str, Any], creator: int, code: str, now: float
    ) -> int:
        return await self.db.execute(
            "INSERT INTO tables(chat_id, game, options, status, creator_id, join_code, "
            "created_at) VALUES (?, ?, ?, 'lobby', ?, ?, ?)",
            (chat_id, game, json.dumps(options), creator, code, now),
        )

    async def table(self, table_id: int) -> TableRow | None:
        row = await self.db.one("SELECT * FROM tables WHERE id = ?", (table_id,))
        return _table(row) if row else None

    async def open_table(self, chat_id: int) -> TableRow | None:
        row = await self.db.one(
            "SELECT * FROM tables WHERE chat_id = ? AND status IN ('lobby', 'running', 'ended') "
            "ORDER BY id DESC LIMIT 1",
            (chat_id,),
        )
        return _table(row) if row else None

    async def running_tables(self) -> list[TableRow]:
        rows = await self.db.all("SELECT * FROM tables WHERE status = 'running' ORDER BY id")
        return [_table(r) for r in rows]

    async def update_table(self, table_id: int, **fields: Any) -> None:
        allowed = {
            "game", "options", "status", "creator_id", "generation", "moves",
            "lobby_msg_id", "table_msg_id", "result_msg_id", "cancel_msg_id", "notice_msg_id",
        }  # fmt: skip
        if not fields or not set(fields) <= allowed:
            raise ValueError(f"bad table fields {sorted(fields)}")
        values = [json.dumps(v) if k == "options" else v for k, v in fields.items()]
        assignments = ", ".join(f"{k} = ?" for k in fields)
        await self.db.execute(f"UPDATE tables SET {assignments} WHERE id = ?", (*values, table_id))

    async def tables_of_user(self, user_id: int) -> list[TableRow]:
        rows = await self.db.all(
            "SELECT t.* FROM tables t JOIN seats s ON s.table_id = t.id "
            "WHERE s.user_id = ? AND t.status IN ('lobby', 'running', 'ended') ORDER BY t.id",
            (user_id,),
        )
        return [_table(r) for r in rows]

    # --- seats -------------------------------------------------------------------------

    async def seats(self, table_id: int) -> list[SeatRow]:
        rows = await self.db.all(
            "SELECT seat, user_id, name, away FROM seats WHERE table_id = ? ORDER BY seat",
            (table_id,),
        )
        return [SeatRow(r["seat"], r["user_id"], r["name"], bool(r["away"])) for r in rows]

    async def set_away(self, table_id: int, seat: int, away: bool) -> None:
        await self.db.execute(
            "UPDATE seats SET away = ? WHERE table_id = ? AND seat = ?", (int(away), table_id, seat)
        )

    async def replace_seats(self, table_id: int, seats: list[tuple[int, str]]) -> None:
        await self.db.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
        for index, (user_id, name) in enumerate(seats):
            await self.db.execute(
                "INSERT INTO seats(table_id, seat, user_id, name) VALUES (?, ?, ?, ?)",
                (table_id, index, user_id, name),
            )

    # --- pulkas and the action log -------------------------------------------------------

    async def add_pulka(
        self, table_id: int, no: int, seed: int, prev_dealer: int | None, first_seq: int
    ) -> None:
        await self.db.execute(
            "INSERT INTO pulkas(table_id, no, seed, prev_dealer, first_seq) VALUES (?, ?, ?, ?, ?)",
            (table_id, no, seed, prev_dealer, first_seq),
        )

    async def pulka(self, table_id: int, no: int) -> PulkaRow | None:
        row = await self.db.one(
            "SELECT * FROM pulkas WHERE table_id = ? AND no = ?", (table_id, no)
        )
        if row is None:
            return None
        net = json.loads(row["net"]) if row["net"] else None
        return PulkaRow(row["no"], row["seed"], row["prev_dealer"], row["first_seq"], net)

    async def set_pulka_net(self, table_id: int, no: int, net: list[int]) -> None:
        await self.db.execute(
            "UPDATE pulkas SET net = ? WHERE table_id = ? AND no = ?",
            (json.dumps(net), table_id, no),
        )

    async def add_action(self, table_id: int, seq: int, seat: int, action: str) -> None:
        """Log one action; the primary key makes a second insert at ``seq`` fail."""
        await self.db.execute(
            "INSERT INTO actions(table_id, seq, seat, action) VALUES (?, ?, ?, ?)",
            (table_id, seq, seat, action),
        )

    async def actions(self, table_id: int, from_seq: int) -> list[tuple[int, str]]:
        rows = await self.db.all(
            "SELECT seat, action FROM actions WHERE table_id = ? AND seq >= ? ORDER BY seq",
            (table_id, from_seq),
        )
        return [(r["seat"], r["action"]) for r in rows]

    # --- hand messages -----------------------------------------------------------------

    async def hands(self, table_id: int) -> dict[int, HandRow]:
        rows = await self.db.all("SELECT * FROM hands WHERE table_id = ?", (table_id,))
        return {
            r["seat"]: HandRow(
                r["seat"],
                r["chat_id"],
                r["message_id"],
                r["marks"],
                r["mode"],
                None if r["offers"] is None else frozenset(r["offers"].split("\n")) - {""},
            )
            for r in rows
        }

    async def set_hand(
        self,
        table_id: int,
        seat: int,
        chat_id: int,
        message_id: int | None,
        offers: frozenset[str] | None = None,
    ) -> None:
        """The seat's hand message and what its buttons offer (None: unknown, or no message)."""
        await self.db.execute(
            "INSERT INTO hands(table_id, seat, chat_id, message_id, offers) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT(table_id, seat) DO UPDATE SET chat_id = excluded.chat_id, "
            "message_id = excluded.message_id, offers = excluded.offers",
            (table_id, seat, chat_id, message_id, None if offers is None else _lines(offers)),
        )

    async def set_hand_offers(self, table_id: int, seat: int, offers: frozenset[str]) -> None:
        await self.db.execute(
            "UPDATE hands SET offers = ? WHERE table_id = ? AND seat = ?",
            (_lines(offers), table_id, seat),
        )

    async def set_hand_ui(self, table_id: int, seat: int, marks: str, mode: str) -> None:
        await self.db.execute(
            "UPDATE hands SET marks = ?, mode = ? WHERE table_id = ? AND seat = ?",
            (marks, mode, table_id, seat),
        )

    async def clear_hand_ui(self, table_id: int) -> None:
        await self.db.execute(
            "UPDATE hands SET marks = '', mode = '' WHERE table_id = ?", (table_id,)
        )

    # --- what the bot's messages show --------------------------------------------------

    async def shown(self, chat_id: int, message_id: int) -> ShownRow | None:
        row = await self.db.one(
            "SELECT text_hash, markup_hash FROM shown WHERE chat_id = ? AND message_id = ?",
            (chat_id, message_id),
        )
        return ShownRow(row["text_hash"], row["markup_hash"]) if row else None

    async def set_shown(self, chat_id: int, message_id: int, shown: ShownRow) -> None:
        await self.db.execute(
            "INSERT INTO shown(chat_id, message_id, text_hash, markup_hash) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(chat_id, message_id) DO UPDATE SET text_hash = excluded.text_hash, "
            "markup_hash = excluded.markup_hash",
            (chat_id, message_id, shown.text_hash, shown.markup_hash),
        )

    async def forget_shown(self, chat_id: int, message_id: int) -> None:
        await self.db.execute(
            "DELETE FROM shown WHERE chat_id = ? AND message_id = ?", (chat_id, message_id)
        )

    # --- ledger ------------------------------------------------------------------------

    async def book(self, chat_id: int, game: str, user_id: int, money: int, won: bool) -> None:
        await self.db.execute(
            "INSERT INTO ledger(chat_id, game, user_id, balance, played, won) "
            "VALUES (?, ?, ?, ?, 1, ?) ON CONFLICT(chat_id, game, user_id) DO UPDATE SET "
            "balance = balance + excluded.balance, played = played + 1, won = won + excluded.won",
            (chat_id, game, user_id, money, int(won)),
        )

    async def ledger(
        self, *, chat_id: int | None = None, user_id: int | None = None
    ) -> list[LedgerRow]:
        where, params = [], []
        if chat_id is not None:
            where.append("l.chat_id = ?")
            params.append(chat_id)
        if user_id is not None:
            where.append("l.user_id = ?")
            params.append(user_id)
        clause = ("WHERE " + " AND ".join(where)) if where else ""
        rows = await self.db.all(
            "SELECT l.*, u.first_name FROM ledger l JOIN users u ON u.id = l.user_id "
            f"{clause} ORDER BY l.game, l.balance DESC, l.won DESC, u.first_name",
            params,
        )
        return [
            LedgerRow(
                r["chat_id"],
                r["game"],
                r["user_id"],
                r["first_name"],
                r["balance"],
                r["played"],
                r["won"],
            )
            for r in rows
        ]
