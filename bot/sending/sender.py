"""Every message the bot puts on screen goes through here.

Telegram's limits (429, "not modified", "can't be edited") are handled below us, in the request
middleware of :mod:`bot.sending.session`. This layer only turns what is left into answers:
a message id, or None when the chat is closed to us (403: blocked, never started, kicked).
"""

from __future__ import annotations

import contextlib
import logging

from aiogram import Bot
from aiogram.exceptions import TelegramAPIError, TelegramBadRequest, TelegramForbiddenError
from aiogram.types import Message

from bot.render.common import Rendered

logger = logging.getLogger(__name__)


class Sender:
    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self._shown: dict[tuple[int, int], Rendered] = {}
        self.closed: set[int] = set()  # chats whose last send or edit got a 403

    def shown(self, chat_id: int, message_id: int) -> Rendered | None:
        """What this process last put into the message (None after a restart)."""
        return self._shown.get((chat_id, message_id))

    async def send(
        self, chat_id: int, rendered: Rendered, *, reply_to: int | None = None
    ) -> int | None:
        """Send a new message; its id, or None when the chat is closed to us (403/400)."""
        try:
            message = await self.bot.send_message(
                chat_id,
                rendered.text,
                reply_markup=rendered.markup,
                reply_to_message_id=reply_to,
                allow_sending_without_reply=True if reply_to else None,
            )
        except TelegramForbiddenError as error:
            logger.info("send to chat=%s refused: %s", chat_id, error.message)
            self.closed.add(chat_id)
            return None
        except TelegramAPIError as error:
            logger.warning("send to chat=%s failed: %s", chat_id, error.message)
            return None
        self.closed.discard(chat_id)
        self._shown[(chat_id, message.message_id)] = rendered
        return message.message_id

    async def edit(self, chat_id: int, message_id: int, rendered: Rendered) -> int | None:
        """Edit in place; the id the message shows ``rendered`` under now, or None.

        The id differs from ``message_id`` when the old message could not be edited any more
        and the middleware sent the text as a new message.
        """
        if self._shown.get((chat_id, message_id)) == rendered:
            return message_id
        try:
            result = await self.bot.edit_message_text(
                text=rendered.text,
                chat_id=chat_id,
                message_id=message_id,
                reply_markup=rendered.markup,
            )
        except TelegramForbiddenError as error:
            logger.info("edit chat=%s refused: %s", chat_id, error.message)
            self.closed.add(chat_id)
            self._shown.pop((chat_id, message_id), None)
            return None
        except TelegramAPIError as error:
            logger.warning("edit chat=%s message=%s failed: %s", chat_id, message_id, error.message)
            self._shown.pop((chat_id, message_id), None)
            return None
        self.closed.discard(chat_id)
        now = result.message_id if isinstance(result, Message) else message_id
        if now != message_id:
            self._shown.pop((chat_id, message_id), None)
        self._shown[(chat_id, now)] = rendered
        return now

    async def edit_or_send(
        self, chat_id: int, message_id: int | None, rendered: Rendered
    ) -> int | None:
        """Edit the message, or send it anew if it can't be edited; the id it lives under."""
        if message_id is not None:
            now = await self.edit(chat_id, message_id, rendered)
            if now is not None or chat_id in self.closed:
                return now
        return await self.send(chat_id, rendered)

    async def strip_keyboard(self, chat_id: int, message_id: int) -> None:
        """Remove a message's buttons (an old hand, a used result message); errors ignored."""
        shown = self._shown.pop((chat_id, message_id), None)
        try:
            await self.bot.edit_message_reply_markup(
                chat_id=chat_id, message_id=message_id, reply_markup=None
            )
        except TelegramAPIError as error:
            logger.debug("could not strip the keyboard of %s/%s: %s", chat_id, message_id, error)
            return
        if shown is not None:
            self._shown[(chat_id, message_id)] = Rendered(shown.text)

    async def delete(self, chat_id: int, message_id: int) -> None:
        self._shown.pop((chat_id, message_id), None)
        with contextlib.suppress(TelegramBadRequest, TelegramForbiddenError):
            await self.bot.delete_message(chat_id, message_id)
