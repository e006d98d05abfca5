"""Presses on hand messages and on the end-of-match buttons (PRODUCT.md §4.5, §4.7, §7.2)."""

from __future__ import annotations

from aiogram import Router
from aiogram.types import CallbackQuery

from bot.caches.members import Members
from bot.callbacks import MY_CARDS, REFRESH, EndAct, Kind, Press, PressFilter
from bot.delivery import Delivery
from bot.drawing import Drawing
from bot.i18n import Translator
from bot.middlewares.updates import Trace
from bot.refused import BotRefusal, Refused
from bot.routers.errors import answer_refusal
from bot.runtime.outcome import chart_key, is_hand_key, keys
from bot.runtime.runtime import PressSource, TableRuntime


def make_router() -> Router:
    router = Router(name="play")

    @router.callback_query(PressFilter(Kind.HAND))
    async def on_hand_pressed(
        query: CallbackQuery,
        press: Press,
        runtime: TableRuntime,
        delivery: Delivery,
        user_tr: Translator,
        trace: Trace,
    ) -> None:
        message = query.message
        chat_id = message.chat.id if message else 0
        # a hand in the group only its owner sees (#32): its id is an ephemeral one
        ephemeral = getattr(message, "ephemeral_message_id", None)
        message_id = ephemeral or (message.message_id if message else 0)
        key = (
            await delivery.message_key(chat_id, message_id, ephemeral=ephemeral is not None)
            if message
            else None
        )
        offers = (
            await delivery.offers(chat_id, key)
            if is_hand_key(key, press.table, press.seat or 0) and key is not None
            else None
        )
        source = PressSource(chat_id, message_id, key, offers, ephemeral is not None)
        try:
            outcome = await runtime.press(press, query.data or "", query.from_user.id, source)
        except Refused as refused:
            if refused.refresh is None:
                raise  # answered in bot/routers/errors.py
            # a stale hand: the refusal answered, the seat's current hand is shown
            trace.refused(refused)
            await answer_refusal(query, refused, user_tr, delivery)
            delivery(await runtime.refresh(press.table, refused.refresh, source))
            return
        delivery.defer(outcome)  # rendered right after the answer, in commit order
        try:
            fresh = press.act == REFRESH
            await query.answer(user_tr("Your cards are up to date.") if fresh else None)
        finally:
            delivery.flush()

    @router.callback_query(PressFilter(Kind.TABLE))
    async def on_my_cards(
        query: CallbackQuery,
        press: Press,
        runtime: TableRuntime,
        delivery: Delivery,
        user_tr: Translator,
    ) -> None:
        """🂠 My cards on the table message where hands are in the group (#32): the hand
        comes in place of the table for the presser alone (sent in answer to this very press,
        so the bot needs no admin rights for it)."""
        message = query.message
        key = await delivery.message_key(message.chat.id, message.message_id) if message else None
        if press.act != MY_CARDS or key != keys(press.table).table:
            raise Refused(BotRefusal.UNKNOWN_BUTTON)
        outcome, said = await runtime.my_cards(press.table, query.from_user.id, query.id)
        delivery(outcome)  # before the answer: the hand is sent with this press's id
        await query.answer(user_tr(said) if said else None)

    @router.callback_query(PressFilter(Kind.END))
    async def on_end_pressed(
        query: CallbackQuery,
        press: Press,
        runtime: TableRuntime,
        delivery: Delivery,
        members: Members,
        drawing: Drawing,
        user_tr: Translator,
    ) -> None:
        message = query.message
        key = await delivery.message_key(message.chat.id, message.message_id) if message else None
        if press.act == EndAct.CHART:
            await on_chart_pressed(query, press, key, runtime, delivery, drawing, user_tr)
            return
        outcome = await runtime.end_press(
            press,
            query.from_user.id,
            key,
            members.admin_check(message.chat.id if message else 0, query.from_user.id),
        )
        delivery(outcome)
        await query.answer()

    async def on_chart_pressed(
        query: CallbackQuery,
        press: Press,
        key: str | None,
        runtime: TableRuntime,
        delivery: Delivery,
        drawing: Drawing,
        user_tr: Translator,
    ) -> None:
        """📈 on a match result (#35): the game's chart in the group, once (a reply to the
        result); pressed again, a toast says it is above."""
        message = query.message
        chat_id, message_id = (message.chat.id, message.message_id) if message else (0, None)
        shown = await delivery.posted(chat_id, chart_key(press.table, press.version))
        outcome, said = await runtime.chart_press(press, query.from_user.id, key, message_id, shown)
        delivery(await drawing.drawn(outcome))  # the chart drawn off the event loop
        await query.answer(user_tr(said) if said else None)

    return router
