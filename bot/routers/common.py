"""Small helpers shared by the routers (Telegram-facing)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiogram import Bot
from aiogram.exceptions import TelegramAPIError


def admin_check(bot: Bot, chat_id: int, user_id: int) -> Callable[[], Awaitable[bool]]:
    """A lazy ``is the user an admin of the chat`` (getChatMember only when asked)."""

    async def check() -> bool:
        try:
            member = await bot.get_chat_member(chat_id, user_id)
        except TelegramAPIError:
            return False
        return member.status in ("creator", "administrator")

    return check


async def is_member(bot: Bot, chat_id: int, user_id: int) -> bool:
    """Whether the user belongs to the group (lenient when Telegram can't tell)."""
    try:
        member = await bot.get_chat_member(chat_id, user_id)
    except TelegramAPIError:
        return True
    return member.status not in ("left", "kicked")
