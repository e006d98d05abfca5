"""What the fake stores and hands to tests: calls, messages, buttons, callback answers."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "ApiCall",
    "ApiError",
    "Button",
    "CallbackAnswer",
    "FakeUsageError",
    "MessageVersion",
    "SentMessage",
    "buttons_of",
]

JsonDict = dict[str, Any]


class FakeUsageError(AssertionError):
    """A test asked the fake for something that cannot happen (no such button, no answer…)."""


class ApiError(Exception):
    """A Bot API error response: ``{"ok": false, "error_code": …, "description": …}``."""

    def __init__(
        self, error_code: int, description: str, parameters: JsonDict | None = None
    ) -> None:
        super().__init__(f"{error_code} {description}")
        self.error_code = error_code
        self.description = description
        self.parameters = parameters

    def body(self) -> JsonDict:
        body: JsonDict = {
            "ok": False,
            "error_code": self.error_code,
            "description": self.description,
        }
        if self.parameters:
            body["parameters"] = self.parameters
        return body


@dataclass
class ApiCall:
    """One request the bot made. ``params`` are decoded (JSON fields parsed, numbers as int)."""

    method: str
    params: JsonDict
    at: float
    ok: bool = True
    error_code: int | None = None
    description: str | None = None
    result: Any = None

    @property
    def chat_id(self) -> Any:
        return self.params.get("chat_id")

    @property
    def ephemeral(self) -> bool:
        """Whether the call was about an ephemeral message (only its receiver sees the text)."""
        return (
            "ephemeral_message_parameters" in self.params
            or "receiver_user_id" in self.params
            or "ephemeral" in self.method.lower()
        )


@dataclass(frozen=True)
class Button:
    """One inline keyboard button, as the bot sent it."""

    text: str
    callback_data: str | None = None
    url: str | None = None
    switch_inline_query: str | None = None
    switch_inline_query_current_chat: str | None = None
    style: str | None = None  # "primary" | "success" | "danger" (Bot API 10.2)
    disabled: bool = False  # the button carries a ``disabled`` object (it does nothing)
    raw: JsonDict = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def of(cls, raw: JsonDict) -> Button:
        return cls(
            text=str(raw.get("text", "")),
            callback_data=raw.get("callback_data"),
            url=raw.get("url"),
            switch_inline_query=raw.get("switch_inline_query"),
            switch_inline_query_current_chat=raw.get("switch_inline_query_current_chat"),
            style=raw.get("style"),
            disabled=raw.get("disabled") is not None,
            raw=raw,
        )


def buttons_of(markup: JsonDict | None) -> list[list[Button]]:
    if not markup or "inline_keyboard" not in markup:
        return []
    return [[Button.of(b) for b in row] for row in markup["inline_keyboard"]]


@dataclass(frozen=True)
class MessageVersion:
    """A message's content at one moment (the first send, then after each edit)."""

    text: str
    html: str
    entities: tuple[JsonDict, ...]
    reply_markup: JsonDict | None

    @property
    def buttons(self) -> list[list[Button]]:
        return buttons_of(self.reply_markup)

    def key(self) -> str:
        """What Telegram compares for "message is not modified"."""
        return json.dumps([self.text, self.entities, self.reply_markup], sort_keys=True)


@dataclass(frozen=True)
class Upload:
    """A file a request uploaded (multipart): its name and bytes."""

    filename: str
    data: bytes


