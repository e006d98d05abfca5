"""STYLE.md §9: the request middleware honours Telegram's limits (PRODUCT.md §9, §10)."""

from __future__ import annotations

import gc
import weakref
from datetime import UTC, datetime
from typing import Any

import pytest
from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest, TelegramRetryAfter
from aiogram.methods import (
    EditMessageReplyMarkup,
    EditMessageText,
    Response,
    SendMessage,
    TelegramMethod,
)
from aiogram.types import Chat, Message

from bot.sending.session import TelegramLimits

BOT = Bot("123456:TEST-token")


class Script:
    """A stand-in for the next request handler: answers from a list, records every call."""

    def __init__(self, *answers: Any) -> None:
        self.answers = list(answers)
        self.calls: list[TelegramMethod[Any]] = []

    async def __call__(self, bot: Bot, method: TelegramMethod[Any]) -> Any:
        self.calls.append(method)
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer


def message(message_id: int, chat_id: int = 7) -> Message:
    chat = Chat(id=chat_id, type="private")
    return Message(message_id=message_id, date=datetime.fromtimestamp(0, UTC), chat=chat, text="x")


def limits() -> tuple[TelegramLimits, list[float]]:
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    return TelegramLimits(retries=3, max_wait=5.0, sleep=sleep), slept


def retry(method: TelegramMethod[Any], seconds: int) -> TelegramRetryAfter:
    return TelegramRetryAfter(method=method, message="Too Many Requests", retry_after=seconds)


async def test_10_429_waits_retry_after_then_succeeds() -> None:
    middleware, slept = limits()
    send = SendMessage(chat_id=7, text="hi")
    script = Script(retry(send, 2), retry(send, 60), message(5))
    result = await middleware(script, BOT, send)
    assert isinstance(result, Message) and result.message_id == 5
    assert slept == [2.0, 5.0]  # the second wait is capped at max_wait
    assert len(script.calls) == 3 and middleware.retried == 2


async def test_10_429_retries_are_bounded() -> None:
    middleware, slept = limits()
    send = SendMessage(chat_id=7, text="hi")
    script = Script(*(retry(send, 1) for _ in range(4)))
    with pytest.raises(TelegramRetryAfter):
        await middleware(script, BOT, send)
    assert len(script.calls) == 4 and len(slept) == 3


@pytest.mark.parametrize("kind", [EditMessageText, EditMessageReplyMarkup])
async def test_9_not_modified_is_success(kind: type[TelegramMethod[Any]]) -> None:
    middleware, _ = limits()
    fields: dict[str, Any] = {"chat_id": 7, "message_id": 3}
    if kind is EditMessageText:
        fields["text"] = "same"
    edit = kind(**fields)
    script = Script(TelegramBadRequest(edit, "Bad Request: message is not modified: same"))
    result: object = await middleware(script, BOT, edit)
    assert result is True


async def test_9_cant_edit_sends_anew_and_remembers_the_id() -> None:
    middleware, _ = limits()
    edit = EditMessageText(chat_id=7, message_id=3, text="table v2")
    script = Script(TelegramBadRequest(edit, "Bad Request: message can't be edited"), message(9))
    result = await middleware(script, BOT, edit)
    assert isinstance(result, Message) and result.message_id == 9
    sent = script.calls[1]
    assert isinstance(sent, SendMessage) and sent.text == "table v2" and sent.chat_id == 7
    assert middleware.moved_to(7, 3) == 9
    # a later edit of the old id goes to the new message
    later = EditMessageText(chat_id=7, message_id=3, text="table v3")
    script = Script(message(9))
    await middleware(script, BOT, later)
    assert isinstance(script.calls[0], EditMessageText) and script.calls[0].message_id == 9


async def test_9_other_bad_requests_go_up() -> None:
    middleware, _ = limits()
    send = SendMessage(chat_id=7, text="<b>")
    script = Script(TelegramBadRequest(send, "Bad Request: can't parse entities"))
    with pytest.raises(TelegramBadRequest):
        await middleware(script, BOT, send)


async def test_answers_are_parsed_without_building_a_pydantic_class_per_call() -> None:
    """aiogram parses each answer with ``Response[<returned type>]``; pydantic keeps those
    classes only weakly, so an edit's ``Response[Message | bool]`` was built anew on every call.
    Once the middleware has seen a method, the class stays the same object."""
    middleware, _ = limits()
    edit = EditMessageText(chat_id=7, message_id=5, text="hi")
    await middleware(Script(True), BOT, edit)
    parsed_with = weakref.ref(Response[EditMessageText.__returning__])
    gc.collect()
    assert parsed_with() is not None  # kept: the next answer reuses it
