"""Every error in a handler is logged with its update, and a pending button press still gets an
answer, so no update fails silently and no client spins on an unanswered press (STYLE.md §1.4)."""

from __future__ import annotations

import contextlib
import logging

from aiogram import Router
from aiogram.exceptions import TelegramAPIError
from aiogram.types import ErrorEvent

from bot.i18n import Catalogues, locale_of

logger = logging.getLogger(__name__)


def make_router() -> Router:
    router = Router(name="errors")

    @router.errors()
    async def on_error(event: ErrorEvent, catalogues: Catalogues) -> bool:
        update = event.update
        query = update.callback_query
        chat = query.message.chat.id if query and query.message else None
        logger.error(
            "update=%s chat=%s failed: %r",
            update.update_id,
            chat,
            event.exception,
            exc_info=event.exception,
        )
        if query is not None:
            tr = catalogues.tr(locale_of(query.from_user.language_code, catalogues.default))
            with contextlib.suppress(TelegramAPIError):  # it may have been answered already
                await query.answer(tr("Something went wrong. Please try again."))
        return True

    return router
