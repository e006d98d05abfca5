"""Every message the bot puts on screen goes through here.

Telegram's limits (429, "not modified", "can't be edited") are handled below us, in the request
middleware of :mod:`bot.sending.session`. This layer only turns what is left into answers:
a message id, or None when the chat is closed to us (403: blocked, never started, kicked).

It also remembers what each message shows (digests of text and keyboard, kept in the database so
that a restart forgets nothing) and never sends an edit identical to it (PRODUCT.md §9).
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
from typing import Final

from aiogram import Bot
from aiogram.exceptions import TelegramAPIError, TelegramBadRequest, TelegramForbiddenError
from aiogram.types import InlineKeyboardMarkup, Message

from bot.render.common import Rendered
from bot.storage.repo import Repo, ShownRow

logger = logging.getLogger(__name__)


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def markup_digest(markup: InlineKeyboardMarkup | None) -> str:
    return _digest("" if markup is None else markup.model_dump_json(exclude_none=True))


NO_KEYBOARD: Final = markup_digest(None)


def shown_as(rendered: Rendered) -> ShownRow:
    return ShownRow(_digest(rendered.text), markup_digest(rendered.markup))


class Sender:
    def __init__(self, bot: Bot, repo: Repo) -> None:
        self.bot = bot
        self.repo = repo
        self._shown: dict[tuple[int, int], ShownRow] = {}  # a cache of the ``shown`` rows
        self.closed: set[int] = set()  # chats whose last send or edit got a 403

    async def shows(self, chat_id: int, message_id: int) -> ShownRow | None:
        """What the message shows, as far as the bot knows (None: it doesn't)."""
        key = (chat_id, message_id)
        cached = self._shown.get(key)
        if cached is None:
            cached = await self.repo.shown(chat_id, message_id)
            if cached is not None:
                self._shown[key] = cached
        return cached

    async def has_keyboard(self, chat_id: int, message_id: int) -> bool | None:
        shown = await self.shows(chat_id, message_id)
        return None if shown is None else shown.markup_hash != NO_KEYBOARD

    async def _remember(self, chat_id: int, message_id: int, shown: ShownRow | None) -> None:
        key = (chat_id, message_id)
        if shown is None:
            if self._shown.pop(key, None) is None and await self.repo.shown(*key) is None:
                return
        elif self._shown.get(key) == shown:
            return
        else:
            self._shown[key] = shown
        async with self.repo.db.transaction():
            if shown is None:
                await self.repo.forget_shown(chat_id, message_id)
            else:
                await self.repo.set_shown(chat_id, message_id, shown)

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
        await self._remember(chat_id, message.message_id, shown_as(rendered))
        return message.message_id

    async def edit(self, chat_id: int, message_id: int, rendered: Rendered) -> int | None:
        """Edit in place; the id the message shows ``rendered`` under now, or None.

        Nothing is sent when the message already shows ``rendered``. The id differs from
        ``message_id`` when the old message could not be edited any more and the middleware
        sent the text as a new message.
        """
        wanted = shown_as(rendered)
        if await self.shows(chat_id, message_id) == wanted:
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
            await self._remember(chat_id, message_id, None)
            return None
        except TelegramAPIError as error:
            logger.warning("edit chat=%s message=%s failed: %s", chat_id, message_id, error.message)
            await self._remember(chat_id, message_id, None)
            return None
        self.closed.discard(chat_id)
        now = result.message_id if isinstance(result, Message) else message_id
        if now != message_id:
            await self._remember(chat_id, message_id, None)
        await self._remember(chat_id, now, wanted)
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
        """Remove a message's buttons (an old hand, a used notice); errors ignored."""
        shown = await self.shows(chat_id, message_id)
        if shown is not None and shown.markup_hash == NO_KEYBOARD:
            return  # nothing to remove
        try:
            await self.bot.edit_message_reply_markup(
                chat_id=chat_id, message_id=message_id, reply_markup=None
            )
        except TelegramAPIError as error:
            logger.debug("could not strip the keyboard of %s/%s: %s", chat_id, message_id, error)
            return
        text = shown.text_hash if shown is not None else ""  # "": the text is not known
        await self._remember(chat_id, message_id, ShownRow(text, NO_KEYBOARD))

    async def delete(self, chat_id: int, message_id: int) -> None:
        await self._remember(chat_id, message_id, None)
        with contextlib.suppress(TelegramBadRequest, TelegramForbiddenError):
            await self.bot.delete_message(chat_id, message_id)
