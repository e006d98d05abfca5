"""Every input to the runtime as one frozen command: a press of each kind, a command in a
group, a stored deadline fallen due. :meth:`bot.runtime.handle.Runtime.handle` takes each
command's lock key, loads its table, runs the guards it declares, and calls the one handler
its type maps to (:data:`bot.runtime.handlers.HANDLERS`).

A press carries the pressed message as Telegram gave it
(:class:`~bot.runtime.message_book.Pressed`) and the parsed :class:`~bot.callbacks.Press`, never
the raw callback data: which keyed message was pressed and what it offers the runtime asks of a
:class:`~bot.runtime.message_book.MessageBook`, a port the delivery side implements."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from bot.callbacks import Kind, Press, SettingsAct
from bot.keys import GROUP_KINDS, MessageKey, OutboxKey
from bot.runtime.chat_commands import (
    BotRemoved,
    ChatMigrated,
    ClosePractice,
    Kick,
    MemberLeft,
    OpenDaily,
    OpenPractice,
    OpenTable,
    RedrawChat,
    RedrawHands,
    Resume,
    ResumeOwed,
    ShowHands,
    ToggleNotify,
)
from bot.runtime.lock_keys import (
    ChatTablesKey,
    HereKey,
    LockKey,
    OwedKey,
    TableKey,
    UserTablesKey,
)
from bot.runtime.message_book import Pressed
from bot.storage.rows import Deadline, DeadlineKind, OwedRef


class Undeliverable(StrEnum):
    """Why the outbox can't deliver a keyed message (:class:`DeliveryFailed`)."""

    FORBIDDEN = "forbidden"  # the bot is blocked, or no longer in the chat
    TOPIC = "topic"  # the table's forum topic was closed or deleted
    EPHEMERAL = "ephemeral"  # a message for one member alone was refused: his go to private


class Guard(StrEnum):
    """The named checks a command declares, run in order before its handler
    (:mod:`bot.runtime.guards`)."""

    OPEN = "open"  # the table exists and is not closed
    HERE = "here"  # an open table here (the chat's, the topic's)
    RUNNING = "running"  # the table runs a match
    CURRENT_MESSAGE = "current_message"  # pressed on the table's own message that carries it
    MEMBER = "member"  # the presser is a member of the table's group
    OWN_SEAT = "own_seat"  # a hand button of the presser's own seat, where only he sees it
    MAY_ACT = "may_act"  # he may act at the table (not barred, still in the group)
    ON_HAND = "on_hand"  # pressed on the seat's current hand message
    CURRENT_MOVE = "current_move"  # drawn at the table's current move (or a waiting hand's)
    OFFERED = "offered"  # that message offers this very button now
    SETTINGS_MESSAGE = "settings_message"  # pressed on the current settings pane
    SETTINGS_ADMIN = "settings_admin"  # a group's settings: its admins' alone


# --- presses ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LobbyPressed:
    """A lobby button (or a notice's, or the cancel question's), §4.2–§4.4."""

    guards: ClassVar[tuple[Guard, ...]] = (Guard.OPEN, Guard.CURRENT_MESSAGE, Guard.MEMBER)
    press: Press
    user_id: int
    name: str
    message: Pressed

    @property
    def key(self) -> LockKey:
        return TableKey(self.press.table)


@dataclass(frozen=True, slots=True)
class EndPressed:
    """Another match, or finish (§4.7), on the match result's buttons."""

    guards: ClassVar[tuple[Guard, ...]] = (Guard.OPEN, Guard.CURRENT_MESSAGE, Guard.MEMBER)
    press: Press
    user_id: int
    message: Pressed

    @property
    def key(self) -> LockKey:
        return TableKey(self.press.table)


@dataclass(frozen=True, slots=True)
class ChartPressed:
    """📈 on a match result."""

    guards: ClassVar[tuple[Guard, ...]] = (Guard.OPEN, Guard.CURRENT_MESSAGE, Guard.MEMBER)
    press: Press
    user_id: int
    message: Pressed

    @property
    def key(self) -> LockKey:
        return TableKey(self.press.table)


