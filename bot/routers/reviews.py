"""🔎 a finished deal's review (:mod:`bot.reviews`): opened from a deal's result (or /record's
list of deals) for the presser alone — the summary of his decisions first, then the deal step
by step in one message that ⏮ ◀ ▶ ⏭ edit in place and ✖️ removes. Where, as the hands go
(§19): in the group, for him alone (ephemeral messages, sent in answer to his press: no admin
rights needed), where the table's hands go there and he keeps his own there; else in his
private chat.

A read, as /record is: no table lock, no command. Who may open which review is
:func:`bot.reviews.closed`'s; a stale or forged press (no such table, match, deal or step, a
step pressed anywhere but on the presser's own review message) is refused and changes
nothing."""

from __future__ import annotations

from dataclasses import dataclass

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
from bot.reviews import Opened, Reviews
from bot.routers.incoming import pressed
from bot.runtime.message_book import Pressed
from bot.sending.steps import Old
from bot.storage.reviews_sql import ReviewKey
from bot.storage.rows import Hands, TableRow
from bot.storage.settings import UserHands


@dataclass(frozen=True, slots=True)
class Place:
    """Where one viewer's review shows: his private chat (``receiver`` None), or the table's
    group for him alone; its step message's key and its summary's there."""

    chat_id: int
    receiver: int | None
    thread: int | None
    step: NamedKey
    summary: NamedKey


def place_of(key: ReviewKey, user_id: int, opened: Opened, in_group: bool) -> Place:
    name = f"review:{key.table_id}:{key.match_no}:{key.deal_no}"
    if not in_group:
        return Place(user_id, None, None, NamedKey(name), NamedKey(f"{name}:summary"))
    name = f"{name}:{user_id}"  # each member's own, in the one group
    table = opened.table
    return Place(
        table.chat_id, user_id, table.thread_id, NamedKey(name), NamedKey(f"{name}:summary")
    )


async def hands_in_group(table: TableRow, user_id: int, people: People) -> bool:
    """Whether his review shows in the group: the table's hands go there, and his do."""
    if table.hands is not Hands.GROUP:
        return False
    return (await people.user_settings(user_id)).hands is not UserHands.PRIVATE


async def reachable(user_id: int, people: People) -> None:
    """Refused unless the bot may write to him in private (he opened the chat once)."""
    user = await people.user(user_id)
    if user is None or not user.private_ok:
        raise Refused(BotRefusal.OPEN_PRIVATE_CHAT, alert=True, link="s")


async def on_its_review(
    message: Pressed, place: Place, delivery: Delivery, *, act: ReviewAct
) -> None:
    """A review's own button counts only on the viewer's own review message, where it shows."""
    if act == ReviewAct.OPEN:
        return
    mine = message.chat_id == place.chat_id and message.ephemeral == (place.receiver is not None)
    ephemeral = message.ephemeral
    key = await delivery.message_key(message.chat_id, message.message_id, ephemeral=ephemeral)
    if not mine or key != place.step:
        raise Refused(BotRefusal.STALE_BUTTON)


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
        where = parse_arg(press.arg)
        if where is None:
            raise Refused(BotRefusal.STALE_BUTTON)
        deal_no, index = where
        act = ReviewAct(press.act)
        in_private = message.chat_id == user_id
        answered = False

        async def in_group(table: TableRow) -> bool:
            if in_private or message.chat_id != table.chat_id:
                return False
            return await hands_in_group(table, user_id, people)

        def said(shown_in_group: bool) -> str | None:
            if shown_in_group or in_private:
                return None
            return user_tr("🔎 The review is in our private chat.")

        async def before_search(table: TableRow) -> None:
            """🔎's review is about to be computed (a second or two): he is answered now — or
            refused before any of it, when it could not reach him."""
            nonlocal answered
            here = await in_group(table)
            if not here and not in_private:
                await reachable(user_id, people)
            await query.answer(said(here))
            answered = True

        opened = await reviews.pages(
            press.table,
            press.version,
            deal_no,
            user_id,
            user_tr,
            before_search=before_search if act == ReviewAct.OPEN else None,
        )
        if opened is None:
            raise Refused(BotRefusal.STALE_BUTTON)
        if not isinstance(opened, Opened):
            await query.answer(user_tr(NOT_YET[opened]), show_alert=True)
            return
        pages = opened.pages
        here = await in_group(opened.table)
        place = place_of(pages.key, user_id, opened, here)
        await on_its_review(message, place, delivery, act=act)
        box = delivery.presenter.outbox
        if act == ReviewAct.CLOSE:
            box.delete(place.chat_id, place.step, receiver=place.receiver)
            box.delete(place.chat_id, place.summary, receiver=place.receiver)
            await query.answer()
            return
        text = pages.step(index)
        if text is None:  # no such step
            raise Refused(BotRefusal.STALE_BUTTON)
        shown = step_message(pages.key, text, index, len(pages.steps), user_tr, codec)
        if act == ReviewAct.STEP:
            box.show(place.chat_id, place.step, shown, receiver=place.receiver)  # in place
            await query.answer()
            return
        if not here and not in_private and not answered:  # to his private chat
            await reachable(user_id, people)
        answering = query.id if here else None  # a member's own press: no rights needed
        summary = [(place.summary, Rendered(pages.summary))] if pages.summary else []
        for key, rendered in (*summary, (place.step, shown)):  # his decisions first, if any
            box.show(
                place.chat_id,
                key,
                rendered,
                fresh=True,
                old=Old.DELETE,
                thread=place.thread,
                receiver=place.receiver,
                answering=answering,
            )
        if not answered:
            await query.answer(said(here))

    return router
