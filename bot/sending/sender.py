"""Every Bot API send goes through here: 429 retried after ``retry_after``, "message is not
modified" treated as success, a message that can't be edited re-sent, 403 reported as None.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from aiogram import Bot
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramRetryAfter,
)

from bot.render.common import Rendered

logger = logging.getLogger(__name__)
T = TypeVar("T")
RETRIES = 5


class Sender:
    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self._shown: dict[tuple[int, int], Rendered] = {}

    def shown(self, chat_id: int, message_id: int) -> Rendered | None:
        """What this process last put into the message (None after a restart)."""
        return self._shown.get((chat_id, message_id))

    async def _call(self, make: Callable[[], Awaitable[T]]) -> T:
        for attempt in range(RETRIES):
            try:
                return await make()
            except TelegramRetryAfter as error:
                if attempt == RETRIES - 1:
                    raise
                await asyncio.sleep(min(float(error.retry_after), 30.0))
        raise AssertionError("unreachable")

    async def send(
        self, chat_id: int, rendered: Rendered, *, reply_to: int | None = None
    ) -> int | None:
        """Send a new message; its id, or None when the chat is closed to us (403/400)."""
        try:
            message = await self._call(
                lambda: self.bot.send_message(
                    chat_id,
                    rendered.text,
                    reply_markup=rendered.markup,
                    reply_to_message_id=reply_to,
                    allow_sending_without_reply=True if reply_to else None,
                )
            )
        except (TelegramForbiddenError, TelegramBadRequest) as error:
            logger.info("send to chat=%s failed: %s", chat_id, error.message)
            return None
        self._shown[(chat_id, message.message_id)] = rendered
        return message.message_id

    async def edit(self, chat_id: int, message_id: int, rendered: Rendered) -> bool:
        """Edit in place; True if the message shows ``rendered`` now."""
        if self._shown.get((chat_id, message_id)) == rendered:
            return True
        try:
            await self._call(
                lambda: self.bot.edit_message_text(
                    text=rendered.text,
                    chat_id=chat_id,
                    message_id=message_id,
                    reply_markup=rendered.markup,
                )
            )
        except TelegramBadRequest as error:
            if "not modified" in error.message:
                self._shown[(chat_id, message_id)] = rendered
                return True
            logger.info("edit chat=%s message=%s failed: %s", chat_id, message_id, error.message)
            self._shown.pop((chat_id, message_id), None)
            return False
        except TelegramForbiddenError:
            return False
        self._shown[(chat_id, message_id)] = rendered
        return True

    async def edit_or_send(
        self, chat_id: int, message_id: int | None, rendered: Rendered
    ) -> int | None:
        """Edit the message, or send it anew if it can't be edited; the id it lives under."""
        if message_id is not None and await self.edit(chat_id, message_id, rendered):
            return message_id
        return await self.send(chat_id, rendered)

    async def delete(self, chat_id: int, message_id: int) -> None:
        self._shown.pop((chat_id, message_id), None)
        with contextlib.suppress(TelegramBadRequest, TelegramForbiddenError):
            await self._call(lambda: self.bot.delete_message(chat_id, message_id))
