"""A fake Telegram Bot API (HTTP, 127.0.0.1) and simulated users for the bot's tests."""

from tests.fakeapi.html import HtmlError, parse_html
from tests.fakeapi.model import (
    ApiCall,
    ApiError,
    Button,
    CallbackAnswer,
    FakeUsageError,
    MessageVersion,
    SentMessage,
)
from tests.fakeapi.server import ChatState, FakeTelegram
from tests.fakeapi.users import SimGroup, SimUser, command_entities

__all__ = [
    "ApiCall",
    "ApiError",
    "Button",
    "CallbackAnswer",
    "ChatState",
    "FakeTelegram",
    "FakeUsageError",
    "HtmlError",
    "MessageVersion",
    "SentMessage",
    "SimGroup",
    "SimUser",
    "command_entities",
    "parse_html",
]
