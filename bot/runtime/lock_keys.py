"""The lock a command takes (its ``key``): one table's, a chat's, the table here, or several
tables, which :meth:`Runtime.handle <bot.runtime.handle.Runtime.handle>` takes in one fixed
order — a chat's before its tables, tables by id — so no two commands wait on each other."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class TableKey:
    """A table's lock: every command that changes one table."""

    id: int


@dataclass(frozen=True, slots=True)
class ChatKey:
    """A chat's lock: what has no table yet (a lobby opened in it)."""

    chat_id: int


@dataclass(frozen=True, slots=True)
class HereKey:
    """The open table of a chat (and forum topic), found when the command is handled: its
    :class:`TableKey` then, else the chat's (no table: the ``HERE`` guard refuses)."""

    chat_id: int
    thread: int | None


@dataclass(frozen=True, slots=True)
class ChatTablesKey:
    """A chat and every open table of it (any forum topic's), locked in a fixed order (the
    chat's first, then its tables by id) before the handler: what changes the whole chat."""

    chat_id: int


@dataclass(frozen=True, slots=True)
class UserTablesKey:
    """Every table a user sits at, locked by id: what redraws or resends his hands."""

    user_id: int


@dataclass(frozen=True, slots=True)
class OwedKey:
    """The tables of the entries the chats are still owed: every entry's (``table_id`` None,
    a restart), or the held entries of the chats a held entry of ``table_id`` goes to."""

    table_id: int | None = None


LockKey = TableKey | ChatKey | HereKey | ChatTablesKey | UserTablesKey | OwedKey
