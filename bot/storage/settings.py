"""Chat and user settings (PRODUCT.md §15) as every storage keeps them: one JSON object per chat
and per user, validated on read. A stored value that doesn't validate (hand-edited, written by
a later version) gives the defaults and a log line; it never stops an update.

The languages are not here: they keep their own columns (``chats.language``, ``users.language``).
"""

from __future__ import annotations

import logging
from typing import Final, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bot.logsafe import safe

log = logging.getLogger(__name__)

TURN_TIMEOUTS: Final = (30, 60, 90, 180, 300)  # PRODUCT.md §15, seconds
OptionValue = int | bool | str
ChatHands = Literal["auto", "group", "private"]  # where a group's hands go (§19)
UserHands = Literal["group", "private"]  # a person's own: as the group says, always in private
CHAT_HANDS: Final[tuple[ChatHands, ...]] = ("auto", "group", "private")
USER_HANDS: Final[tuple[UserHands, ...]] = ("group", "private")
M = TypeVar("M", bound=BaseModel)


class ChatSettings(BaseModel):
    """A group's settings, set by its admins with /settings."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    turn_timeout_s: Literal[30, 60, 90, 180, 300] | None = None  # None: the operator's setting
    computers: bool = True  # computer players may be seated in the lobby
    # game code → its default options (name → value), checked against the game when used
    options: dict[str, dict[str, OptionValue]] = Field(default_factory=dict)
    # where the hands of this group's tables go (§19): "group" in the group, as ephemeral
    # messages only their owner sees; "private" in each player's private chat; "auto" in the
    # group when the bot is an administrator there (it may then send them at any time)
    hands: ChatHands = "auto"


class UserSettings(BaseModel):
    """A person's own settings, set with /settings in private."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    pings: Literal["on", "reminders"] = "on"  # "reminders": no ping per turn, only the reminder
    words: bool = False  # «Cards in words»: the hand message names its cards in full (§12)
    hands: UserHands = "group"  # "group": as each group says; "private": always in private (§19)


def hands_in_group(
    chat: ChatSettings, bot_is_admin: bool, user: UserSettings | None = None
) -> bool:
    """Whether hands go to the group as ephemeral messages (§19): a table's (``user`` None) or
    one player's, whose "always in private" overrides the group. "auto" follows whether the bot
    is an administrator of the group."""
    if user is not None and user.hands == "private":
        return False
    if chat.hands == "auto":
        return bot_is_admin
    return chat.hands == "group"


def chat_settings(text: str | None, chat_id: int = 0) -> ChatSettings:
    """The stored JSON as settings; the defaults (and a log line) if it doesn't validate."""
    return _parse(ChatSettings, text, f"chat {chat_id}")


def user_settings(text: str | None, user_id: int = 0) -> UserSettings:
    return _parse(UserSettings, text, f"user {user_id}")


def _parse(model: type[M], text: str | None, whose: str) -> M:
    if not text:
        return model()
    try:
        return model.model_validate_json(text)
    except ValidationError as error:
        log.warning("%s: malformed stored settings, using the defaults: %s", whose, safe(error))
        return model()
