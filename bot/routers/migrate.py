"""A group becomes a supergroup: Telegram says so twice, ``migrate_to_chat_id`` in
the old chat and ``migrate_from_chat_id`` in the new one; whichever comes first moves the
chat's tables, standings and remembered messages to the new id, the other finds nothing left.
The old chat's messages are forgotten (the new chat can't edit them): the open tables' group
messages are sent anew in the new chat."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.types import Message

from bot.delivery import Delivery
from bot.runtime.chat_commands import ChatMigrated
from bot.runtime.handle import Runtime
from bot.sending.outbox import Outbox


async def migrate(old: int, new: int, runtime: Runtime, outbox: Outbox, delivery: Delivery) -> None:
    outcome = await runtime.handle(ChatMigrated(old, new))
    outbox.forget_chat(old)  # after the unit of work: nothing queued for the old chat stays
    delivery(outcome)


def make_router() -> Router:
    router = Router(name="migrate")

    @router.message(F.migrate_to_chat_id)
    async def moved_to(
        message: Message, runtime: Runtime, outbox: Outbox, delivery: Delivery
    ) -> None:
        assert message.migrate_to_chat_id is not None
        await migrate(message.chat.id, message.migrate_to_chat_id, runtime, outbox, delivery)

    @router.message(F.migrate_from_chat_id)
    async def moved_from(
        message: Message, runtime: Runtime, outbox: Outbox, delivery: Delivery
    ) -> None:
        assert message.migrate_from_chat_id is not None
        await migrate(message.migrate_from_chat_id, message.chat.id, runtime, outbox, delivery)

    return router
