"""What goes wrong in a handler, in one place. A refusal (:class:`~bot.refused.Refused`: the
runtime said no, nothing changed) is shown to its sender, as a press's answer or a reply to
the command. Every other error is logged with its update, and a pending button press still
gets an answer, so no update fails silently and no client spins on an unanswered press
(STYLE.md §1.4)."""

from __future__ import annotations

import contextlib
import logging

from aiogram import Router
from aiogram.exceptions import TelegramAPIError
from aiogram.filters import ExceptionTypeFilter
from aiogram.types import CallbackQuery, ErrorEvent, Message

from bot.delivery import Delivery
from bot.i18n import Catalogues, Translator, locale_of
from bot.logsafe import safe
from bot.refused import Refused
from bot.render.refusals import refusal_html, refusal_text
from bot.rendered import Rendered
from bot.routers.incoming import asked, topic

logger = logging.getLogger(__name__)


async def answer_refusal(
    query: CallbackQuery, refused: Refused, tr: Translator, delivery: Delivery
) -> None:
    """A press's refusal as its answer: a toast, or an alert; its button may open a link."""
    url = delivery.link(refused.link) if refused.link else refused.url
    show_alert = True if refused.alert else None
    await query.answer(refusal_text(refused, tr), show_alert=show_alert, url=url)


async def reply_refusal(
    message: Message, refused: Refused, tr: Translator, delivery: Delivery
) -> None:
    """A command's refusal, in its chat: a reply to the message the refusal names, or in a
    group to the command — there, as any answer to a command goes (:mod:`bot.answers`)."""
    chat_id = message.chat.id
    reply_to = None
    if refused.reply_to_key is not None:
        reply_to = await delivery.message_id(chat_id, refused.reply_to_key)
    rendered = Rendered(refusal_html(refused, tr))
    if message.chat.type != "private":
        delivery.answers.answer(asked(message), rendered, reply=True, reply_to=reply_to)
        return
    delivery.post(chat_id, rendered, reply_to=reply_to, thread=topic(message))


def make_router() -> Router:
    router = Router(name="errors")

    @router.errors(ExceptionTypeFilter(Refused))
    async def on_refused(
        event: ErrorEvent, delivery: Delivery, user_tr: Translator, chat_tr: Translator
    ) -> None:
        refused = event.exception
        assert isinstance(refused, Refused)
        update = event.update
        try:
            if update.callback_query is not None:
                await answer_refusal(update.callback_query, refused, user_tr, delivery)
            elif update.message is not None:
                await reply_refusal(update.message, refused, chat_tr, delivery)
        except TelegramAPIError as error:
            logger.error(
                "update=%s refusal not shown: %s",
                update.update_id,
                safe(repr(error)),
                exc_info=error,
            )

    @router.errors()
    async def on_error(event: ErrorEvent, catalogues: Catalogues) -> bool:
        update = event.update
        query = update.callback_query
        chat = query.message.chat.id if query and query.message else None
        logger.error(
            "update=%s chat=%s failed: %s",
            update.update_id,
            chat,
            safe(repr(event.exception)),
            exc_info=event.exception,
        )
        if query is not None:
            tr = catalogues.tr(locale_of(query.from_user.language_code, catalogues.default))
            with contextlib.suppress(TelegramAPIError):  # it may have been answered already
                await query.answer(tr("Something went wrong. Please try again."))
        return True

    return router
