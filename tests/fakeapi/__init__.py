"""A fake Telegram Bot API (HTTP, 127.0.0.1) and simulated users for the bot's tests.

    fake = FakeTelegram(token="123456:TEST-token", bot_username="mushka_test_bot")
    await fake.start()            # fake.base_url == "http://127.0.0.1:PORT"; await fake.stop()
    anna = fake.add_user(101, "Anna", language_code="ru", username="anna")
    group = fake.add_group(-1001, "Card club", admins=[101])   # the bot is already a member
    await anna.start_bot("j_2bq_x7Kp9a")       # "/start j_2bq_x7Kp9a" in private
    await anna.send(group, "/newgame mushka")  # a group command (privacy mode: commands only)
    await fake.settle()                        # bot fetched everything and went quiet
    answer = await anna.press(group.last, "Join")   # -> CallbackAnswer(text, show_alert, url)
    anna.last.buttons / anna.last.text / anna.last.html / group.messages / fake.count("sendMessage")

Ephemeral messages (tests/fakeapi/ephemeral.py): ``anna.ephemeral(group)`` /
``anna.last_ephemeral(group)`` / ``anna.view(group)`` / ``anna.shown_in_place_of(table)``,
``fake.ephemeral_sends()``, ``fake.drop_ephemeral(share, seed)``, ``anna.offline = True``,
``fake.set_bot_admin(chat_id)``; ``group.messages`` never holds them. A member sends a command
the bot declared ``is_ephemeral`` for the bot alone with ``anna.send_ephemeral(group, "/help")``
(tests/fakeapi/ephemeral_commands.py: what the bot may answer it with, and when).

Behaviour worth knowing (it is Telegram's): ``editMessageText`` without ``reply_markup``
removes the inline keyboard; an edit that changes nothing is 400 "message is not modified";
unconfirmed updates are delivered again to the next poller (a restarted bot sees them again);
``parse_mode`` HTML is parsed strictly (unknown tags, unescaped ``<`` and unclosed tags are 400);
MarkdownV2 is accepted but not parsed. Test helpers raise :class:`FakeUsageError` (an
AssertionError) for impossible presses and for answers that never come.
"""

from tests.fakeapi.ephemeral import EphemeralSend
from tests.fakeapi.html import HtmlError, parse_html
from tests.fakeapi.model import (
    ApiCall,
    ApiError,
    Button,
    CallbackAnswer,
    ChatState,
    FakeUsageError,
    MessageVersion,
    SentMessage,
)
from tests.fakeapi.server import FakeTelegram
from tests.fakeapi.users import SimGroup, SimUser, command_entities

__all__ = [
    "ApiCall",
    "ApiError",
    "Button",
    "CallbackAnswer",
    "ChatState",
    "EphemeralSend",
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
