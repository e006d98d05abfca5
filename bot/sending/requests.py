"""What the outbox's calls are made of (:mod:`bot.sending.calls` makes them): a step's
``sendMessage`` and what an ephemeral one replies to, why a keyed message can't go, and which
failures leave an owed message owed."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram.exceptions import (
    TelegramMigrateToChat,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.types import ReplyParameters

from bot.sending.json_session import SendText
from bot.sending.steps import Post, Show

"""Why a keyed message can't go: a 403, a gone forum topic, a message for one member of a group
that Telegram would not take (not a member, no rights, a press too old)."""
TOPIC_GONE = re.compile(r"thread not found|TOPIC_(CLOSED|DELETED)", re.IGNORECASE)

Sleep = Callable[[float], Awaitable[None]]
STAYS_OWED = (
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
    TelegramMigrateToChat,
)
"""Failures after which an owed message is still owed: the Bot API out of reach, or too busy,
past the request middleware's patience (:mod:`bot.sending.session`); the group became a
supergroup (its entries follow it there, :meth:`bot.runtime.redraw.Redraw.migrate_chat`)."""


class Postponed(Exception):
    """An owed message could not be sent for now (a :data:`STAYS_OWED` failure): it stays owed,
    held to be sent again while the bot runs (:mod:`bot.sending.held`)."""


def send_text(chat_id: int, step: Show | Post, paid: bool, **rest: Any) -> SendText:
    """``sendMessage`` of the step's text, keyboard and topic (``paid``: as a paid broadcast;
    ``rest``: the kind's own)."""
    return SendText(
        chat_id=chat_id,
        text=step.rendered.text,
        message_thread_id=step.thread,
        reply_markup=step.rendered.markup,
        allow_paid_broadcast=True if paid else None,
        **rest,
    )


def reply_of(step: Show | Post) -> ReplyParameters | None:
    """What an ephemeral message replies to: the command its receiver sent ephemerally, or his
    command's message in the group (never sent without it: Telegram has no
    ``allow_sending_without_reply`` for ephemeral messages)."""
    if isinstance(step, Show) and step.replying is not None:
        return ReplyParameters(ephemeral_message_id=step.replying)
    if step.reply_to is not None:
        return ReplyParameters(message_id=step.reply_to)
    return None
