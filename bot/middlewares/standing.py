"""An outer middleware on ``dp.message``: before a command written in a group is handled,
whether the bot is an administrator there is known (getChatMember, trusted a minute), so that
its answer can go to the asker alone (:mod:`bot.answers`) — decided at once, in order with
the chat's other messages, when the handler gives it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware
from aiogram.types import Message, TelegramObject

from bot.answers import Answers

Handler = Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]]
GROUPS = frozenset({"group", "supergroup"})


class BotStanding(BaseMiddleware):
    def __init__(self, answers: Answers) -> None:
        self.answers = answers

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        if (
            isinstance(event, Message)
            and event.chat.type in GROUPS
            and (event.text or "").startswith("/")
            and event.ephemeral_message_id is None  # answered to him alone in any case
            and event.sender_chat is None  # written as a chat: answered in the group
        ):
            await self.answers.learn(event.chat.id)
        return await handler(event, data)
