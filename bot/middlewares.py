"""Outer middlewares: upsert the chat and user rows, put both translators into the handler data."""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware
from aiogram.types import Chat, TelegramObject, User

from bot.i18n import Catalogues, locale_of
from bot.storage.repo import Repo

logger = logging.getLogger(__name__)
Handler = Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]]


class ChatContext(BaseMiddleware):
    def __init__(self, repo: Repo, catalogues: Catalogues) -> None:
        self.repo = repo
        self.catalogues = catalogues

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        started = time.monotonic()
        user: User | None = data.get("event_from_user")
        chat: Chat | None = data.get("event_chat")
        user_locale = self.catalogues.default
        chat_locale = self.catalogues.default
        async with self.repo.db.transaction():
            if user is not None:
                await self.repo.upsert_user(
                    user.id, user.first_name, user.username, user.language_code
                )
                row = await self.repo.user(user.id)
                if row is not None:
                    user_locale = row.language or locale_of(
                        row.language_code, self.catalogues.default
                    )
                if chat is not None and chat.type == "private":
                    await self.repo.set_private_ok(user.id, True)
            if chat is not None and chat.type != "private":
                await self.repo.upsert_chat(chat.id, chat.title or "")
                stored = await self.repo.chat(chat.id)
                if stored is not None and stored.language is None:
                    await self.repo.set_chat_language(chat.id, user_locale)
                    chat_locale = user_locale
                elif stored is not None and stored.language:
                    chat_locale = stored.language
            else:
                chat_locale = user_locale
        data["user_tr"] = self.catalogues.tr(user_locale)
        data["chat_tr"] = self.catalogues.tr(chat_locale)
        try:
            return await handler(event, data)
        finally:
            logger.debug(
                "update chat=%s user=%s ms=%d",
                chat.id if chat else None,
                user.id if user else None,
                (time.monotonic() - started) * 1000,
            )
