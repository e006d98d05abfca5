"""The outbox's queued steps: one frozen class per kind of thing a chat's queue holds, and the
queue itself (:mod:`bot.sending.outbox` queues them, :mod:`bot.sending.calls` makes them)."""

from __future__ import annotations

import asyncio
import dataclasses
from collections import deque
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, ClassVar, NamedTuple

from bot.keys import MessageKey, NamedKey, OutboxKey
from bot.rendered import Rendered
from bot.storage.rows import OwedRef, StoredMessage

if TYPE_CHECKING:  # Redis is an optional extra (several workers)
    from bot.sending.redis_book import Entry


class Old(StrEnum):
    """What happens to the previous message of a key that is sent anew (``fresh``)."""

    KEEP = "keep"  # it stays as it was (its final state was shown before)
    STRIP = "strip"  # its keyboard is removed
    DELETE = "delete"  # it is deleted (an old hand message)


def offers(rendered: Rendered) -> frozenset[str]:
    """The callback data of a message's buttons: what pressing it may send."""
    buttons = rendered.markup.buttons() if rendered.markup else ()
    return frozenset(b.callback_data for b in buttons if b.callback_data)


# One queued step of a chat, one frozen class per kind. ``key`` is the keyed message it is
# about (None: a one-off message, or one named by its Telegram id); ``label`` names the kind in
# the log.


@dataclass(frozen=True, slots=True)
class Behind:
    """A step that waits for the group's new messages queued before it: its table, a deal's
    result (``ticket``: the last new message of any group queued when it was), so a player never
    gets his hand or his turn ping before the table it belongs to, or the next deal's hand
    before the last deal's result."""

    chat_id: int
    ticket: int


@dataclass(frozen=True, slots=True)
class Show:
    """Make keyed message ``key`` show ``rendered``: edited, or sent if new or ``fresh``."""

    key: OutboxKey
    rendered: Rendered
    fresh: bool = False
    old: Old = Old.KEEP  # what becomes of the message the key named before a fresh send
    reply_to: int | None = None
    thread: int | None = None  # the forum topic it is sent (or sent anew) in
    rev: int | None = None  # the table's turn it shows (several workers: never older wins)
    answering: str | None = None  # the press it answers (an ephemeral send: its callback query)
    replace: bool = False  # an ephemeral send shown in place of the pressed message, for him
    notice: bool = False  # a notification (a turn ping): it lets the steps behind it go first
    owed: OwedRef | None = None  # the durable outbox's entry it shows: settled once shown
    asker: int | None = None  # an answer to this member's command: in his quota
    replying: int | None = None  # the command it answers, sent ephemerally (its ephemeral id)
    behind: Behind | None = None  # the group's new messages that go out before it
    label: ClassVar[str] = "show"


@dataclass(frozen=True, slots=True)
class Post:
    """Send a new message (a result, a notice); ``done`` gets its id (None: not sent)."""

    rendered: Rendered
    done: asyncio.Future[int | None]
    key: OutboxKey | None = None
    reply_to: int | None = None
    thread: int | None = None
    owed: OwedRef | None = None  # the durable outbox's entry it shows: settled once sent
    label: ClassVar[str] = "post"


@dataclass(frozen=True, slots=True)
class Document:
    """Send a file (a game record); a keyed one is remembered as a keyed message is (its id, for
    a later pointer to it), and let go if it could not be sent."""

    filename: str
    data: bytes
    key: OutboxKey | None = None
    reply_to: int | None = None
    thread: int | None = None
    label: ClassVar[str] = "doc"


@dataclass(frozen=True, slots=True)
class Photo:
    """Send a picture (a game's chart); a keyed one goes once: never again while its key is
    known (a second press of 📈, a restart's repeat)."""

    filename: str
    data: bytes
    key: OutboxKey | None = None
    reply_to: int | None = None
    thread: int | None = None
    label: ClassVar[str] = "photo"


@dataclass(frozen=True, slots=True)
class StripButtons:
    """Remove keyed message ``key``'s keyboard (its text stays as shown)."""

    key: OutboxKey
    label: ClassVar[str] = "strip"


@dataclass(frozen=True, slots=True)
class StripMessageButtons:
    """Remove the keyboard of a message by id (an old one no key names any more)."""

    message_id: int
    key: ClassVar[None] = None
    label: ClassVar[str] = "strip"


@dataclass(frozen=True, slots=True)
class Delete:
    """Delete keyed message ``key``; the key is let go."""

    key: OutboxKey
    label: ClassVar[str] = "delete"


@dataclass(frozen=True, slots=True)
class DeleteMessage:
    """Delete a message by id (a user's own command line in the private chat, say)."""

    message_id: int
    key: ClassVar[None] = None
    label: ClassVar[str] = "delete"


@dataclass(frozen=True, slots=True)
class Drop:
    """Let key ``key`` go (its buttons no longer count; a later message may take it)."""

    key: OutboxKey
    label: ClassVar[str] = "drop"


@dataclass(frozen=True, slots=True)
class Settle:
    """An owed entry turned out to show nothing (a deal whose result has no text): settled in
    its place in the chat's order."""

    owed: OwedRef
    key: ClassVar[None] = None
    label: ClassVar[str] = "settle"


Step = (
    Show
    | Post
    | Document
    | Photo
    | StripButtons
    | StripMessageButtons
    | Delete
    | DeleteMessage
    | Drop
    | Settle
)

QUIET = (Drop, Settle)
"""Steps that make no Bot API call: no rate turn is taken for them."""


