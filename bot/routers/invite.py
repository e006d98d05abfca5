"""Inline mode: ``@<bot>`` in any chat offers the user's open lobbies as invitation cards
(PRODUCT.md §5.6). Results are personal and never cached: seats change."""

from __future__ import annotations

from aiogram import Router
from aiogram.types import InlineQuery, InlineQueryResultArticle, InputTextMessageContent

from bot.callbacks import b36
from bot.delivery import Delivery
from bot.i18n import Translator
from bot.render.invite import InviteCard, invitation, no_table
from bot.runtime.queries import Queries


def _article(result_id: str, card: InviteCard) -> InlineQueryResultArticle:
    return InlineQueryResultArticle(
        id=result_id,
        title=card.title,
        description=card.description,
        input_message_content=InputTextMessageContent(
            message_text=card.message.text, parse_mode="HTML"
        ),
        reply_markup=card.message.markup.to_aiogram() if card.message.markup else None,
    )


def make_router() -> Router:
    router = Router(name="invite")

    @router.inline_query()
    async def invite(
        query: InlineQuery, queries: Queries, delivery: Delivery, user_tr: Translator
    ) -> None:
        lobbies = await queries.lobbies_of(query.from_user.id)
        results = [
            _article(
                f"t{facts.table.id}",
                invitation(
                    facts.table,
                    facts.seats,
                    facts.chat_title,
                    user_tr,
                    delivery.link(f"j_{b36(facts.table.id)}_{facts.table.join_code}"),
                ),
            )
            for facts in lobbies
        ]
        if not results:
            add = f"https://t.me/{delivery.presenter.bot_username}?startgroup=new"
            results = [_article("open", no_table(user_tr, add))]
        await query.answer(results, cache_time=0, is_personal=True)  # type: ignore[arg-type]

    return router
