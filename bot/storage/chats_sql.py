"""The statements of the chats and their people, shared by both backends: a chat's row and
settings, a user's, who wants /notify's pings, and a group that became a supergroup."""

from __future__ import annotations

from bot.storage.play_sql import LEDGER_ADD
from bot.storage.ratings_sql import RatingStatements
from bot.storage.rows import ChatRow, UserRow
from bot.storage.runner import Runner
from bot.storage.settings import ChatSettings, UserSettings, chat_settings, user_settings


class ChatStatements:
    """The chats' and users' statements, run by the runner given (a chat's move takes its
    ratings along: ``ratings``)."""

    def __init__(self, runner: Runner, ratings: RatingStatements) -> None:
        self.runner = runner
        self.ratings = ratings

    # --- chats and users ---------------------------------------------------------------

    async def upsert_chat(self, chat_id: int, title: str) -> None:
        await self.runner.run(
            "INSERT INTO chats(id, title) VALUES (?, ?) "
            "ON CONFLICT(id) DO UPDATE SET title = excluded.title",
            (chat_id, title),
        )

    async def chat(self, chat_id: int) -> ChatRow | None:
        sql = "SELECT id, title, language, settings FROM chats WHERE id = ?"
        row = await self.runner.one(sql, (chat_id,))
        if row is None:
            return None
        settings = chat_settings(row["settings"], chat_id)
        return ChatRow(row["id"], row["title"], row["language"], settings)

    async def set_chat_settings(self, chat_id: int, settings: ChatSettings) -> None:
        text = settings.model_dump_json(exclude_defaults=True)
        await self.runner.run("UPDATE chats SET settings = ? WHERE id = ?", (text, chat_id))

    async def set_user_settings(self, user_id: int, settings: UserSettings) -> None:
        text = settings.model_dump_json(exclude_defaults=True)
        await self.runner.run("UPDATE users SET settings = ? WHERE id = ?", (text, user_id))

    async def set_chat_language(self, chat_id: int, language: str) -> None:
        await self.runner.run("UPDATE chats SET language = ? WHERE id = ?", (language, chat_id))

    async def upsert_user(
        self, user_id: int, first_name: str, username: str | None, language_code: str | None
    ) -> None:
        await self.runner.run(
            "INSERT INTO users(id, first_name, username, language_code) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(id) DO UPDATE SET first_name = excluded.first_name, "
            "username = excluded.username, language_code = excluded.language_code",
            (user_id, first_name, username, language_code),
        )

    async def user(self, user_id: int) -> UserRow | None:
        row = await self.runner.one(
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
        await self.runner.run("UPDATE users SET language = ? WHERE id = ?", (language, user_id))

    async def set_private_ok(self, user_id: int, ok: bool) -> None:
        await self.runner.run("UPDATE users SET private_ok = ? WHERE id = ?", (ok, user_id))

    async def notified(self, chat_id: int) -> list[int]:
        sql = "SELECT user_id FROM notify WHERE chat_id = ? ORDER BY user_id"
        return [int(r["user_id"]) for r in await self.runner.all(sql, (chat_id,))]

    async def set_notify(self, chat_id: int, user_id: int, on: bool) -> None:
        if on:
            sql = "INSERT INTO notify(chat_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING"
        else:
            sql = "DELETE FROM notify WHERE chat_id = ? AND user_id = ?"
        await self.runner.run(sql, (chat_id, user_id))

    # --- a group became a supergroup ----------------------------------------------------

    async def migrate_chat(self, old: int, new: int) -> bool:
        moved = await self.runner.one(
            "SELECT (SELECT COUNT(*) FROM tables WHERE chat_id = ?)"
            " + (SELECT COUNT(*) FROM ledger WHERE chat_id = ?)"
            " + (SELECT COUNT(*) FROM messages WHERE chat_id = ?)"
            " + (SELECT COUNT(*) FROM daily_tries WHERE group_id = ?) AS n",
            (old, old, old, old),
        )
        if old == new or moved is None or not moved["n"]:
            return False
        await self.runner.run(
            "INSERT INTO chats(id, title, language, settings) SELECT ?, title, language, settings"
            " FROM chats WHERE id = ? ON CONFLICT(id) DO UPDATE SET"
            " title = CASE WHEN excluded.title != '' THEN excluded.title ELSE chats.title END,"
            " language = COALESCE(excluded.language, chats.language), settings = CASE"
            " WHEN excluded.settings != '{}' THEN excluded.settings ELSE chats.settings END",
            (new, old),
        )
        await self.runner.run("UPDATE tables SET chat_id = ? WHERE chat_id = ?", (new, old))
        # "AND true": SQLite's parser wants a WHERE before an upsert's SELECT
        await self.runner.run(
            "INSERT INTO ledger(chat_id, game, user_id, balance, played, won, points)"
            " SELECT ?, game, user_id, balance, played, won, points FROM ledger"
            " WHERE chat_id = ? AND true" + LEDGER_ADD,
            (new, old),
        )
        await self.runner.run("DELETE FROM ledger WHERE chat_id = ?", (old,))
        await self.runner.run("DELETE FROM messages WHERE chat_id = ?", (old,))
        # what the group is owed (the durable outbox) and its ratings follow it too
        await self.runner.run("UPDATE owed SET chat_id = ? WHERE chat_id = ?", (new, old))
        # a day's deal's try started from the group tells the group under its new id
        await self.runner.run("UPDATE daily_tries SET group_id = ? WHERE group_id = ?", (new, old))
        await self.ratings.migrate_ratings(old, new)
        return True
