"""A member leaves the group or is banned (the ``left_chat_member`` service message, which bots
get even in privacy mode; or a ``chat_member`` update, which an admin bot gets): in the lobby he
is unseated; at a running table the computer plays his seat for the rest of the table — he may
no longer act there (PRODUCT.md §3, §13) — and the group is told once. The bot itself removed
from the group, or no longer allowed to write there (``my_chat_member``): the group's open
table closes and its players are told in private."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.enums import ChatMemberStatus
from aiogram.types import ChatMemberUpdated, Message

from bot.caches.members import Members, Membership
from bot.delivery import Delivery
from bot.runtime.chat_commands import BotRemoved, MemberLeft
from bot.runtime.handle import Runtime


def make_router() -> Router:
    router = Router(name="members")

    @router.message(F.left_chat_member)
    async def left(
        message: Message, runtime: Runtime, delivery: Delivery, members: Members
    ) -> None:
        user = message.left_chat_member
        if user is None or user.is_bot:
            return
        await members.forget(message.chat.id, user.id)
        delivery(await runtime.handle(MemberLeft(message.chat.id, user.id)))

    @router.chat_member()
    async def member_status(
        update: ChatMemberUpdated, runtime: Runtime, delivery: Delivery, members: Members
    ) -> None:
        user = update.new_chat_member.user
        await members.forget(update.chat.id, user.id)  # changed: asked again (every worker)
        if user.is_bot or update.chat.type not in ("group", "supergroup"):
            return
        status = ChatMemberStatus(update.new_chat_member.status)
        if not Membership(status, is_in(update)).belongs:
            delivery(await runtime.handle(MemberLeft(update.chat.id, user.id)))

    @router.my_chat_member()
    async def bot_status(
        update: ChatMemberUpdated, runtime: Runtime, delivery: Delivery, members: Members
    ) -> None:
        # made an administrator or no longer one: asked again next time (where its answers go)
        await members.forget(update.chat.id, update.new_chat_member.user.id)
        if update.chat.type not in ("group", "supergroup") or not cannot_write(update):
            return
        delivery(await runtime.handle(BotRemoved(update.chat.id)))

    return router


def cannot_write(update: ChatMemberUpdated) -> bool:
    """The bot's new status leaves it no way to write to the group."""
    member = update.new_chat_member
    status = ChatMemberStatus(member.status)
    if status in (ChatMemberStatus.LEFT, ChatMemberStatus.KICKED):
        return True
    return status is ChatMemberStatus.RESTRICTED and not getattr(member, "can_send_messages", True)


def is_in(update: ChatMemberUpdated) -> bool:
    """A restricted member's ``is_member`` (True for every other status)."""
    return bool(getattr(update.new_chat_member, "is_member", True))
