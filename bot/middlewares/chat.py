"""An outer middleware on ``dp.update``: for a message, a button press or an inline query, note
the chat and user (written only when changed) and put both translators into the update's data
— the handlers' and the errors handlers' (a refusal is shown in them, bot/routers/errors.py)."""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware
from aiogram.types import Chat, TelegramObject, Update, User

from bot.caches.people import People
from bot.i18n import Catalogues

logger = logging.getLogger(__name__)
Handler = Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]]


class ChatContext(BaseMiddleware):
    def __init__(self, people: People, catalogues: Catalogues) -> None:
        self.people = people
        self.catalogues = catalogues

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        assert isinstance(event, Update)
        if event.message is None and event.callback_query is None and event.inline_query is None:
            return await handler(event, data)  # a chat member update: no one to note
        started = time.monotonic()
        user: User | None = data.get("event_from_user")
        chat: Chat | None = data.get("event_chat")
        user_locale = self.catalogues.default
        chat_locale = self.catalogues.default
        if user is not None:
            row = await self.people.seen(
                user.id,
                user.first_name,
                user.username,
                user.language_code,
                private=chat is not None and chat.type == "private",
            )
            user_locale = self.people.locale_of_user(row)
        if chat is not None and chat.type != "private":
            stored = await self.people.seen_chat(chat.id, chat.title or "", user_locale)
            chat_locale = stored.language or self.catalogues.default
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
