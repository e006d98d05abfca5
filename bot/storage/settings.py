"""Chat and user settings (PRODUCT.md §15) as every storage keeps them: one JSON object per chat
and per user, validated on read. A stored value that doesn't validate (hand-edited, written by
a later version) gives the defaults and a log line; it never stops an update.

The languages are not here: they keep their own columns (``chats.language``, ``users.language``).
"""

from __future__ import annotations

import logging
from enum import StrEnum
from typing import Final, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bot.logsafe import safe
from bot.slow import TURN_TIMES, TurnTime, Zone

log = logging.getLogger(__name__)

TURN_TIMEOUTS: Final = TURN_TIMES  # PRODUCT.md §15, seconds: short turns, then long ones
OptionValue = int | bool | str
M = TypeVar("M", bound=BaseModel)
E = TypeVar("E", bound=StrEnum)


class ChatHands(StrEnum):
    """Where a group's hands go (§19); the values are the stored ones. A button steps through
    them in this order."""

    # in the group when the bot is an administrator there (it may then send them at any time),
    # else in each player's private chat
    AUTO = "auto"
    GROUP = "group"  # in the group, as ephemeral messages only their owner sees
    PRIVATE = "private"  # in each player's private chat


class UserHands(StrEnum):
    """Where a person's own hands go (§19)."""

    GROUP = "group"  # as each group says
    PRIVATE = "private"  # always in private


class Pings(StrEnum):
    """A person's turn pings (§15)."""

    ON = "on"  # a ping at each of his turns
    REMINDERS = "reminders"  # no ping per turn, only the reminder


class Tips(StrEnum):
    """A person's one-line tips on his hand (bot.render.tips); a button steps through them."""

    AUTO = "auto"  # while he has finished fewer than NEWCOMER_MATCHES matches of the game
    ON = "on"  # at every decision that has one
    OFF = "off"  # never


NEWCOMER_MATCHES: Final = 2
"""Tips «auto» show at a game until a person has finished this many matches of it: a match
holds many deals, so each decision comes up again and again in the first two."""


def member(kind: type[E], value: str) -> E | None:
    """The member of ``kind`` whose value is ``value`` (None: none is — a press's argument
    from an older or a forged button)."""
    try:
        return kind(value)
    except ValueError:
        return None


class ChatSettings(BaseModel):
    """A group's settings, set by its admins with /settings."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    turn_timeout_s: TurnTime | None = None  # None: the operator's setting
    computers: bool = True  # computer players may be seated in the lobby
    # game code → its default options (name → value), checked against the game when used
    options: dict[str, dict[str, OptionValue]] = Field(default_factory=dict)
    hands: ChatHands = ChatHands.AUTO  # where the hands of this group's tables go (§19)


class UserSettings(BaseModel):
    """A person's own settings, set with /settings in private."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    pings: Pings = Pings.ON
    words: bool = False  # «Cards in words»: the hand message names its cards in full (§12)
    hands: UserHands = UserHands.GROUP
    tips: Tips = Tips.AUTO  # one-line tips on his hand (bot.render.tips)
    quiet: bool = True  # quiet hours (bot.slow): a long turn's reminder waits for the morning
    zone: Zone = ""  # his time zone for quiet hours ("": his language's)
    # his name on boards across chats (/daily top, /score season all): False «Player 1», …
    hidden: bool = False


def hands_in_group(
    chat: ChatSettings, bot_is_admin: bool, user: UserSettings | None = None
) -> bool:
    """Whether hands go to the group as ephemeral messages (§19): a table's (``user`` None) or
    one player's, whose "always in private" overrides the group. "auto" follows whether the bot
    is an administrator of the group."""
    if user is not None and user.hands is UserHands.PRIVATE:
        return False
    if chat.hands is ChatHands.AUTO:
        return bot_is_admin
    return chat.hands is ChatHands.GROUP


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
