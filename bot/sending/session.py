"""Telegram's limits in the send path: one request middleware around every Bot API call.

* 429 ``retry_after``: sleep and retry, at most ``retries`` times, never longer than ``max_wait``
  per sleep; then the error goes up to the caller.
* the Bot API unreachable (``TelegramNetworkError``: refused, DNS, TLS, timeout), when built with
  an :class:`~bot.sending.outage.Outage` (a running bot): a send, edit or delete is retried with
  back-off (1 s doubling to 30 s, for at most ``network_wait`` seconds in all), the outage logged
  once when it starts and once when a call gets through; ``getUpdates`` (aiogram's polling retries
  it), ``getMe`` and the webhook calls (the start-up probes fail at once) are never retried.
* 400 "message is not modified" on an edit (an ephemeral message's too): success (the message
  already shows it).
* 400 "message can't be edited" / "message to edit not found" on ``editMessageText``: the text is
  sent as a new message (in the forum topic an :class:`~bot.sending.json_session.EditText` names),
  whose ``Message`` is returned instead; later text edits of the old id
  go to the new one (the caller also learns the new id from the returned message). Keyboard
  edits and deletes are never redirected: they mean the old message itself. An ephemeral
  message's edit is not redirected either: the outbox sends it anew (:mod:`bot.sending.calls`).
* 400 "query is too old" on ``answerCallbackQuery``: the press came too long ago to be answered
  (Telegram redelivered it after a restart, or it waited its turn too long): one warning line,
  no traceback, and the call counts as done — what the press did stands.

Registered with ``bot.session.middleware(TelegramLimits())``; nothing is monkey-patched.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Final, cast

from aiogram.client.session.middlewares.base import (
    BaseRequestMiddleware,
    NextRequestMiddlewareType,
)
from aiogram.exceptions import TelegramBadRequest, TelegramNetworkError, TelegramRetryAfter
from aiogram.methods import (
    AnswerCallbackQuery,
    DeleteWebhook,
    EditEphemeralMessageReplyMarkup,
    EditEphemeralMessageText,
    EditMessageReplyMarkup,
    EditMessageText,
    GetMe,
    GetUpdates,
    GetWebhookInfo,
    Response,
    SetWebhook,
)
from aiogram.methods.base import TelegramType
from aiogram.types import Message

from bot.logsafe import safe
from bot.sending.json_session import EditText, SendText
from bot.sending.outage import Outage

if TYPE_CHECKING:
    from aiogram import Bot
    from aiogram.methods import TelegramMethod

logger = logging.getLogger(__name__)

NOT_MODIFIED: Final = "message is not modified"
TOO_OLD: Final = "query is too old"  # "… and response timeout expired or query ID is invalid"
CANT_EDIT: Final = ("message can't be edited", "message to edit not found")
REDIRECTS_KEPT: Final = 1024
NOT_RETRIED: Final = frozenset(
    m.__api_method__ for m in (GetUpdates, GetMe, GetWebhookInfo, SetWebhook, DeleteWebhook)
)

EDITS: Final = (
    EditMessageText,
    EditMessageReplyMarkup,
    EditEphemeralMessageText,
    EditEphemeralMessageReplyMarkup,
)
"""The edits whose "message is not modified" is a success."""

Sleep = Callable[[float], Awaitable[None]]


def is_not_modified(error: TelegramBadRequest) -> bool:
    return NOT_MODIFIED in error.message


def is_cant_edit(error: TelegramBadRequest) -> bool:
    return any(text in error.message for text in CANT_EDIT)


def is_too_old(error: TelegramBadRequest) -> bool:
    return TOO_OLD in error.message


class TelegramLimits(BaseRequestMiddleware):
    """Bounded 429 retries, "not modified" as success, "can't edit" as send-new-and-remember,
    a press's answer "too old" as done."""

    def __init__(
        self,
        *,
        retries: int = 5,
        max_wait: float = 30.0,
        sleep: Sleep = asyncio.sleep,
        outage: Outage | None = None,
        network_wait: float = 300.0,
    ) -> None:
        self.retries = retries
        self.max_wait = max_wait
        self.sleep = sleep
        self.outage = outage
        self.network_wait = network_wait
        self.retried = 0  # how many 429s were waited out (for logs and tests)
        self._moved: OrderedDict[tuple[int | str, int], int] = OrderedDict()
        # aiogram parses every answer with ``Response[method.__returning__]``; pydantic keeps
        # such generic classes only weakly, and a class no one holds is built anew on the next
        # call (milliseconds of CPU). Holding one per returned type keeps pydantic's cache warm.
        self._response_types: dict[object, object] = {}

    def moved_to(self, chat_id: int | str, message_id: int) -> int:
        """The id a message lives under now (itself unless it was re-sent)."""
        return self._moved.get((chat_id, message_id), message_id)

    def _remember(self, chat_id: int | str, old: int, new: int) -> None:
        self._moved[(chat_id, old)] = new
        while len(self._moved) > REDIRECTS_KEPT:
            self._moved.popitem(last=False)

    async def __call__(
        self,
        make_request: NextRequestMiddlewareType[TelegramType],
        bot: Bot,
        method: TelegramMethod[TelegramType],
    ) -> Response[TelegramType]:
        returning = method.__returning__
        if returning not in self._response_types:
            self._response_types[returning] = Response[returning]  # type: ignore[valid-type]
        if method.__api_method__ == GetUpdates.__api_method__:  # polling has its own back-off
            return await make_request(bot, method)
        if isinstance(method, EditMessageText):
            self._redirect(method)
        try:
            return await self._with_retries(make_request, bot, method)
        except TelegramBadRequest as error:
            edit = isinstance(method, EDITS)
            if edit and is_not_modified(error):
                return cast("Response[TelegramType]", True)
            if isinstance(method, EditMessageText) and is_cant_edit(error):
                return cast("Response[TelegramType]", await self._resend(make_request, bot, method))
            if isinstance(method, AnswerCallbackQuery) and is_too_old(error):
                logger.warning(
                    "callback query %s answered too late (%s): a press from before a restart, "
                    "or one that waited too long; what it did stands",
                    method.callback_query_id,
                    safe(error.message),
                )
                return cast("Response[TelegramType]", True)
            raise

    def _redirect(self, method: EditMessageText) -> None:
        """New text for a re-sent message goes to its new id (keyboards and deletes don't)."""
        if method.chat_id is not None and method.message_id is not None:
            method.message_id = self.moved_to(method.chat_id, method.message_id)

    async def _with_retries(
        self,
        make_request: NextRequestMiddlewareType[TelegramType],
        bot: Bot,
        method: TelegramMethod[TelegramType],
    ) -> Response[TelegramType]:
        if self.outage is not None and method.__api_method__ not in NOT_RETRIED:
            make_request = self._reaching(make_request, self.outage)
        for attempt in range(self.retries + 1):
            try:
                return await make_request(bot, method)
            except TelegramRetryAfter as error:
                if attempt == self.retries:
                    raise
                self.retried += 1
                wait = min(float(error.retry_after), self.max_wait)
                logger.info("429 on %s: waiting %.1f s", method.__api_method__, wait)
                await self.sleep(wait)
        raise AssertionError("unreachable")

    def _reaching(
        self, make_request: NextRequestMiddlewareType[TelegramType], outage: Outage
    ) -> NextRequestMiddlewareType[TelegramType]:
        """``make_request`` retried with back-off while the Bot API cannot be reached."""

        async def reach(bot: Bot, method: TelegramMethod[TelegramType]) -> Response[TelegramType]:
            waited, pause = 0.0, 1.0
            while True:
                try:
                    response = await make_request(bot, method)
                except TelegramNetworkError as error:
                    if (line := outage.failed(error)) is not None:
                        logger.warning(line)
                    if waited >= self.network_wait:
                        raise
                    await self.sleep(pause)
                    waited += pause
                    pause = min(pause * 2, 30.0)
                    continue
                if (line := outage.succeeded()) is not None:
                    logger.info(line)
                return response

        return reach

    async def _resend(
        self, make_request: NextRequestMiddlewareType[Any], bot: Bot, method: EditMessageText
    ) -> Message:
        assert method.chat_id is not None and method.message_id is not None
        assert method.text is not None
        send = SendText(
            chat_id=method.chat_id,
            text=method.text,
            message_thread_id=method.topic if isinstance(method, EditText) else None,
            parse_mode=method.parse_mode,
            entities=method.entities,
            link_preview_options=method.link_preview_options,
            reply_markup=method.reply_markup,
        )
        message = cast(Message, await self._with_retries(make_request, bot, send))
        logger.info(
            "message %s in chat %s can't be edited: re-sent as %s",
            method.message_id,
            method.chat_id,
            message.message_id,
        )
        self._remember(method.chat_id, method.message_id, message.message_id)
        return message
