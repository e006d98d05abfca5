"""Simulated Telegram users and groups: they send updates to the bot and read what it sent."""

from __future__ import annotations

import asyncio
import re
import time
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

from tests.fakeapi.ephemeral import EphemeralViews
from tests.fakeapi.ephemeral_commands import EphemeralCommandSender
from tests.fakeapi.html import utf16_len
from tests.fakeapi.model import (
    CallbackAnswer,
    FakeUsageError,
    MessageVersion,
    SentMessage,
    member_object,
)

if TYPE_CHECKING:
    from tests.fakeapi.model import ChatState
    from tests.fakeapi.server import FakeTelegram

__all__ = ["SimGroup", "SimUser"]

JsonDict = dict[str, Any]
_COMMAND = re.compile(r"(?<!\S)/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]{3,32})?")
ANSWER_TIMEOUT = 5.0
# Telegram's stand-in senders of messages written as a chat (the same for everyone who does so)
GROUP_ANONYMOUS_BOT: JsonDict = {
    "id": 1087968824,
    "is_bot": True,
    "first_name": "Group",
    "username": "GroupAnonymousBot",
}
CHANNEL_BOT: JsonDict = {
    "id": 136817688,
    "is_bot": True,
    "first_name": "Channel",
    "username": "Channel_Bot",
}


def command_entities(text: str) -> list[JsonDict]:
    """``bot_command`` entities, as Telegram marks them (UTF-16 offsets)."""
    return [
        {"type": "bot_command", "offset": utf16_len(text[: m.start()]), "length": utf16_len(m[0])}
        for m in _COMMAND.finditer(text)
    ]


class _ChatReader:
    """What the bot sent to one chat (a group, or a user's private chat), as tests read it."""

    fake: FakeTelegram
    id: int

    def _where(self) -> str:
        raise NotImplementedError

    @property
    def messages(self) -> list[SentMessage]:
        """Every message the bot sent to this chat, oldest first, deleted ones included."""
        return self.fake.messages(self.id)

    @property
    def visible(self) -> list[SentMessage]:
        return [m for m in self.messages if not m.deleted]

    @property
    def last(self) -> SentMessage:
        """The bot's most recent message in this chat that is not deleted."""
        return _last(self.visible, self._where())


class SimGroup(_ChatReader):
    """A group chat as tests see it."""

    def __init__(self, fake: FakeTelegram, chat_id: int) -> None:
        self.fake = fake
        self.id = chat_id

    @property
    def state(self) -> ChatState:
        return self.fake.chat(self.id)

    @property
    def title(self) -> str:
        return self.state.title or ""

    def _where(self) -> str:
        return f"group {self.id}"

    def add_member(self, user: SimUser, status: str = "member") -> None:
        self.state.members[user.id] = status
        self.state.restricted_out.discard(user.id)

    def restrict(self, user: SimUser, *, is_member: bool = True) -> None:
        """Restrict ``user``: still in the group (``is_member``) or restricted from outside."""
        self.state.members[user.id] = "restricted"
        if is_member:
            self.state.restricted_out.discard(user.id)
        else:
            self.state.restricted_out.add(user.id)

    def ban(self, user: SimUser, *, by: SimUser) -> None:
        """``by`` bans ``user``: getChatMember says "kicked" from now on; a bot that is an admin
        gets the ``chat_member`` update (nobody else tells the bot)."""
        chat = self.state
        old = chat.members.get(user.id, "left")
        chat.members[user.id] = "kicked"
        chat.restricted_out.discard(user.id)
        if chat.bot_status == "administrator":
            self.fake.push_update(
                "chat_member",
                {
                    "chat": chat.as_chat(),
                    "from": by.as_user(),
                    "date": int(time.time()),
                    "old_chat_member": member_object(user.as_user(), old),
                    "new_chat_member": member_object(user.as_user(), "kicked"),
                },
            )

    def create_topic(self, name: str, *, by: SimUser) -> int:
        """A forum topic opens: its thread id is the id of its ``forum_topic_created`` service
        message, as in Telegram (the bot is not told: it doesn't need to be)."""
        chat = self.state
        if not chat.is_forum:
            raise FakeUsageError(f"{self.title} is not a forum")
        message = self.fake.store_message(
            chat,
            MessageVersion("", "", (), None),
            sender_id=by.id,
            from_bot=False,
            extra={"forum_topic_created": {"name": name, "icon_color": 7322096}},
        )
        message.thread_id = message.message_id
        chat.topics[message.message_id] = name
        return message.message_id

    def delete_topic(self, thread_id: int) -> None:
        """An admin deletes a topic: its messages go with it; sends there are refused."""
        chat = self.state
        del chat.topics[thread_id]
        for message in chat.messages.values():
            if message.thread_id == thread_id:
                message.deleted = True

    def in_topic(self, thread_id: int | None) -> list[SentMessage]:
        """The bot's messages in one topic (None: the General topic)."""
        return [m for m in self.state.messages.values() if m.from_bot and m.thread_id == thread_id]

    def __repr__(self) -> str:
        return f"SimGroup({self.id}, {self.title!r})"


