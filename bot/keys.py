"""The outbox's message keys: which message of which table a key names, or which message of a
chat that belongs to no table (a /settings pane, an answer to a command).

A key is stored as text (the ``messages`` table, Redis), ``kind:table_id`` followed by the kind's
own numbers (a hand's seat; a deal result's match and move), e.g. ``hand:12:0``; a chat's own
keyed message by its name (``settings``, ``answer:5:score:alone``). Everything above the
storage passes the typed key (:data:`OutboxKey`); the text is built (``str``) and read
(:func:`outbox_key`) only where it is stored, so the stored form stays exactly as it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class MessageKind(StrEnum):
    """What a keyed message is."""

    LOBBY = "lobby"  # the group's lobby of a table
    TABLE = "table"  # the group's table message
    RESULT = "result"  # the group's match result
    CANCEL = "cancel"  # the reply to /cancel
    NOTICE = "notice"  # the unreachable-players notice
    REMIND = "remind"  # the group's turn reminder (one at a time)
    HAND = "hand"  # a seat's hand, in its owner's private chat
    PING = "ping"  # a player's turn ping, in his private chat
    DEAL = "deal"  # a deal's result in the group: once per match and move
    EHAND = "ehand"  # a seat's hand in the group, for its owner alone (an ephemeral message)
    EPING = "eping"  # a seat's turn ping (or reminder) in the group, for its owner alone
    CHART = "chart"  # a game's chart in the group: once per match
    RECORD = "record"  # a game's record (/record) in a chat: once per game and chat


GROUP_KINDS = frozenset({MessageKind.LOBBY, MessageKind.TABLE, MessageKind.RESULT})
"""The group messages that live in the table's forum topic."""

EPHEMERAL_KINDS = frozenset({MessageKind.EHAND, MessageKind.EPING})
"""The messages sent in the group for one member alone: ephemeral messages, whose ids are
a namespace apart from the chat's messages (:func:`bot.storage.rows.stored_id`)."""
_SEATED = frozenset({MessageKind.HAND, *EPHEMERAL_KINDS})

_KINDS = {kind.value: kind for kind in MessageKind}


@dataclass(frozen=True, slots=True)
class MessageKey:
    """A keyed message of a table: its kind, the table, and the kind's own numbers."""

    kind: MessageKind
    table_id: int
    extra: tuple[int, ...] = ()  # HAND, EHAND, EPING: (seat,); DEAL: (match_no, moves);
    # CHART, RECORD: (match_no,)

    def __str__(self) -> str:
        head = f"{self.kind.value}:{self.table_id}"
        return head + "".join(f":{n}" for n in self.extra) if self.extra else head

    @staticmethod
    def hand(table_id: int, seat: int) -> MessageKey:
        return MessageKey(MessageKind.HAND, table_id, (seat,))

    @staticmethod
    def ehand(table_id: int, seat: int) -> MessageKey:
        return MessageKey(MessageKind.EHAND, table_id, (seat,))

    @staticmethod
    def eping(table_id: int, seat: int) -> MessageKey:
        return MessageKey(MessageKind.EPING, table_id, (seat,))

    @staticmethod
    def deal(table_id: int, match_no: int, moves: int) -> MessageKey:
        return MessageKey(MessageKind.DEAL, table_id, (match_no, moves))

    @staticmethod
    def chart(table_id: int, match_no: int) -> MessageKey:
        return MessageKey(MessageKind.CHART, table_id, (match_no,))

    @staticmethod
    def record(table_id: int, match_no: int) -> MessageKey:
        return MessageKey(MessageKind.RECORD, table_id, (match_no,))

    @property
    def seat(self) -> int | None:
        """A hand's (or an ephemeral ping's) seat (``None`` for other kinds)."""
        return self.extra[0] if self.kind in _SEATED and self.extra else None

    @property
    def ephemeral(self) -> bool:
        """Whether the message is sent in the group for one member alone."""
        return self.kind in EPHEMERAL_KINDS

    @staticmethod
    def parse(text: str) -> MessageKey | None:
        """The key a stored text names, ``None`` when it is not a table's message key."""
        kind, *numbers = text.split(":")
        known = _KINDS.get(kind)
        if known is None or not numbers or not all(n.lstrip("-").isdigit() for n in numbers):
            return None
        table_id, *extra = (int(n) for n in numbers)
        return MessageKey(known, table_id, tuple(extra))


@dataclass(frozen=True, slots=True)
class NamedKey:
    """A keyed message of a chat that belongs to no table, named by its stored text (a group's
    /settings pane, an answer to a member's command). A name that reads as a table's message key
    is refused: every stored text names exactly one key."""

    name: str

    def __post_init__(self) -> None:
        if not self.name or _table_key(self.name) is not None:
            raise ValueError(f"not a chat's own message key: {self.name!r}")

    def __str__(self) -> str:
        return self.name


OutboxKey = MessageKey | NamedKey
"""Any message the outbox keeps up to date: a table's, or a chat's own."""


def outbox_key(text: str) -> OutboxKey:
    """The key a stored text names (its exact text again: ``str(outbox_key(t)) == t``)."""
    table_key = _table_key(text)
    return table_key if table_key is not None else NamedKey(text)


def _table_key(text: str) -> MessageKey | None:
    """The table's message key whose exact text this is (None: no table's)."""
    parsed = MessageKey.parse(text)
    return parsed if parsed is not None and str(parsed) == text else None
