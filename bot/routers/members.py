"""A member leaves the group (the ``left_chat_member`` service message, which bots get even in
privacy mode): in the lobby he is unseated; at a running table the computer plays his seat, as
after two expiries (PRODUCT.md §13), and the group is told once."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.types import Message

from bot.present import Delivery
from bot.runtime.runtime import TableRuntime


def make_router() -> Router:
    router = Router(name="members")

    @router.message(F.left_chat_member)
    async def left(message: Message, runtime: TableRuntime, delivery: Delivery) -> None:
        user = message.left_chat_member
        if user is None or user.is_bot:
            return
        delivery(await runtime.member_left(message.chat.id, user.id))

    return router