class SimUser(_ChatReader, EphemeralViews, EphemeralCommandSender):
    """A person using Telegram: starts the bot, writes commands, presses buttons."""

    def __init__(
        self,
        fake: FakeTelegram,
        user_id: int,
        first_name: str,
        language_code: str | None,
        username: str | None,
        last_name: str | None,
    ) -> None:
        self.fake = fake
        self.id = user_id
        self.first_name = first_name
        self.language_code = language_code
        self.username = username
        self.last_name = last_name
        self.started = False
        self.blocked = False

    def as_user(self) -> JsonDict:
        user: JsonDict = {"id": self.id, "is_bot": False, "first_name": self.first_name}
        if self.last_name:
            user["last_name"] = self.last_name
        if self.username:
            user["username"] = self.username
        if self.language_code:
            user["language_code"] = self.language_code
        return user

    # ------------------------------------------------------------------ reading

    def _where(self) -> str:
        return f"private chat of {self.first_name}"

    # ------------------------------------------------------------------ private chat

    async def start_bot(self, payload: str | None = None) -> SentMessage:
        """Press Start (or open a ``?start=payload`` link): sends ``/start [payload]``."""
        chat = self.fake.private_chat(self)
        if self.blocked:
            self.blocked = False
            self._chat_member_update(chat, "kicked", "member")
        self.started = True
        text = "/start" if payload is None else f"/start {payload}"
        return self._send(chat, text)

    async def send_private(self, text: str, *, reply_to: SentMessage | None = None) -> SentMessage:
        if not self.started:
            raise FakeUsageError(f"{self.first_name} has not started the bot (start_bot first)")
        if self.blocked:
            raise FakeUsageError(f"{self.first_name} blocked the bot (start_bot unblocks)")
        return self._send(self.fake.private_chat(self), text, reply_to=reply_to)

    def block_bot(self) -> None:
        """Block the bot: sends to this user now fail with 403 "bot was blocked by the user"."""
        chat = self.fake.private_chat(self)
        if not self.blocked:
            self.blocked = True
            self._chat_member_update(chat, "member", "kicked")

    def delete(self, message: SentMessage) -> None:
        """Delete a message in the private chat from the user's side (the bot is not told)."""
        if message.chat_id != self.id:
            raise FakeUsageError("a user can only delete messages of their private chat")
        message.deleted = True

    # ------------------------------------------------------------------ groups

    async def send(
        self,
        group: SimGroup,
        text: str,
        *,
        reply_to: SentMessage | None = None,
        thread_id: int | None = None,
    ) -> SentMessage:
        """Write in a group. With privacy mode on, the bot gets commands and replies to it."""
        chat = group.state
        if chat.members.get(self.id) in (None, "left"):
            chat.members[self.id] = "member"
        if chat.members[self.id] == "kicked":
            raise FakeUsageError(f"{self.first_name} is banned from {group.title}")
        return self._send(chat, text, reply_to=reply_to, thread_id=thread_id)

    async def send_anonymously(self, group: SimGroup, text: str) -> SentMessage:
        """An anonymous admin writes as the group: ``sender_chat`` is the group, the sender
        Telegram's stand-in GroupAnonymousBot (the same for every anonymous admin)."""
        chat = group.state
        if chat.members.get(self.id) not in ("creator", "administrator"):
            raise FakeUsageError(f"{self.first_name} is no admin of {group.title}")
        extra = {"from": dict(GROUP_ANONYMOUS_BOT), "sender_chat": chat.as_chat()}
        return self._send(chat, text, extra=extra)

    async def send_as_channel(
        self, group: SimGroup, text: str, *, channel_id: int, title: str
    ) -> SentMessage:
        """Write in the group as one of one's channels: ``sender_chat`` is the channel, the
        sender Telegram's stand-in Channel_Bot (the same for every channel)."""
        chat = group.state
        if chat.members.get(self.id) in (None, "left"):
            chat.members[self.id] = "member"
        channel = {"id": channel_id, "type": "channel", "title": title}
        extra = {"from": dict(CHANNEL_BOT), "sender_chat": channel}
        return self._send(chat, text, extra=extra)

    def leave(self, group: SimGroup, *, tell: bool = False) -> None:
        """Leave the group; ``tell``: the bot gets the ``left_chat_member`` service message, as
        Telegram sends it (tests that only need getChatMember to say "left" leave it out)."""
        group.state.members[self.id] = "left"
        group.state.restricted_out.discard(self.id)
        if tell:
            message = self.fake.store_message(
                group.state,
                MessageVersion("", "", (), None),
                sender_id=self.id,
                from_bot=False,
                extra={"left_chat_member": self.as_user()},
            )
            self.fake.push_update("message", self.fake.message_dict(message))

    # ------------------------------------------------------------------ buttons

    async def press(
        self,
        message: SentMessage,
        text_contains: str | None = None,
        *,
        data: str | None = None,
        timeout: float = ANSWER_TIMEOUT,  # noqa: ASYNC109
    ) -> CallbackAnswer:
        """Press a callback button (by text substring, or exact ``data``); return the answer."""
        if message.deleted:
            raise FakeUsageError(f"message {message} is deleted; nothing to press")
        self._check_can_see(message)
        if (text_contains is None) == (data is None):
            raise FakeUsageError("press needs exactly one of text_contains or data=")
        if text_contains is not None:
            button = message.button(text_contains)
        else:
            matches = [b for b in message.all_buttons if b.callback_data == data]
            if not matches:
                raise FakeUsageError(
                    f"no button with data {data!r}; buttons: {message.describe_buttons()}"
                )
            button = matches[0]
        if button.callback_data is None:
            raise FakeUsageError(
                f"button {button.text!r} is not a callback button ({button.raw}); "
                "use open_link for URL buttons"
            )
        return await self.press_raw(message, data=button.callback_data, timeout=timeout)

    async def press_raw(
        self,
        message: SentMessage,
        *,
        data: str,
        inaccessible: bool = False,
        timeout: float = ANSWER_TIMEOUT,  # noqa: ASYNC109
    ) -> CallbackAnswer:
        """Send a callback query with arbitrary data from ``message`` (forged/stale presses).

        ``inaccessible``: the query carries an ``InaccessibleMessage`` (chat, id, date 0), as
        Telegram sends for a message too old for the bot to see.
        """
        _, future = self._push_press(message, data, inaccessible)
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            raise FakeUsageError(
                f"the bot did not answer callback query {data!r} of {self.first_name} "
                f"within {timeout} s"
            ) from None

    def press_nowait(self, message: SentMessage, *, data: str) -> str:
        """Press (callback ``data`` on ``message``) without waiting for the answer — pressed
        while the bot is down, say: its update waits for the bot. The query's id."""
        self._check_can_see(message)
        query_id, _ = self._push_press(message, data, inaccessible=False)
        return query_id

    def _push_press(
        self, message: SentMessage, data: str, inaccessible: bool
    ) -> tuple[str, asyncio.Future[CallbackAnswer]]:
        query_id = f"{self.id}{self.fake.next_id()}"
        query: JsonDict = {
            "id": query_id,
            "from": self.as_user(),
            "chat_instance": str(abs(hash((message.chat_id, self.fake.bot_id)))),
            "data": data,
        }
        if message.inline_message_id is not None and message.via_bot:
            query["inline_message_id"] = message.inline_message_id
        elif inaccessible:
            chat = self.fake.chat(message.chat_id)
            query["message"] = {"chat": chat.as_chat(), "message_id": message.message_id, "date": 0}
        else:
            query["message"] = self.fake.message_dict(message)
        future = self.fake.expect_callback_answer(query_id)
        self.fake.push_update("callback_query", query)
        return query_id, future

    async def open_link(self, url: str, *, group: SimGroup | None = None) -> SentMessage | None:
        """Follow a t.me link to the bot: ``?start=`` starts it; ``?startgroup=`` adds it."""
        parts = urlsplit(url if "://" in url else f"https://{url}")
        query = {k: v[0] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
        name = query.get("domain") if parts.scheme == "tg" else parts.path.strip("/")
        if parts.netloc not in ("t.me", "telegram.me", "resolve") or name != self.fake.bot_username:
            raise FakeUsageError(f"{url!r} is not a link to @{self.fake.bot_username}")
        if "startgroup" in query:
            if group is None:
                raise FakeUsageError("a startgroup link needs group=")
            add_bot_to(self.fake, group, by=self)
            payload = query["startgroup"]
            if payload:
                return await self.send(group, f"/start@{self.fake.bot_username} {payload}")
            return None
        return await self.start_bot(query.get("start") or None)

    # ------------------------------------------------------------------ inline mode

    async def inline_query(
        self,
        query: str = "",
        *,
        chat_type: str = "sender",
        timeout: float = ANSWER_TIMEOUT,  # noqa: ASYNC109
    ) -> list[JsonDict]:
        """Type ``@bot query``; return the results of the bot's answerInlineQuery."""
        query_id = f"{self.id}{self.fake.next_id()}"
        future = self.fake.expect_inline_answer(query_id)
        self.fake.push_update(
            "inline_query",
            {
                "id": query_id,
                "from": self.as_user(),
                "query": query,
                "offset": "",
                "chat_type": chat_type,
            },
        )
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            raise FakeUsageError(
                f"the bot did not answer inline query {query!r} within {timeout} s"
            ) from None

    async def choose_inline_result(
        self, result: JsonDict, chat: SimGroup | SimUser, *, query: str = ""
    ) -> SentMessage:
        """Send an inline result into ``chat`` (a group, or another user's private chat)."""
        content = result.get("input_message_content") or {}
        text = str(content.get("message_text", ""))
        markup = result.get("reply_markup")
        state = chat.state if isinstance(chat, SimGroup) else self.fake.private_chat(chat)
        if state.type != "private" and state.members.get(self.id) in (None, "left"):
            state.members[self.id] = "member"
        plain, entities = text, list[JsonDict]()
        if str(content.get("parse_mode", "")).lower() == "html":
            from tests.fakeapi.html import parse_html

            plain, entities = parse_html(text)
        inline_id = f"inl{self.fake.next_id()}" if markup else None
        message = self.fake.store_message(
            state,
            MessageVersion(plain.strip(), text, tuple(entities), markup),
            sender_id=self.id,
            from_bot=False,
            via_bot=True,
            inline_message_id=inline_id,
            parse_mode=content.get("parse_mode"),
        )
        if self.fake.inline_feedback:
            chosen: JsonDict = {
                "result_id": str(result.get("id")),
                "from": self.as_user(),
                "query": query,
            }
            if inline_id is not None:
                chosen["inline_message_id"] = inline_id
            self.fake.push_update("chosen_inline_result", chosen)
        return message

    @property
    def state(self) -> ChatState:
        return self.fake.private_chat(self)

    # ------------------------------------------------------------------ internals

    def _check_can_see(self, message: SentMessage) -> None:
        self._check_ephemeral_view(message)
        chat = self.fake.chat(message.chat_id)
        if chat.type == "private":
            if chat.id != self.id:
                raise FakeUsageError(
                    f"{self.first_name} cannot see a message in {chat.first_name}'s private "
                    "chat (use press_raw for a forged press)"
                )
        elif (
            chat.members.get(self.id) in (None, "left", "kicked") or self.id in chat.restricted_out
        ):
            raise FakeUsageError(f"{self.first_name} is not a member of {chat.title}")

    def _send(
        self,
        chat: ChatState,
        text: str,
        *,
        reply_to: SentMessage | None = None,
        thread_id: int | None = None,
        extra: JsonDict | None = None,
    ) -> SentMessage:
        entities = command_entities(text)
        if thread_id is not None and thread_id not in chat.topics:
            raise FakeUsageError(f"no topic {thread_id} in {chat.title}")
        replied = None if reply_to is None else reply_to.message_id
        if thread_id is None and reply_to is not None:
            thread_id = reply_to.thread_id  # a reply stays in the topic of what it answers
        message = self.fake.store_message(
            chat,
            MessageVersion(text, text, tuple(entities), None),
            sender_id=self.id,
            from_bot=False,
            # in a topic, a message that answers nothing replies to the topic's first message
            reply_to=replied if replied is not None or thread_id is None else thread_id,
            thread_id=thread_id,
            extra=dict(extra or {}),
        )
        if self._bot_sees(chat, text, reply_to):
            self.fake.push_update("message", self.fake.message_dict(message))
        return message

    def _bot_sees(self, chat: ChatState, text: str, reply_to: SentMessage | None) -> bool:
        if chat.type == "private":
            return True
        if chat.bot_status not in ("member", "administrator", "creator"):
            return False
        if not self.fake.privacy_mode or chat.bot_status in ("administrator", "creator"):
            return True
        if reply_to is not None and reply_to.from_bot:
            return True
        for m in _COMMAND.finditer(text):
            _, _, addressee = m[0].partition("@")
            if not addressee or addressee.lower() == self.fake.bot_username.lower():
                return True
        return False

    def _chat_member_update(self, chat: ChatState, old: str, new: str) -> None:
        self.fake.push_update(
            "my_chat_member",
            {
                "chat": chat.as_chat(),
                "from": self.as_user(),
                "date": int(time.time()),
                "old_chat_member": member_object(self.fake.bot_user, old),
                "new_chat_member": member_object(self.fake.bot_user, new),
            },
        )

    def __repr__(self) -> str:
        return f"SimUser({self.id}, {self.first_name!r})"


def add_bot_to(fake: FakeTelegram, group: SimGroup, *, by: SimUser, admin: bool = False) -> None:
    """``by`` adds the bot to ``group``: a ``my_chat_member`` update and a service message."""
    chat = group.state
    if chat.members.get(by.id) in (None, "left"):
        chat.members[by.id] = "member"
    chat.bot_status = "administrator" if admin else "member"
    by._chat_member_update(chat, "left", chat.bot_status)
    message = fake.store_message(
        chat,
        MessageVersion("", "", (), None),
        sender_id=by.id,
        from_bot=False,
        extra={"new_chat_members": [fake.bot_user]},
    )
    fake.push_update("message", fake.message_dict(message))


def remove_bot_from(fake: FakeTelegram, group: SimGroup, *, by: SimUser) -> None:
    """``by`` removes the bot: a ``my_chat_member`` update; later sends get 403."""
    chat = group.state
    old = chat.bot_status
    chat.bot_status = "kicked"
    by._chat_member_update(chat, old, "kicked")


def _last(messages: list[SentMessage], where: str) -> SentMessage:
    if not messages:
        raise FakeUsageError(f"the bot has sent nothing (visible) to the {where}")
    return messages[-1]
