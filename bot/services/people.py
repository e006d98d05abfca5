"""Chats and users as the bot knows them: read once, kept in memory, written only on change.

Every update names its user and chat; storing them anew each time cost a transaction per press.
This cache writes a row only when something in it changed (a new name, a language chosen).
"""

from __future__ import annotations

from dataclasses import replace

from bot.i18n import locale_of
from bot.storage.protocol import Repository
from bot.storage.rows import ChatRow, UserRow
from bot.storage.settings import ChatSettings, UserSettings


class People:
    def __init__(self, repo: Repository, default_locale: str) -> None:
        self.repo = repo
        self.default = default_locale
        self._users: dict[int, UserRow | None] = {}
        self._chats: dict[int, ChatRow | None] = {}

    async def user(self, user_id: int) -> UserRow | None:
        if user_id not in self._users:
            self._users[user_id] = await self.repo.user(user_id)
        return self._users[user_id]

    async def chat(self, chat_id: int) -> ChatRow | None:
        if chat_id not in self._chats:
            self._chats[chat_id] = await self.repo.chat(chat_id)
        return self._chats[chat_id]

    def locale_of_user(self, user: UserRow | None) -> str:
        if user is None:
            return self.default
        return user.language or locale_of(user.language_code, self.default)

    async def user_locale(self, user_id: int | None) -> str:
        return self.locale_of_user(await self.user(user_id) if user_id is not None else None)

    async def chat_locale(self, chat_id: int) -> str:
        chat = await self.chat(chat_id)
        return chat.language if chat is not None and chat.language else self.default

    async def seen(
        self,
        user_id: int,
        first_name: str,
        username: str | None,
        language_code: str | None,
        *,
        private: bool = False,
    ) -> UserRow:
        """A user sent an update (``private``: in the private chat, so he can be written to)."""
        known = await self.user(user_id)
        ok = private or (known is not None and known.private_ok)
        wanted = UserRow(
            user_id,
            first_name,
            username,
            language_code,
            known.language if known else None,
            ok,
            known.settings if known else UserSettings(),
        )
        if wanted != known:
            async with self.repo.unit() as tx:
                await tx.upsert_user(user_id, first_name, username, language_code)
                if ok != (known.private_ok if known else False):
                    await tx.set_private_ok(user_id, ok)
            self._users[user_id] = wanted
        return wanted

    async def seen_chat(self, chat_id: int, title: str, first_locale: str) -> ChatRow:
        """A group sent an update; a new group takes the language of its first user."""
        known = await self.chat(chat_id)
        wanted = ChatRow(
            chat_id,
            title,
            known.language if known else None,
            known.settings if known else ChatSettings(),
        )
        if wanted.language is None:
            wanted = replace(wanted, language=first_locale)
        if wanted != known:
            async with self.repo.unit() as tx:
                stored = await tx.chat(chat_id)  # a migration (issue #17) may have written it
                if stored is not None and stored.language:
                    wanted = replace(wanted, language=stored.language)
                if stored is not None:
                    wanted = replace(wanted, settings=stored.settings)
                await tx.upsert_chat(chat_id, title)
                if wanted.language != (stored.language if stored else None):
                    await tx.set_chat_language(chat_id, first_locale)
            self._chats[chat_id] = wanted
        return wanted

    async def private_ok(self, user_id: int) -> bool:
        """Whether the user can be written to in private (as far as the bot knows)."""
        known = await self.user(user_id)
        return known is not None and known.private_ok

    async def set_private_ok(self, user_id: int, ok: bool) -> None:
        known = await self.user(user_id)
        if known is not None and known.private_ok == ok:
            return
        async with self.repo.unit() as tx:
            await tx.set_private_ok(user_id, ok)
        if known is not None:
            self._users[user_id] = replace(known, private_ok=ok)

    async def set_user_language(self, user_id: int, language: str) -> None:
        async with self.repo.unit() as tx:
            await tx.set_user_language(user_id, language)
        known = await self.user(user_id)
        if known is not None:
            self._users[user_id] = replace(known, language=language)

    async def set_chat_language(self, chat_id: int, language: str) -> None:
        async with self.repo.unit() as tx:
            await tx.set_chat_language(chat_id, language)
        known = await self.chat(chat_id)
        if known is not None:
            self._chats[chat_id] = replace(known, language=language)

    async def chat_settings(self, chat_id: int) -> ChatSettings:
        chat = await self.chat(chat_id)
        return chat.settings if chat is not None else ChatSettings()

    async def user_settings(self, user_id: int) -> UserSettings:
        user = await self.user(user_id)
        return user.settings if user is not None else UserSettings()

    async def set_chat_settings(self, chat_id: int, settings: ChatSettings) -> None:
        async with self.repo.unit() as tx:
            await tx.set_chat_settings(chat_id, settings)
        known = await self.chat(chat_id)
        if known is not None:
            self._chats[chat_id] = replace(known, settings=settings)

    async def set_user_settings(self, user_id: int, settings: UserSettings) -> None:
        async with self.repo.unit() as tx:
            await tx.set_user_settings(user_id, settings)
        known = await self.user(user_id)
        if known is not None:
            self._users[user_id] = replace(known, settings=settings)

    def forget_chat(self, chat_id: int) -> None:
        """The chat's row changed behind the cache (a group became a supergroup): read anew."""
        self._chats.pop(chat_id, None)
