"""Chats and users as the bot knows them: read once, kept in memory, written only on change.

Every update names its user and chat; storing them anew each time cost a transaction per press.
This cache writes a row only when something in it changed (a new name, a language chosen).
With several workers (``keep``) an entry is read again after ``keep`` seconds: another worker
may have changed the row (a /start in private, a language chosen).

Anyone on Telegram can make the bot read a user (an inline query needs no group), so the cache
is bounded: the ``kept`` (:data:`PEOPLE_KEPT`) most recently used users, and as many chats; one
dropped is read again from the database when next needed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import Final

from bot.i18n import locale_of
from bot.lru import Lru
from bot.storage.protocol import Repository
from bot.storage.rows import ChatRow, UserRow
from bot.storage.settings import ChatSettings, UserSettings

PEOPLE_KEPT: Final = 10_000
"""Users kept in memory (and as many chats): a few hundred bytes each, a few MB at most."""


class People:
    def __init__(
        self,
        repo: Repository,
        default_locale: str,
        *,
        keep: float | None = None,
        clock: Callable[[], float] = time.monotonic,
        kept: int = PEOPLE_KEPT,
    ) -> None:
        self.repo = repo
        self.default = default_locale
        # each entry: the row (None: not in the database) and when it was read
        self._users: Lru[int, tuple[UserRow | None, float]] = Lru(kept)
        self._chats: Lru[int, tuple[ChatRow | None, float]] = Lru(kept)
        self._keep = keep
        self._clock = clock

    def __len__(self) -> int:
        """Users and chats in memory now."""
        return len(self._users) + len(self._chats)

    def _fresh(self, read_at: float) -> bool:
        return self._keep is None or self._clock() - read_at < self._keep

    async def user(self, user_id: int) -> UserRow | None:
        entry = self._users.get(user_id)
        if entry is None or not self._fresh(entry[1]):
            entry = (await self.repo.user(user_id), self._clock())
            self._users.put(user_id, entry)
        return entry[0]

    async def chat(self, chat_id: int) -> ChatRow | None:
        entry = self._chats.get(chat_id)
        if entry is None or not self._fresh(entry[1]):
            entry = (await self.repo.chat(chat_id), self._clock())
            self._chats.put(chat_id, entry)
        return entry[0]

    def _keep_user(self, row: UserRow) -> None:
        self._users.put(row.id, (row, self._clock()))

    def _keep_chat(self, row: ChatRow) -> None:
        self._chats.put(row.id, (row, self._clock()))

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
            self._keep_user(wanted)
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
                stored = await tx.chat(chat_id)  # a supergroup migration may have written it
                if stored is not None and stored.language:
                    wanted = replace(wanted, language=stored.language)
                if stored is not None:
                    wanted = replace(wanted, settings=stored.settings)
                await tx.upsert_chat(chat_id, title)
                if wanted.language != (stored.language if stored else None):
                    await tx.set_chat_language(chat_id, first_locale)
            self._keep_chat(wanted)
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
            self._keep_user(replace(known, private_ok=ok))

    async def set_user_language(self, user_id: int, language: str) -> None:
        async with self.repo.unit() as tx:
            await tx.set_user_language(user_id, language)
        known = await self.user(user_id)
        if known is not None:
            self._keep_user(replace(known, language=language))

    async def set_chat_language(self, chat_id: int, language: str) -> None:
        async with self.repo.unit() as tx:
            await tx.set_chat_language(chat_id, language)
        known = await self.chat(chat_id)
        if known is not None:
            self._keep_chat(replace(known, language=language))

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
            self._keep_chat(replace(known, settings=settings))

    async def set_user_settings(self, user_id: int, settings: UserSettings) -> None:
        async with self.repo.unit() as tx:
            await tx.set_user_settings(user_id, settings)
        known = await self.user(user_id)
        if known is not None:
            self._keep_user(replace(known, settings=settings))

    def forget_chat(self, chat_id: int) -> None:
        """The chat's row changed behind the cache (a group became a supergroup): read anew."""
        self._chats.pop(chat_id)
