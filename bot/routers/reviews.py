"""🔎 a finished deal's review (:mod:`bot.reviews`): opened from a deal's result (or /record's
list of deals) for the presser alone, in his private chat — the summary of his decisions
first, then the deal step by step in one message that ⏮ ◀ ▶ ⏭ edit in place and ✖️ removes.

A read, as /record is: no table lock, no command. Who may open which review is
:func:`bot.reviews.closed`'s; a stale or forged press (no such table, match, deal or step, a
step pressed anywhere but on the presser's own review) is refused and changes nothing."""

from __future__ import annotations

from aiogram import Router
from aiogram.types import CallbackQuery

from bot.caches.people import People
from bot.callbacks import Kind, Press, PressCodec, PressFilter, ReviewAct
from bot.delivery import Delivery
from bot.i18n import Translator
from bot.keys import NamedKey
from bot.refused import BotRefusal, Refused
from bot.render.review_chat import NOT_YET, parse_arg, step_message
from bot.rendered import Rendered
from bot.reviews import ReviewPages, Reviews
from bot.routers.incoming import pressed
from bot.sending.steps import Old
from bot.storage.reviews_sql import ReviewKey


def review_key(key: ReviewKey) -> NamedKey:
    """The review's step message in the viewer's private chat: one a deal."""
    return NamedKey(f"review:{key.table_id}:{key.match_no}:{key.deal_no}")


def make_router() -> Router:
    router = Router(name="reviews")

    @router.callback_query(PressFilter(Kind.REVIEW))
    async def on_review_pressed(
        query: CallbackQuery,
        press: Press,
        reviews: Reviews,
        people: People,
        delivery: Delivery,
        codec: PressCodec,
        user_tr: Translator,
    ) -> None:
        user_id, message = query.from_user.id, pressed(query)
        in_private = message.chat_id == user_id
        where = parse_arg(press.arg)
        if where is None:
            raise Refused(BotRefusal.STALE_BUTTON)
        deal_no, index = where
        if press.act != ReviewAct.OPEN and not in_private:  # a review's own buttons: his alone
            raise Refused(BotRefusal.STALE_BUTTON)
        if not in_private:  # from the group: the review goes to his private chat
            user = await people.user(user_id)
            if user is None or not user.private_ok:
                raise Refused(BotRefusal.OPEN_PRIVATE_CHAT, alert=True, link="s")
        pages = await reviews.pages(press.table, press.version, deal_no, user_id, user_tr)
        if pages is None:
            raise Refused(BotRefusal.STALE_BUTTON)
        if not isinstance(pages, ReviewPages):
            await query.answer(user_tr(NOT_YET[pages]), show_alert=True)
            return
        key, box = review_key(pages.key), delivery.presenter.outbox
        if press.act == ReviewAct.CLOSE:
            box.delete(user_id, key)
            await query.answer()
            return
        text = pages.step(index)
        if text is None:  # no such step
            raise Refused(BotRefusal.STALE_BUTTON)
        shown = step_message(pages.key, text, index, len(pages.steps), user_tr, codec)
        if press.act == ReviewAct.STEP:
            if await delivery.message_id(user_id, key) != message.message_id:
                raise Refused(BotRefusal.STALE_BUTTON)  # an older review's message
            box.show(user_id, key, shown)  # edited in place
            await query.answer()
            return
        if pages.summary:
            delivery.post(user_id, Rendered(pages.summary))
        box.show(user_id, key, shown, fresh=True, old=Old.DELETE)
        said = None if in_private else user_tr("🔎 The review is in our private chat.")
        await query.answer(said)

    return router