@dataclass
class SentMessage:
    """A message in a chat, live: edits and deletions update this very object.

    ``text`` is the plain text (tags stripped, entities unescaped), ``html`` the text as the
    bot gave it. ``sender_id`` is the bot's id for bot messages, the user's id otherwise.
    """

    message_id: int
    chat_id: int
    sender_id: int
    date: int
    version: MessageVersion
    from_bot: bool = True
    parse_mode: str | None = None
    reply_to: int | None = None
    thread_id: int | None = None
    disable_notification: bool = False
    link_preview_options: JsonDict | None = None
    via_bot: bool = False
    inline_message_id: str | None = None
    deleted: bool = False
    editable: bool = True
    edits: int = 0
    edit_date: int | None = None
    history: list[MessageVersion] = field(default_factory=list)
    extra: JsonDict = field(default_factory=dict)  # service fields of user messages
    document: Upload | None = None  # a sendDocument's file
    photo: Upload | None = None  # a sendPhoto's picture (its bytes, as uploaded)
    # ephemeral messages (tests/fakeapi/ephemeral.py): message_id is 0, these say which one
    ephemeral_id: int | None = None
    receiver_id: int | None = None
    replaces: int | None = None  # the message its receiver sees it in place of
    reply_to_ephemeral: int | None = None  # the command its receiver sent ephemerally it answers
    delivered: bool = True  # False: accepted by the API, never shown to the receiver

    @property
    def text(self) -> str:
        return self.version.text

    @property
    def html(self) -> str:
        return self.version.html

    @property
    def entities(self) -> tuple[JsonDict, ...]:
        return self.version.entities

    @property
    def reply_markup(self) -> JsonDict | None:
        return self.version.reply_markup

    @property
    def buttons(self) -> list[list[Button]]:
        return self.version.buttons

    @property
    def all_buttons(self) -> list[Button]:
        return [b for row in self.buttons for b in row]

    def button(self, text_contains: str) -> Button:
        """The one button whose text contains ``text_contains`` (an exact match wins over
        substrings); raises listing all buttons when there is none or several."""
        found = [b for b in self.all_buttons if text_contains in b.text]
        exact = [b for b in found if b.text == text_contains]
        if len(found) > 1 and len(exact) == 1:
            return exact[0]
        if len(found) != 1:
            what = "no button" if not found else f"{len(found)} buttons"
            raise FakeUsageError(
                f"{what} containing {text_contains!r} in message {self.message_id} "
                f"of chat {self.chat_id}; buttons: {self.describe_buttons()}\ntext: {self.text}"
            )
        return found[0]

    def has_button(self, text_contains: str) -> bool:
        return any(text_contains in b.text for b in self.all_buttons)

    def describe_buttons(self) -> str:
        if not self.buttons:
            return "(none)"
        return " / ".join(
            " | ".join(f"{b.text!r}→{b.callback_data or b.url or b.raw}" for b in row)
            for row in self.buttons
        )

    def __str__(self) -> str:
        flag = " [deleted]" if self.deleted else ""
        if self.ephemeral_id is not None:
            flag += f" [ephemeral {self.ephemeral_id} for {self.receiver_id}]"
        return f"#{self.message_id}@{self.chat_id}{flag}: {self.text}"


@dataclass
class CallbackAnswer:
    """The bot's answerCallbackQuery for one press."""

    query_id: str
    text: str | None = None
    show_alert: bool = False
    url: str | None = None
    cache_time: int | None = None
    latency: float = 0.0  # seconds from the press to the bot's answer


@dataclass
class ChatState:
    """The fake's view of one chat (private: id = the user's id)."""

    id: int
    type: str
    title: str | None = None
    username: str | None = None
    first_name: str | None = None
    is_forum: bool = False
    next_id: int = 1
    messages: dict[int, SentMessage] = field(default_factory=dict)
    members: dict[int, str] = field(default_factory=dict)  # user id -> status
    restricted_out: set[int] = field(default_factory=set)  # "restricted", is_member false
    bot_status: str = "member"
    migrated_to: int | None = None
    menu_button: JsonDict | None = None
    topics: dict[int, str] = field(default_factory=dict)  # a forum's topics: thread id -> name
    ephemeral: dict[int, SentMessage] = field(default_factory=dict)  # ephemeral id -> message
    next_ephemeral_id: int = 1

    def as_chat(self) -> JsonDict:
        chat: JsonDict = {"id": self.id, "type": self.type}
        if self.type == "private":
            chat["first_name"] = self.first_name or ""
            if self.username:
                chat["username"] = self.username
        else:
            chat["title"] = self.title or ""
            if self.username:
                chat["username"] = self.username
            if self.is_forum:
                chat["is_forum"] = True
        return chat


RESTRICTED_RIGHTS = (
    "can_send_messages",
    "can_send_audios",
    "can_send_documents",
    "can_send_photos",
    "can_send_videos",
    "can_send_video_notes",
    "can_send_voice_notes",
    "can_send_polls",
    "can_send_other_messages",
    "can_add_web_page_previews",
    "can_react_to_messages",
    "can_edit_tag",
    "can_change_info",
    "can_invite_users",
    "can_pin_messages",
    "can_manage_topics",
)


def member_object(user: JsonDict, status: str, *, is_member: bool = True) -> JsonDict:
    """A ``ChatMember`` object of the given status, with every field aiogram requires.

    ``is_member`` matters for "restricted" only: a restricted user may be in the chat or not.
    """
    out: JsonDict = {"user": user, "status": status}
    if status == "restricted":
        out.update(dict.fromkeys(RESTRICTED_RIGHTS, False), is_member=is_member, until_date=0)
    elif status == "creator":
        out["is_anonymous"] = False
    elif status == "administrator":
        out.update(
            dict.fromkeys(
                (
                    "can_be_edited",
                    "is_anonymous",
                    "can_promote_members",
                    "can_post_stories",
                    "can_edit_stories",
                    "can_delete_stories",
                ),
                False,
            )
        )
        out.update(
            dict.fromkeys(
                (
                    "can_manage_chat",
                    "can_delete_messages",
                    "can_manage_video_chats",
                    "can_restrict_members",
                    "can_change_info",
                    "can_invite_users",
                    "can_pin_messages",
                    "can_send_welcome_messages",
                ),
                True,
            )
        )
    elif status == "kicked":
        out["until_date"] = 0
    return out