@dataclass(frozen=True, slots=True)
class MyCardsPressed:
    """🂠 My cards on the table message; ``query_id``: the press a hand in the group is
    sent in answer to."""

    guards: ClassVar[tuple[Guard, ...]] = (Guard.CURRENT_MESSAGE, Guard.OPEN)
    press: Press
    user_id: int
    message: Pressed
    query_id: str

    @property
    def key(self) -> LockKey:
        return TableKey(self.press.table)


@dataclass(frozen=True, slots=True)
class HandPressed:
    """A family's button on a hand message (§7.2): its meaning is the family's
    (:meth:`GameUI.interpret <bot.render.games.base.GameUI.interpret>`)."""

    guards: ClassVar[tuple[Guard, ...]] = (
        Guard.RUNNING,
        Guard.OWN_SEAT,
        Guard.MAY_ACT,
        Guard.ON_HAND,
        Guard.CURRENT_MOVE,
        Guard.OFFERED,
    )
    stale_refresh: ClassVar[bool] = True  # pressed on another message: "stale", his hand shown
    press: Press
    user_id: int
    message: Pressed

    @property
    def key(self) -> LockKey:
        return TableKey(self.press.table)


@dataclass(frozen=True, slots=True)
class SeatPressed:
    """The runtime's own buttons of a hand message (:class:`~bot.callbacks.SeatAct`): ⋯ and
    its ↩️, 🤖 Let the computer play, 🙋 I'm back, «В личку»."""

    guards: ClassVar[tuple[Guard, ...]] = (
        Guard.RUNNING,
        Guard.OWN_SEAT,
        Guard.MAY_ACT,
        Guard.ON_HAND,
        Guard.OFFERED,
    )
    stale_refresh: ClassVar[bool] = False  # pressed on another message: "not your cards"
    press: Press
    user_id: int
    message: Pressed

    @property
    def key(self) -> LockKey:
        return TableKey(self.press.table)


@dataclass(frozen=True, slots=True)
class RefreshHand:
    """After a stale hand press: the pressed message loses its buttons if it is no keyed one
    any more, and the seat's current hand is shown."""

    guards: ClassVar[tuple[Guard, ...]] = ()
    table_id: int
    seat: int
    message: Pressed

    @property
    def key(self) -> LockKey:
        return TableKey(self.table_id)


@dataclass(frozen=True, slots=True)
class SettingsPressed:
    """A /settings button (§15): a group's pane (``press.kind`` GROUP), or a person's own in
    private. ``pane``: the keyed message the press counts on (the group's pane, or the one
    shown to him alone)."""

    guards: ClassVar[tuple[Guard, ...]] = (Guard.SETTINGS_MESSAGE, Guard.SETTINGS_ADMIN)
    press: Press
    act: SettingsAct
    user_id: int
    message: Pressed
    pane: OutboxKey

    @property
    def key(self) -> LockKey:
        """A group's: the chat and its tables (a language redraws them); a person's: his
        tables (his hands are drawn again)."""
        if self.press.kind is Kind.GROUP:
            return ChatTablesKey(self.message.chat_id)
        return UserTablesKey(self.user_id)


# --- commands and their second halves -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AskToClose:
    """/cancel (§4.9) at the table here."""

    guards: ClassVar[tuple[Guard, ...]] = (Guard.HERE,)
    chat_id: int
    thread: int | None
    user_id: int
    reply_to: int

    @property
    def key(self) -> LockKey:
        return HereKey(self.chat_id, self.thread)


@dataclass(frozen=True, slots=True)
class StartReached:
    """Start's second half: who the private notes reached (chat id → reached) is known."""

    guards: ClassVar[tuple[Guard, ...]] = (Guard.OPEN,)
    table_id: int
    generation: int
    reached: dict[int, bool]

    @property
    def key(self) -> LockKey:
        return TableKey(self.table_id)


