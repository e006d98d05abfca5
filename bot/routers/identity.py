"""Messages that no person signed (PRODUCT.md §3): an anonymous admin writes as the group itself
(``sender_chat`` is the group, the sender GroupAnonymousBot), a user may write as one of his
channels (``sender_chat`` a channel, the sender Channel_Bot). Telegram gives every such message
the same stand-in sender, so it names nobody: a command that needs a person (to seat, to be a
table's creator, an admin, a player) gets one clear answer, and nothing changes."""

from __future__ import annotations

from typing import Final

from aiogram import F, Router
from aiogram.filters import Command
from aiogram.types import Message

from bot.delivery import Delivery
from bot.i18n import Translator
from bot.routers.incoming import say

GROUPS = F.chat.type.in_({"group", "supergroup"})
PERSONAL: Final = ("newgame", "cancel", "kick", "notify", "hand", "settings", "record")


def make_router() -> Router:
    router = Router(name="identity")

    @router.message(GROUPS, F.sender_chat, Command(*PERSONAL))
    async def not_a_person(message: Message, delivery: Delivery, chat_tr: Translator) -> None:
        say(
            delivery,
            message,
            chat_tr.html("To play, write as yourself, not as the group or a channel."),
            reply=True,
        )

    return router


def unsigned(message: Message) -> bool:
    """Written as a chat (the group or a channel), not by a person."""
    return message.sender_chat is not None
