"""Presses on hand messages and on the end-of-match buttons (PRODUCT.md §4.5, §4.7, §7.2)."""

from __future__ import annotations

from aiogram import Router
from aiogram.types import CallbackQuery

from bot.callbacks import REFRESH, SEAT_ACTS, EndAct, Kind, Press, PressFilter
from bot.delivery import Delivery
from bot.drawing import Drawing
from bot.i18n import Translator
from bot.middlewares.updates import Trace
from bot.refused import Refused
from bot.routers.errors import answer_refusal
from bot.routers.incoming import pressed
from bot.runtime.commands import (
    ChartPressed,
    EndPressed,
    HandPressed,
    MyCardsPressed,
    RefreshHand,
    SeatPressed,
)
from bot.runtime.handle import Runtime


def make_router() -> Router:
    router = Router(name="play")

    @router.callback_query(PressFilter(Kind.HAND))
    async def on_hand_pressed(
        query: CallbackQuery,
        press: Press,
        runtime: Runtime,
        delivery: Delivery,
        user_tr: Translator,
        trace: Trace,
    ) -> None:
        message = pressed(query)
        command = SeatPressed if press.act in SEAT_ACTS else HandPressed
        try:
            outcome = await runtime.handle(command(press, query.from_user.id, message))
        except Refused as refused:
            if refused.refresh is None:
                raise  # answered in bot/routers/errors.py
            # a stale hand: the refusal answered, the seat's current hand is shown
            trace.refused(refused)
            await answer_refusal(query, refused, user_tr, delivery)
            delivery(await runtime.handle(RefreshHand(press.table, refused.refresh, message)))
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
        runtime: Runtime,
        delivery: Delivery,
        user_tr: Translator,
    ) -> None:
        """🂠 My cards on the table message where hands are in the group: the hand
        comes in place of the table for the presser alone (sent in answer to this very press,
        so the bot needs no admin rights for it)."""
        command = MyCardsPressed(press, query.from_user.id, pressed(query), query.id)
        outcome = await runtime.handle(command)
        delivery(outcome)  # before the answer: the hand is sent with this press's id
        await query.answer(user_tr(outcome.said) if outcome.said else None)

    @router.callback_query(PressFilter(Kind.END))
    async def on_end_pressed(
        query: CallbackQuery,
        press: Press,
        runtime: Runtime,
        delivery: Delivery,
        drawing: Drawing,
        user_tr: Translator,
    ) -> None:
        """Another match or finish; 📈 the game's chart in the group, once (a reply to the
        result; pressed again, a toast says it is above)."""
        if press.act == EndAct.CHART:
            outcome = await runtime.handle(ChartPressed(press, query.from_user.id, pressed(query)))
            delivery(await drawing.drawn(outcome))  # the chart drawn off the event loop
            await query.answer(user_tr(outcome.said) if outcome.said else None)
            return
        delivery(await runtime.handle(EndPressed(press, query.from_user.id, pressed(query))))
        await query.answer()

    return router
