"""What an update says, read once for the routers (Telegram-facing): the topic, the asker, the
pressed message, the membership lookup; and how a short reply is said."""

from __future__ import annotations

from typing import Final

from aiogram import Bot
from aiogram.enums import ChatMemberStatus
from aiogram.exceptions import TelegramAPIError, TelegramBadRequest
from aiogram.types import CallbackQuery, Message

from bot.answers import Asked
from bot.caches.members import Lookup, Membership
from bot.delivery import Delivery
from bot.markup import Html
from bot.rendered import Keyboard, Rendered
from bot.runtime.message_book import Pressed

NOT_IN_CHAT: Final = ("user not found", "member not found", "participant not found")
"""Telegram's 400s that say the user is not in the chat ("Bad Request: member not found" …)."""


def member_lookup(bot: Bot) -> Lookup:
    """getChatMember as :class:`~bot.caches.members.Members` asks it (None: can't tell).
    Telegram's "member/user/participant not found" is an answer (he is not in the chat); any
    other error is not — "chat not found" (the chat gone or moved, the bot no longer in it),
    429, a network error, a 5xx: the press is refused for now, nobody barred for good."""

    async def lookup(chat_id: int, user_id: int) -> Membership | None:
        try:
            member = await bot.get_chat_member(chat_id, user_id)
        except TelegramBadRequest as error:
            said = error.message.lower()
            gone = any(n in said for n in NOT_IN_CHAT)
            return Membership(ChatMemberStatus.LEFT) if gone else None
        except TelegramAPIError:
            return None
        status = ChatMemberStatus(member.status)  # Telegram's string, as aiogram parsed it
        return Membership(status, bool(getattr(member, "is_member", True)))

    return lookup


def topic(message: Message) -> int | None:
    """The forum topic a group message was written in (None: a plain group, or a forum's
    General topic, whose messages carry no thread id)."""
    return message.message_thread_id if message.is_topic_message else None


def command_of(message: Message) -> str:
    """The command a message starts with (``/rules@bot mushka`` → ``rules``; "" for none)."""
    word = (message.text or "").split(maxsplit=1)[0] if (message.text or "").strip() else ""
    return word[1:].partition("@")[0].lower() if word.startswith("/") else ""


def asked(message: Message) -> Asked:
    """A command written in a group, as its answer needs it."""
    user = message.from_user
    ephemeral = message.ephemeral_message_id
    return Asked(
        message.chat.id,
        user.id if user is not None else 0,
        command_of(message),
        None if ephemeral is not None else message.message_id,
        ephemeral,
        topic(message),
        person=user is not None and message.sender_chat is None,
    )


def say(
    delivery: Delivery,
    message: Message,
    text: Html,
    markup: Keyboard | None = None,
    *,
    reply: bool = False,
    reply_to: int | None = None,
) -> None:
    """Answer a command through the outbox: in private in order with everything else the chat
    is shown; in a group as an answer (:mod:`bot.answers`: to the asker alone where Telegram
    allows it, once per person and command a window, never ahead of the table). ``reply``: a
    reply to the command (to him alone, always); ``reply_to``: to that message instead (an
    earlier post the answer points to)."""
    rendered = Rendered(text, markup)
    if message.chat.type != "private":
        delivery.answers.answer(asked(message), rendered, reply=reply, reply_to=reply_to)
        return
    if reply_to is None and reply:
        reply_to = message.message_id
    delivery.post(message.chat.id, rendered, reply_to=reply_to, thread=topic(message))


def pressed(query: CallbackQuery) -> Pressed:
    """The message a button was pressed on, as Telegram gave it: a hand in the group only its
    owner sees has an ephemeral id of its own; an inaccessible one: chat 0, id 0."""
    message = query.message
    if message is None:
        return Pressed(0, 0)
    ephemeral = getattr(message, "ephemeral_message_id", None)
    if ephemeral is not None:
        return Pressed(message.chat.id, ephemeral, ephemeral=True)
    return Pressed(message.chat.id, message.message_id)
