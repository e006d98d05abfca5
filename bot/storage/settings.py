"""Chat and user settings (PRODUCT.md §15) as every storage keeps them: one JSON object per chat
and per user, validated on read. A stored value that doesn't validate (hand-edited, written by
a later version) gives the defaults and a log line; it never stops an update.

The languages are not here: they keep their own columns (``chats.language``, ``users.language``).
"""

from __future__ import annotations

import logging
from typing import Final, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

log = logging.getLogger(__name__)

TURN_TIMEOUTS: Final = (30, 60, 90, 180, 300)  # PRODUCT.md §15, seconds
OptionValue = int | bool | str
M = TypeVar("M", bound=BaseModel)


class ChatSettings(BaseModel):
    """A group's settings, set by its admins with /settings."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    turn_timeout_s: Literal[30, 60, 90, 180, 300] | None = None  # None: the operator's setting
    computers: bool = True  # computer players may be seated in the lobby
    # game code → its default options (name → value), checked against the game when used
    options: dict[str, dict[str, OptionValue]] = Field(default_factory=dict)


class UserSettings(BaseModel):
    """A person's own settings, set with /settings in private."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    pings: Literal["on", "reminders"] = "on"  # "reminders": no ping per turn, only the reminder
    words: bool = False  # «Cards in words»: the hand message names its cards in full (§12)


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
        log.warning("%s: malformed stored settings, using the defaults: %s", whose, error)
        return model()
