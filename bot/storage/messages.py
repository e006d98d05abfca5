"""The outbox's memory in SQLite: each keyed message's Telegram id and what it shows."""

from __future__ import annotations

from bot.sending.outbox import StoredMessage
from bot.storage.db import Database


class SqliteMessageStore:
    """:class:`bot.sending.outbox.MessageStore` on the bot's database."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def messages(self) -> list[StoredMessage]:
        rows = await self.db.all("SELECT chat_id, key, message_id, digest FROM messages")
        return [StoredMessage(r[0], r[1], r[2], r[3]) for r in rows]

    async def put_message(self, message: StoredMessage) -> None:
        async with self.db.transaction():
            await self.db.execute(
                "INSERT INTO messages (chat_id, key, message_id, digest) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (chat_id, key) DO UPDATE"
                " SET message_id = excluded.message_id, digest = excluded.digest",
                (message.chat_id, message.key, message.message_id, message.digest),
            )

    async def drop_message(self, chat_id: int, key: str) -> None:
        async with self.db.transaction():
            await self.db.execute(
                "DELETE FROM messages WHERE chat_id = ? AND key = ?", (chat_id, key)
            )
