"""Telegram's rate limits as the outbox keeps them: per chat, per message edit, all chats.

All chats together: Telegram's FAQ limits *bulk notifications to many users* to about 30 messages
a second; it says nothing of edits made in answer to presses. So the global window counts new
messages only (a send, a document); edits, keyboard edits and deletes are paced by their chat's
window alone, and callback answers by nothing (the handlers answer them at once). An operator may
opt in to paid broadcasts (``BOT_PAID_BROADCAST``: Telegram Stars per message, up to 1,000 a
second); ``BOT_GLOBAL_PER_SECOND`` sets the window.

:class:`LocalRates` counts one process's calls; :class:`bot.sending.redis_book.RedisRates` counts
every worker's (``BOT_REDIS_URL``), behind the same :class:`Rates` protocol — a group's budget
of about 20 sends+edits a minute is the group's, not each worker's.

A message shown in a group to one member alone (an ephemeral message) is counted apart from
the group's, so that a 429 on one never delays the group's table and results: in a window per
(group, receiver) with a private chat's budget — it is a message to one person, and a group's 20
a minute could not carry four players' hands — and in one for all receivers of the group
together, ``ephemeral_ops`` a group window (``BOT_EPHEMERAL_PER_MINUTE``: Telegram has not said
what it allows; an estimate to tune).

Answers to commands never crowd out what the table owes: an answer takes a place only
while half of the group's window (and of its members' ephemeral one) is still free
(:func:`share`), and each member of a group has :class:`Quota` s of his own — the answers to his
commands and the tables he opens, a span — beyond which nothing more is done for him. A keyed
answer is sent anew at most once a group window (:meth:`Rates.recent`); within it, a repeat is
shown in place.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from bot.clock import Clock
from bot.keys import OutboxKey

Sleep = Callable[[float], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class OutboxLimits:
    """How fast the outbox talks to Telegram (defaults: Telegram's published limits)."""

    group_ops: int = 20  # sends+edits in a group per window
    group_window: float = 60.0
    edit_gap: float = 3.0  # between two edits of one group message
    private_ops: int = 3  # a burst of private messages …
    private_window: float = 3.0  # … then about one a second
    global_ops: int = 30  # new messages to all chats together, per second (not edits, deletes)
    ephemeral_ops: int = 120  # a group's messages for one member alone, all members, per window
    paid_broadcast: bool = False  # new messages are sent as paid broadcasts (global_ops ≤ 1000)
    answer_ops: int = 5  # answers to one member's commands in a group (sends, edits) a window
    table_ops: int = 3  # tables one member opens in a group …
    table_window: float = 600.0  # … in this many seconds
    owed_first: float = 5.0  # an owed message that could not be sent is tried again after this,
    owed_most: float = 60.0  # … then twice as long each time, never longer than this

    def scaled(self, factor: float) -> OutboxLimits:
        """The same limits with every time span multiplied by ``factor`` (tests run fast)."""
        return dataclasses.replace(
            self,
            group_window=self.group_window * factor,
            edit_gap=self.edit_gap * factor,
            private_window=self.private_window * factor,
            global_ops=self.global_ops if factor >= 1 else self.global_ops * 1000,
            table_window=self.table_window * factor,
            owed_first=self.owed_first * factor,
            owed_most=self.owed_most * factor,
        )

    def owed_again(self, tries: int) -> float:
        """How long an owed message whose send failed ``tries`` times waits for its next try."""
        return min(self.owed_most, self.owed_first * 2.0 ** min(max(0, tries - 1), 16))

    def of(
        self, chat_id: int, receiver: int | None = None, *, answer: bool = False
    ) -> tuple[int, float]:
        """A chat's budget: calls per window (groups have negative ids; ``receiver``: the
        group's messages for that member alone, counted as a private chat's;
        :data:`EVERY_RECEIVER`: those of all its members together). ``answer``: the places an
        answer to a command may take there (:func:`share`) — the answers' queue runs beside the
        table's (or the member's hand's), whose call in flight may not be counted yet."""
        if receiver == EVERY_RECEIVER:
            ops, window = self.ephemeral_ops, self.group_window
        elif chat_id < 0 and receiver is None:
            ops, window = self.group_ops, self.group_window
        else:
            ops, window = self.private_ops, self.private_window
        return (share(ops) if answer else ops), window

    def quota(self, kind: Quota) -> tuple[int, float]:
        """One member's quota in a group: how many, in how many seconds."""
        if kind is Quota.ANSWERS:
            return self.answer_ops, self.group_window
        return self.table_ops, self.table_window


class Quota(StrEnum):
    """What one member of a group may have the bot do there in a span, whoever he is."""

    ANSWERS = "answers"  # answers to his commands, sent or edited (beyond it: dropped)
    TABLES = "tables"  # tables he opens (beyond it, /newgame is refused)


def share(ops: int) -> int:
    """The places of a window an answer to a command may take: it takes one only while fewer
    are used, so the other half is always free for the table (but for one call of the
    table's in flight at that moment, with one process's windows, which count a call when its
    answer comes)."""
    return max(1, ops // 2)


def notice_ops(limits: OutboxLimits, notice: bool) -> int:
    """The new messages a second all chats' window lets in: for a notification (a turn ping),
    half of them — the other half is kept for what can't wait (a deal's result, a new table)."""
    return max(1, limits.global_ops // 2) if notice else limits.global_ops


Lane = tuple[int, int | None]
"""What one window counts: a chat, or a group's messages for one member alone (the receiver)."""
Turns = tuple[int, int | None, bool]
"""Whose turns a reservation is: a lane, and whether its queue holds answers to commands (it
runs beside the table's queue of the same lane)."""
EVERY_RECEIVER = 0  # no user's id: the lane of a group's messages for any one member, together


def lanes(chat_id: int, receiver: int | None) -> list[Lane]:
    """The windows a call counts in (all chats' window aside)."""
    if receiver is None:
        return [(chat_id, None)]
    return [(chat_id, receiver), (chat_id, EVERY_RECEIVER)]


class Rates(Protocol):
    async def turn(
        self,
        chat_id: int,
        edit_key: OutboxKey | None,
        receiver: int | None = None,
        *,
        new: bool = True,
        wait: bool = True,
        notice: bool = False,
        answer: bool = False,
    ) -> bool:
        """Wait until the chat (and message ``edit_key``'s edit gap, if given; and for a new
        message, ``new``, all chats together) may have one more call; that call is then counted
        as made now (True). ``receiver``: a call about the group's messages for that member
        alone; ``wait`` False: False at once, and no turn taken, if it would have to wait;
        ``notice``: a notification (a turn ping), which takes a place in all chats' window only
        while half of it is free (:func:`notice_ops`) — results and tables never queue behind
        pings; ``answer``: an answer to a command, which takes a place in the group's windows
        only while half of them is free (:func:`share`)."""

    async def spent(
        self, chat_id: int, receiver: int | None = None, *, new: bool = True, answer: bool = False
    ) -> None:
        """A call to the chat was answered: it counts from now (later than Telegram saw it)."""

    async def edited(self, chat_id: int, key: OutboxKey) -> None:
        """Message ``key`` was just edited: its next edit waits ``edit_gap``."""

    async def done(
        self, chat_id: int, receiver: int | None = None, *, answer: bool = False
    ) -> None:
        """The step that took a turn is over: a turn no call used counts no more (so a later
        call's answer can't move an earlier turn's time instead of its own)."""

    async def take(self, chat_id: int, user_id: int, kind: Quota, *, count: bool = True) -> bool:
        """Whether the member's quota in the group has room (:class:`Quota`); ``count``: the
        place is taken now."""

    async def recent(self, chat_id: int, key: OutboxKey) -> bool:
        """Whether keyed message ``key`` was sent anew within the last group window."""

    async def sent_anew(self, chat_id: int, key: OutboxKey) -> None:
        """Keyed message ``key`` was just sent anew (:meth:`recent` says so for a window)."""

    def forget(self, chat_id: int) -> None: ...

    def tracked(self) -> int:
        """How many chats have a window kept in memory now (idle ones are let go)."""


class LocalRates:
    """One process's windows (the outbox delivers each chat from one task: a chat's turn
    reserves nothing, the call is counted when its answer comes; a new message's place in the
    window of all chats, which every chat's task checks at once, is taken at its turn and moved
    to its answer's time). A chat's window and a message's edit
    gap are let go once they have passed (swept at most once a group window), so only the
    chats called within the last window are kept."""

    def __init__(
        self, limits: OutboxLimits, *, clock: Clock = time.monotonic, sleep: Sleep = asyncio.sleep
    ) -> None:
        self.limits = limits
        self.clock = clock
        self.sleep = sleep
        self._sent: dict[Lane, deque[float]] = {}
        self._edited: dict[tuple[int, OutboxKey], float] = {}
        self._global: deque[float] = deque()
        self._reserved: dict[Turns, float] = {}  # a new message's place in the global window
        self._taken: dict[tuple[int, int, Quota], deque[float]] = {}  # members' quotas
        self._anew: dict[tuple[int, OutboxKey], float] = {}  # keyed answers: when sent anew
        self._next_sweep = 0.0

    async def turn(
        self,
        chat_id: int,
        edit_key: OutboxKey | None,
        receiver: int | None = None,
        *,
        new: bool = True,
        wait: bool = True,
        notice: bool = False,
        answer: bool = False,
    ) -> bool:
        cap = notice_ops(self.limits, notice)
        counted = [
            (self._sent.setdefault(lane, deque()), *self.limits.of(*lane, answer=answer))
            for lane in lanes(chat_id, receiver)
        ]
        while True:
            now = self.clock()
            while self._global and now - self._global[0] >= 1.0:
                self._global.popleft()
            due = 0.0
            for sent, ops, window in counted:
                while sent and now - sent[0] >= window:
                    sent.popleft()
                if len(sent) >= ops:  # until fewer than ``ops`` are left in the window
                    due = max(due, sent[len(sent) - ops] + window - now)
            if new and len(self._global) >= cap:
                due = max(due, self._global[-cap] + 1.0 - now)
            edited = self._edited.get((chat_id, edit_key)) if edit_key is not None else None
            if edited is not None:
                due = max(due, edited + self.limits.edit_gap - now)
            if due <= 0:
                if new:  # every chat's worker checks at once: the place is taken now
                    self._global.append(now)
                    self._reserved[(chat_id, receiver, answer)] = now
                return True
            if not wait:
                return False
            await self.sleep(due)

    async def spent(
        self, chat_id: int, receiver: int | None = None, *, new: bool = True, answer: bool = False
    ) -> None:
        now = self.clock()
        for lane in lanes(chat_id, receiver):
            self._sent.setdefault(lane, deque()).append(now)
        if new:
            self._unreserve((chat_id, receiver, answer))
            self._global.append(now)
        if now >= self._next_sweep:
            self._sweep(now)

    def _sweep(self, now: float) -> None:
        limits = self.limits
        self._next_sweep = now + max(limits.group_window, limits.private_window)
        self._sent = {
            lane: times
            for lane, times in self._sent.items()
            if times and now - times[-1] < limits.of(*lane)[1]
        }
        self._edited = {k: at for k, at in self._edited.items() if now - at < limits.edit_gap}
        for key, times in list(self._taken.items()):
            _, span = limits.quota(key[2])
            while times and now - times[0] >= span:
                times.popleft()
            if not times:
                del self._taken[key]
        self._anew = {k: at for k, at in self._anew.items() if now - at < limits.group_window}

    async def edited(self, chat_id: int, key: OutboxKey) -> None:
        self._edited[(chat_id, key)] = self.clock()

    async def done(
        self, chat_id: int, receiver: int | None = None, *, answer: bool = False
    ) -> None:
        self._unreserve((chat_id, receiver, answer))  # a place no call used

    def _unreserve(self, turns: Turns) -> None:
        at = self._reserved.pop(turns, None)
        if at is not None:
            with contextlib.suppress(ValueError):  # passed out of the window meanwhile
                self._global.remove(at)

    async def take(self, chat_id: int, user_id: int, kind: Quota, *, count: bool = True) -> bool:
        ops, span = self.limits.quota(kind)
        now = self.clock()
        times = self._taken.setdefault((chat_id, user_id, kind), deque())
        while times and now - times[0] >= span:
            times.popleft()
        room = len(times) < ops
        if room and count:
            times.append(now)
        elif not times:
            del self._taken[(chat_id, user_id, kind)]
        if now >= self._next_sweep:
            self._sweep(now)
        return room

    async def recent(self, chat_id: int, key: OutboxKey) -> bool:
        at = self._anew.get((chat_id, key))
        return at is not None and self.clock() - at < self.limits.group_window

    async def sent_anew(self, chat_id: int, key: OutboxKey) -> None:
        if self.limits.group_window > 0:  # no window: nothing to remember
            self._anew[(chat_id, key)] = self.clock()

    def forget(self, chat_id: int) -> None:
        self._sent = {lane: times for lane, times in self._sent.items() if lane[0] != chat_id}
        self._edited = {k: v for k, v in self._edited.items() if k[0] != chat_id}
        self._taken = {k: v for k, v in self._taken.items() if k[0] != chat_id}
        self._anew = {k: v for k, v in self._anew.items() if k[0] != chat_id}

    def tracked(self) -> int:
        return len(self._sent) + len(self._taken) + len(self._anew)
