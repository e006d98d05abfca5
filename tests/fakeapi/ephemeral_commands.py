"""Commands a member sends ephemerally (Bot API 10.2–10.3) in the fake: seen by the bot alone.

A client offers to send a bot's command ephemerally when the bot declared it ``is_ephemeral``
in ``setMyCommands`` for the commands that member's client shows in the group — Telegram's
scopes in order (``chat_member``, ``chat_administrators`` for an admin, ``chat``,
``all_chat_administrators`` for an admin, ``all_group_chats``, ``default``), in each the list
of the member's language first, then the one without a language; the first list found is the
one shown. :meth:`EphemeralCommandSender.send_ephemeral` (``anna.send_ephemeral(group,
"/help")``) sends one, and is a :class:`FakeUsageError` for a command not so declared, in a
private chat, from a member who is not in the group (or banned), or to a bot that is no member.
The bot gets it whatever its privacy mode (it is addressed to it): the update's message has
``message_id`` 0, its ``ephemeral_message_id`` (the chat's ephemeral numbering, shared with the
bot's own ephemeral messages) and ``receiver_user`` the bot. Nobody else sees it:
``group.messages`` never holds it (:meth:`EphemeralCommands.incoming_ephemeral` does).

The bot answers it with ``reply_parameters.ephemeral_message_id`` — strict, as the rest of the
fake:

* only in an ephemeral message (400 "a reply to an ephemeral message must be an ephemeral
  message", :mod:`tests.fakeapi.ephemeral`), and only to its sender (400
  :data:`REPLY_OTHER_RECEIVER`);
* within ``ephemeral_reply_validity`` seconds of it being sent (15 s: "an ephemeral message may
  only be replied to within 15 seconds of being sent"); an unknown one, or one too old: 400
  "message to be replied not found".

Such a reply lets a bot that is no administrator send its sender an ephemeral message, as a
callback query of his does. An ephemeral message never takes ``allow_sending_without_reply``
(Telegram: "always False for … sent ephemeral messages"): a reply to a group message that is
gone is 400 "message to be replied not found" for it.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, NamedTuple

from tests.fakeapi.html import utf16_len
from tests.fakeapi.methods import scope_key
from tests.fakeapi.model import ApiError, ChatState, FakeUsageError

if TYPE_CHECKING:
    from tests.fakeapi.server import FakeTelegram
    from tests.fakeapi.users import SimGroup, SimUser

__all__ = [
    "REPLY_OTHER_RECEIVER",
    "REPLY_VALIDITY_S",
    "EphemeralCommandSender",
    "EphemeralCommands",
    "Incoming",
]

JsonDict = dict[str, Any]

REPLY_VALIDITY_S = 15.0
REPLY_OTHER_RECEIVER = "a reply to an ephemeral message must be sent to its sender"
NOT_FOUND = "message to be replied not found"
_ADMINS = frozenset({"administrator", "creator"})


class Incoming(NamedTuple):
    """A command a member sent ephemerally: only the bot saw it."""

    chat_id: int
    ephemeral_id: int
    sender_id: int
    text: str
    at: float  # time.monotonic() when sent


def _bad(description: str) -> ApiError:
    return ApiError(400, f"Bad Request: {description}")


class EphemeralCommands:
    """Mixed into :class:`tests.fakeapi.FakeTelegram` (the bot's side of ephemeral commands)."""

    commands: dict[tuple[str, str], list[JsonDict]]

    def _init_ephemeral_commands(self) -> None:
        self.ephemeral_reply_validity = REPLY_VALIDITY_S
        self._incoming: dict[tuple[int, int], Incoming] = {}

    def incoming_ephemeral(self, chat_id: int) -> list[Incoming]:
        """The commands members sent ephemerally to the chat, oldest first."""
        return [m for (chat, _), m in self._incoming.items() if chat == chat_id]

    def shown_commands(self, user: SimUser, chat: ChatState) -> list[JsonDict]:
        """The bot's commands the member's client shows in the group (see the module)."""
        admin = chat.members.get(user.id) in _ADMINS
        scopes: list[JsonDict] = [{"type": "chat_member", "chat_id": chat.id, "user_id": user.id}]
        if admin:
            scopes.append({"type": "chat_administrators", "chat_id": chat.id})
        scopes.append({"type": "chat", "chat_id": chat.id})
        if admin:
            scopes.append({"type": "all_chat_administrators"})
        scopes += [{"type": "all_group_chats"}, {"type": "default"}]
        languages = [user.language_code, ""] if user.language_code else [""]
        for scope in scopes:
            for language in languages:
                found = self.commands.get((scope_key(scope), language or ""))
                if found is not None:
                    return found
        return []

    def receive_ephemeral(
        self, user: SimUser, chat: ChatState, text: str, thread_id: int | None
    ) -> Incoming:
        """``user`` sends ``text`` (a command) ephemerally in ``chat``: the bot's update."""
        fake: FakeTelegram = self  # type: ignore[assignment]  # mixed into FakeTelegram
        if chat.type not in ("group", "supergroup"):
            raise FakeUsageError("commands are sent ephemerally in groups only")
        status = chat.members.get(user.id)
        if status in (None, "left", "kicked") or user.id in chat.restricted_out:
            raise FakeUsageError(f"{user.first_name} is not a member of {chat.title}")
        if chat.bot_status not in ("member", "administrator", "creator"):
            raise FakeUsageError(f"the bot is no member of {chat.title}: no client offers it")
        word = text.split(maxsplit=1)[0] if text.strip() else ""
        name, _, addressee = word[1:].partition("@")
        if not word.startswith("/") or addressee not in ("", fake.bot_username):
            raise FakeUsageError(f"{text!r} is no command of the bot")
        declared = [c for c in self.shown_commands(user, chat) if c.get("command") == name]
        if not declared or declared[0].get("is_ephemeral") is not True:
            raise FakeUsageError(
                f"/{name} is not declared is_ephemeral for {user.first_name} in {chat.title}: "
                "no client sends it so"
            )
        if thread_id is not None and thread_id not in chat.topics:
            raise FakeUsageError(f"no topic {thread_id} in {chat.title}")
        incoming = Incoming(chat.id, chat.next_ephemeral_id, user.id, text, time.monotonic())
        chat.next_ephemeral_id += 1
        self._incoming[(chat.id, incoming.ephemeral_id)] = incoming
        message: JsonDict = {
            "message_id": 0,
            "from": user.as_user(),
            "chat": chat.as_chat(),
            "date": int(time.time()),
            "text": text,
            "entities": [{"type": "bot_command", "offset": 0, "length": utf16_len(word)}],
            "ephemeral_message_id": incoming.ephemeral_id,
            "receiver_user": dict(fake.bot_user),
        }
        if thread_id is not None:
            message["message_thread_id"] = thread_id
            message["is_topic_message"] = True
        fake.push_update("message", message)
        return incoming

    def _replied_command(self, chat: ChatState, receiver_id: int, raw: object) -> int:
        """The command (sent ephemerally) an ephemeral send replies to, checked: its id."""
        incoming = self._incoming.get((chat.id, raw)) if isinstance(raw, int) else None
        if incoming is None or time.monotonic() - incoming.at > self.ephemeral_reply_validity:
            raise _bad(NOT_FOUND)
        if incoming.sender_id != receiver_id:
            raise _bad(REPLY_OTHER_RECEIVER)
        return incoming.ephemeral_id


class EphemeralCommandSender:
    """Mixed into :class:`tests.fakeapi.SimUser`: a member sends a command ephemerally."""

    fake: FakeTelegram

    async def send_ephemeral(
        self, group: SimGroup, text: str, *, thread_id: int | None = None
    ) -> Incoming:
        """Send command ``text`` in ``group`` for the bot alone (see the module)."""
        user: SimUser = self  # type: ignore[assignment]  # mixed into SimUser
        return self.fake.receive_ephemeral(user, group.state, text, thread_id)