@dataclass(frozen=True, slots=True)
class Held:
    """Several workers: a keyed message's shared lock, held while its step is made — the book's
    entry, the turn the step shows, what it offers. A message sent (or sent anew) under it is
    told to the book at once, before the lock is let go."""

    entry: Entry
    rev: int | None
    wanted: frozenset[str] | None


@dataclass(slots=True)
class ChatQueue:
    """A chat's queued steps and the task delivering them; ``receiver``: the queue of a group's
    messages for that member alone (ephemeral messages), a lane of its own; ``answers``:
    the queue of answers to commands, beside the one of what the table owes."""

    receiver: int | None = None
    answers: bool = False
    queue: deque[Step] = field(default_factory=deque)
    worker: asyncio.Task[None] | None = None
    taken: int = 0  # steps taken off the queue so far: whether the head is still the same one
    arrived: asyncio.Event = field(default_factory=asyncio.Event)  # a step was queued
    calling: bool = False  # a step taken off the queue is being made: a stop lets it end
    # a group's own queue: the tickets of the new messages in it (:class:`Behind`), in order,
    # and the one being sent now
    news: deque[int] = field(default_factory=deque)
    sending: int | None = None

    def take(self) -> Step:
        """The head step, off the queue (as it is now: a show may have taken newer text)."""
        self.taken += 1
        step = self.queue.popleft()
        if self.news and is_news(step):
            self.sending = self.news.popleft()
        return step

    def before(self, ticket: int) -> bool:
        """Whether a new message queued at or before ``ticket`` is still to go out."""
        if not self.queue and self.sending is None:  # all gone (or dropped with the chat)
            return False
        first = self.sending if self.sending is not None else (self.news[0] if self.news else None)
        return first is not None and first <= ticket


def is_news(step: Step) -> bool:
    """A new message everyone in a group sees (a table, a result, a notice), which the
    players' steps queued after it wait for (:class:`Behind`)."""
    return isinstance(step, Post) or (isinstance(step, Show) and step.fresh and not step.notice)


def is_new(step: Step, known: StoredMessage | None) -> bool:
    """Whether the step sends a new message (all chats' window counts those alone); ``known``:
    what the step's key shows now (None: no key, or nothing yet)."""
    if isinstance(step, Show):
        return step.fresh or known is None
    return isinstance(step, Post | Document | Photo)


def needless(step: Step, known: StoredMessage | None) -> bool:
    """An edit to what the message already shows, a step on a message never sent, or a keyed
    picture or file sent already (a second press, a restart's repeat); ``known`` as in
    :func:`is_new`."""
    match step:
        case Show(fresh=False):
            return known is not None and known.digest == step.rendered.digest()
        case StripButtons():
            return known is None or not known.keyboard
        case Delete():
            return known is None
        case Photo(key=MessageKey() | NamedKey()) | Document(key=MessageKey() | NamedKey()):
            return known is not None
        case _:
            return False


def is_notice(step: Step) -> bool:
    return isinstance(step, Show) and step.notice


class Lane(NamedTuple):
    """A queue: its chat, the member a group's messages in it are for alone (None: everyone's),
    and what it holds: what the table owes (and a private chat's everything), or answers to
    commands — which never go ahead of a table step waiting in the lane beside them."""

    chat_id: int
    receiver: int | None = None
    answers: bool = False


def coalesced(  # the show's own fields
    queue: deque[Step],
    key: OutboxKey,
    rendered: Rendered,
    rev: int | None,
    answering: str | None,
    owed: OwedRef | None,
    replying: int | None = None,
    behind: Behind | None = None,
) -> bool:
    """Whether an edit of ``key`` still queued took ``rendered`` in its place (the latest state
    wins, in the earlier place, waiting for what the newer one waits for); never past a
    message sent after it."""
    for at in range(len(queue) - 1, -1, -1):
        step = queue[at]
        if isinstance(step, Show):
            if step.key == key and not step.fresh:
                newest = rev if step.rev is None or rev is None else max(step.rev, rev)
                queue[at] = dataclasses.replace(
                    step,
                    rendered=rendered,
                    rev=newest,
                    answering=answering or step.answering,
                    owed=owed or step.owed,
                    replying=replying or step.replying,  # the newer command: still answerable
                    behind=behind or step.behind,
                )
                return True
            if step.key == key or (step.fresh and not step.notice):  # a notice is no bar
                return False
        elif step.key == key or isinstance(step, Post):
            return False
    return False


def renewed(queue: deque[Step], show: Show) -> bool:
    """Whether a fresh ``show`` whose old message goes (``Old.DELETE``: a hand, a ping) took
    the place of the shows of its key still queued: one new message, of the latest state,
    where the first of them was — never a stale one sent behind a newer one (🂠 tapped again
    and again while the chat's queue waits)."""
    if show.old is not Old.DELETE:
        return False
    found: list[int] = []
    for at in range(len(queue) - 1, -1, -1):
        step = queue[at]
        if step.key != show.key:
            continue
        if not isinstance(step, Show) or step.notice != show.notice:
            break
        found.append(at)
    if not found:
        return False
    merged = show
    for at in found:  # the newest first: its press, its turn win
        step = queue[at]
        assert isinstance(step, Show)
        rev = merged.rev if step.rev is None or merged.rev is None else max(step.rev, merged.rev)
        merged = dataclasses.replace(
            merged,
            rev=rev,
            answering=merged.answering or step.answering,
            replace=merged.replace or step.replace,
            behind=merged.behind or step.behind,
        )
    first = found[-1]
    for at in found[:-1]:  # from the back: the places before stay where they are
        del queue[at]
    queue[first] = merged
    return True
