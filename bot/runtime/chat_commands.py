"""A group's commands, its members' and the chat's own changes, the restart's resume: the
commands that come from a chat or the process rather than from a press or a deadline (those
are :mod:`bot.runtime.commands`', whose ``Command`` gathers every kind)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from bot.runtime.lock_keys import (
    ChatKey,
    ChatTablesKey,
    HereKey,
    LockKey,
    OwedKey,
    TableKey,
    UserTablesKey,
)

if TYPE_CHECKING:
    from bot.runtime.commands import Guard


@dataclass(frozen=True, slots=True)
class OpenTable:
    """/newgame (§4.1): a lobby opens in the chat (or forum topic); ``game`` "" the picker,
    ``options`` as ``name=value`` texts."""

    guards: ClassVar[tuple[Guard, ...]] = ()
    chat_id: int
    thread: int | None
    user_id: int
    name: str
    game: str
    options: dict[str, str] | None = None

    @property
    def key(self) -> LockKey:
        return ChatKey(self.chat_id)


@dataclass(frozen=True, slots=True)
class OpenPractice:
    """/practice in private: a table of the person and computers opens and starts there; one
    already running there is shown again instead."""

    guards: ClassVar[tuple[Guard, ...]] = ()
    user_id: int
    name: str
    game: str
    options: dict[str, str] | None = None
    anew: bool = False  # close the one open there first
    title: str = ""  # what its screens call the chat («Тренировка»), in his language

    @property
    def key(self) -> LockKey:
        return ChatTablesKey(self.user_id)  # his private chat and its table


@dataclass(frozen=True, slots=True)
class OpenDaily:
    """/daily: the person's try at the day's deal of ``game`` opens in his private chat (or,
    tried already that day, his result so far, or his running try shown again); ``group_id``:
    the group he started it from (told his result as it ends)."""

    guards: ClassVar[tuple[Guard, ...]] = ()
    user_id: int
    name: str
    game: str
    group_id: int | None = None
    title: str = ""  # what its screens call the chat («Задача дня»), in his language

    @property
    def key(self) -> LockKey:
        return ChatTablesKey(self.user_id)  # his private chat and its table


@dataclass(frozen=True, slots=True)
class ClosePractice:
    """/cancel in private: the person's practice table there closes (never rated)."""

    guards: ClassVar[tuple[Guard, ...]] = ()
    user_id: int

    @property
    def key(self) -> LockKey:
        return ChatTablesKey(self.user_id)  # his private chat and its table


@dataclass(frozen=True, slots=True)
class Kick:
    """/kick (§4.9, §13), an admin's reply to a player's message; ``target`` the replied-to
    user (id, first name), None if the command was no reply."""

    guards: ClassVar[tuple[Guard, ...]] = ()  # the admin first, then the table (the handler)
    chat_id: int
    thread: int | None
    user_id: int
    target: tuple[int, str] | None
    reply_to: int

    @property
    def key(self) -> LockKey:
        return HereKey(self.chat_id, self.thread)


@dataclass(frozen=True, slots=True)
class ToggleNotify:
    """/notify: the user's new-table ping for this group, on or off."""

    guards: ClassVar[tuple[Guard, ...]] = ()
    chat_id: int
    thread: int | None
    user_id: int
    reply_to: int

    @property
    def key(self) -> LockKey:
        return ChatKey(self.chat_id)


@dataclass(frozen=True, slots=True)
class ShowHands:
    """/hand (or 🂠's deep link): the user's hands sent anew — every running table's, the one
    of the chat (and topic) ``here`` (a /hand in a group), or table ``only`` (the link's)."""

    guards: ClassVar[tuple[Guard, ...]] = ()
    user_id: int
    only: int | None = None
    here: tuple[int, int | None] | None = None

    @property
    def key(self) -> LockKey:
        return UserTablesKey(self.user_id) if self.only is None else TableKey(self.only)


@dataclass(frozen=True, slots=True)
class MemberLeft:
    """A member left the group or was banned."""

    guards: ClassVar[tuple[Guard, ...]] = ()
    chat_id: int
    user_id: int

    @property
    def key(self) -> LockKey:
        return ChatTablesKey(self.chat_id)


@dataclass(frozen=True, slots=True)
class BotRemoved:
    """The bot was removed from the group, or may not write there any more."""

    guards: ClassVar[tuple[Guard, ...]] = ()
    chat_id: int

    @property
    def key(self) -> LockKey:
        return ChatTablesKey(self.chat_id)


@dataclass(frozen=True, slots=True)
class ChatMigrated:
    """The group ``old`` became the supergroup ``new``: its tables follow."""

    guards: ClassVar[tuple[Guard, ...]] = ()
    old: int
    new: int

    @property
    def key(self) -> LockKey:
        return ChatTablesKey(self.old)


@dataclass(frozen=True, slots=True)
class RedrawHands:
    """The user's settings changed (language, cards in words): his hands drawn again."""

    guards: ClassVar[tuple[Guard, ...]] = ()
    user_id: int

    @property
    def key(self) -> LockKey:
        return UserTablesKey(self.user_id)


@dataclass(frozen=True, slots=True)
class RedrawChat:
    """The chat's language changed: its lobbies and live tables drawn again."""

    guards: ClassVar[tuple[Guard, ...]] = ()
    chat_id: int

    @property
    def key(self) -> LockKey:
        return ChatTablesKey(self.chat_id)


@dataclass(frozen=True, slots=True)
class ResumeOwed:
    """A restart: what the chats are still owed, drawn again, oldest first."""

    guards: ClassVar[tuple[Guard, ...]] = ()

    @property
    def key(self) -> LockKey:
        return OwedKey()


@dataclass(frozen=True, slots=True)
class Resume:
    """A restart: an open table's screens as the database has them; ``reminded``: its turn
    reminder fired for the current move."""

    guards: ClassVar[tuple[Guard, ...]] = ()
    table_id: int
    reminded: bool = False

    @property
    def key(self) -> LockKey:
        return TableKey(self.table_id)