@dataclass(frozen=True, slots=True)
class JoinByLink:
    """The deep link of §4.3 (``j_<table>_<code>``)."""

    guards: ClassVar[tuple[Guard, ...]] = ()
    table_id: int
    code: str
    user_id: int
    name: str

    @property
    def key(self) -> LockKey:
        return TableKey(self.table_id)


@dataclass(frozen=True, slots=True)
class DeadlineDue:
    """A stored deadline fell due (the scheduler's); its kind picks the handler."""

    guards: ClassVar[tuple[Guard, ...]] = ()
    deadline: Deadline

    @property
    def key(self) -> LockKey:
        """The table's; an owed entry's (``owed``) the tables of the entries it draws again
        (:meth:`Redraw.owed_due <bot.runtime.redraw.Redraw.owed_due>`)."""
        if self.deadline.kind == DeadlineKind.OWED:
            return OwedKey(self.deadline.table_id)
        return TableKey(self.deadline.table_id)


class Failure(StrEnum):
    """What an undeliverable keyed message means for its table (:attr:`DeliveryFailed.means`)."""

    HANDS_TO_PRIVATE = "hands to private"  # a hand or ping for its owner alone was refused
    UNREACHABLE = "unreachable"  # a hand's owner can't be sent to (a 403): the computer plays
    TOPIC_GONE = "topic gone"  # the table's forum topic was closed or deleted: it closes


@dataclass(frozen=True, slots=True)
class DeliveryFailed:
    """The outbox could not deliver a keyed message (``why``): a hand's owner unreachable (a
    403, PRODUCT.md §13), a hand or ping in the group refused for him alone (his hands go to
    private), a table's forum topic closed or deleted (the table closes)."""

    guards: ClassVar[tuple[Guard, ...]] = ()
    chat_id: int
    message: MessageKey
    why: Undeliverable

    @property
    def means(self) -> Failure | None:
        """What the failure means for the table; None: nothing (e.g. a 403 on a group line)."""
        key, seat = self.message, self.message.seat
        if seat is not None and key.ephemeral:
            return Failure.HANDS_TO_PRIVATE
        if seat is not None and self.why is Undeliverable.FORBIDDEN:
            return Failure.UNREACHABLE
        if key.kind in GROUP_KINDS and self.why is Undeliverable.TOPIC:
            return Failure.TOPIC_GONE
        return None

    @property
    def key(self) -> LockKey | None:
        """The table's lock where the failure means something to it; else none, nothing loaded."""
        return TableKey(self.message.table_id) if self.means is not None else None


@dataclass(frozen=True, slots=True)
class OwedHeld:
    """An owed entry could not be sent for now (:mod:`bot.sending.held`): it goes again in
    ``seconds``, a stored deadline of its table."""

    guards: ClassVar[tuple[Guard, ...]] = ()
    chat_id: int
    owed: OwedRef
    seconds: float

    @property
    def key(self) -> LockKey | None:
        """None: it reads the owed rows and stores a deadline, no table's state."""
        return None


Command = (
    LobbyPressed
    | EndPressed
    | ChartPressed
    | MyCardsPressed
    | HandPressed
    | SeatPressed
    | RefreshHand
    | AskToClose
    | StartReached
    | JoinByLink
    | DeadlineDue
    | DeliveryFailed
    | OwedHeld
    | OpenTable
    | OpenPractice
    | OpenDaily
    | ClosePractice
    | Kick
    | ToggleNotify
    | ShowHands
    | MemberLeft
    | BotRemoved
    | ChatMigrated
    | RedrawHands
    | RedrawChat
    | ResumeOwed
    | Resume
    | SettingsPressed
)

Send = Callable[[Command], None]
"""An inbox: a command handed on, handled (and its outcome delivered) in a task of its own
(the outbox's failures)."""

Inbox = Callable[[Command], Awaitable[None]]
"""An inbox awaited: the command handled and its outcome delivered (the scheduler's
deadlines, one after another)."""
