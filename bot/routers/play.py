"""Presses on hand messages and on the end-of-pulka buttons (PRODUCT.md §4.5, §4.7, §7.2)."""

from __future__ import annotations

from aiogram import Bot, Router
from aiogram.types import CallbackQuery

from bot.callbacks import Kind, Press, PressFilter
from bot.i18n import Translator
from bot.refused import Refused
from bot.render.common import Rendered
from bot.render.refusals import refusal_text
from bot.sending.publisher import Publisher
from bot.services.locks import TableLocks
from bot.services.members import Members
from bot.services.tables import Moved, TableService


def make_router() -> Router:
    router = Router(name="play")

    @router.callback_query(PressFilter(Kind.HAND))
    async def on_hand_pressed(
        query: CallbackQuery,
        press: Press,
        bot: Bot,
        tables: TableService,
        publisher: Publisher,
        locks: TableLocks,
        user_tr: Translator,
    ) -> None:
        message = query.message
        chat_id = message.chat.id if message else 0
        message_id = message.message_id if message else 0
        async with locks.hold(press.table):
            try:
                outcome = await tables.press(
                    press, query.data or "", query.from_user.id, chat_id, message_id
                )
            except Refused as refused:
                await query.answer(refusal_text(refused, user_tr))
                if refused.refresh is not None:
                    await _refresh(publisher, tables, press, refused.refresh, chat_id, message_id)
                return
            await query.answer()
            if isinstance(outcome, Moved):
                await publisher.after_move(outcome)
            else:
                table = outcome.table
                live = await tables.live(table)
                seats = await tables.repo.seats(table.id)
                await publisher.hand(table, live, seats, outcome.seat)

    @router.callback_query(PressFilter(Kind.END))
    async def on_end_pressed(
        query: CallbackQuery,
        press: Press,
        tables: TableService,
        publisher: Publisher,
        locks: TableLocks,
        members: Members,
        user_tr: Translator,
    ) -> None:
        message = query.message
        async with locks.hold(press.table):
            try:
                table = await tables.table(press.table)
                if table is None or table.status == "closed":
                    raise Refused("This table is closed.")
                pressed = tables.check_message(
                    table,
                    press,
                    message.chat.id if message else None,
                    message.message_id if message else None,
                )
                await tables.ensure_member(table, query.from_user.id, members)
                admin = members.admin_check(table.chat_id, query.from_user.id)
                if press.act == "r":
                    live = await tables.next_pulka(
                        table.id, press.version, query.from_user.id, admin
                    )
                    await query.answer()
                    await publisher.sender.strip_keyboard(table.chat_id, pressed)
                    await publisher.pulka_started(table, live)
                else:
                    await tables.finish(table.id, press.version, query.from_user.id, admin)
                    await query.answer()
                    ctr = await publisher.chat_tr(table.chat_id)
                    await publisher.sender.strip_keyboard(table.chat_id, pressed)
                    await publisher.sender.send(
                        table.chat_id, Rendered(ctr("This table is closed."))
                    )
            except Refused as refused:
                await query.answer(refusal_text(refused, user_tr))

    return router


async def _refresh(
    publisher: Publisher,
    tables: TableService,
    press: Press,
    seat: int,
    chat_id: int,
    message_id: int,
) -> None:
    """A stale press: strip the old message's keyboard, make sure the current hand is live."""
    table = await tables.table(press.table)
    if table is None or table.status != "running":
        return
    hands = await tables.repo.hands(table.id)
    current = hands.get(seat)
    if current is not None and current.message_id != message_id:
        await publisher.sender.strip_keyboard(chat_id, message_id)
    live = await tables.live(table)
    seats = await tables.repo.seats(table.id)
    await publisher.hand(table, live, seats, seat)
