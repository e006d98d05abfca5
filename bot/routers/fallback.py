"""Included last: every callback nobody else took gets an answer ("Unknown button")."""

from __future__ import annotations

from aiogram import Router
from aiogram.types import CallbackQuery

from bot.i18n import Translator


def make_router() -> Router:
    router = Router(name="fallback")

    @router.callback_query()
    async def unknown(query: CallbackQuery, user_tr: Translator) -> None:
        await query.answer(user_tr("Unknown button."))

    return router
