"""The outbox's queues and the tasks that deliver them (:class:`bot.sending.outbox.Outbox` is
what callers say; this is how each queue gets its turns and its calls made, :mod:`bot.sending.
calls`).

A chat has one queue (a :class:`~bot.sending.steps.Lane`) delivered in order by one task; a
group has a queue per member for what it shows him alone, and beside each of these one of
answers to commands, whose turn comes only while the queue beside it is empty — never
ahead of a step the table owes — and only while half of each window it counts in is free; an
answer its asker's quota has no room for is dropped, and one whose message was sent anew a
window ago or more is sent anew again (within the window: in place). A notice (a turn ping)
lets the steps behind it go first while it waits for all chats' window.

A queue's task survives any failed step: a Redis call (several workers) is tried again with
back-off until it works (:mod:`bot.sending.patience`, logged once per outage), anything else
too, up to :data:`GIVE_UP` times. An idle queue (nothing in it) keeps nothing in memory.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging

from bot.keys import OutboxKey
from bot.sending.calls import Calls
from bot.sending.rates import Quota
from bot.sending.steps import (
    QUIET,
    Behind,
    ChatQueue,
    Delete,
    Held,
    Lane,
    Show,
    Step,
    is_new,
    is_news,
    is_notice,
    needless,
    offers,
)
from bot.storage.rows import StoredMessage

logger = logging.getLogger("bot.sending.outbox")  # one log for the outbox, whichever part

GIVE_UP = 5  # a step failing this often in a row (not Redis: that is waited out) is dropped
NOTICE_POLL_S = 0.5  # how often a notice waiting for all chats' window asks again
ANSWER_POLL_S = 0.5  # how often an answer waiting for the group's window asks again …
BEHIND_TABLE_S = 0.05  # … and how often it looks whether the table's queue is empty
BEHIND_GROUP_MAX_S = 5.0  # the longest a player's step waits for his group's new messages
WINDOW = "an answer's window"  # what a Redis call of the answers' window is, in the log


class Lanes:
    """Every queue of the outbox, and its delivery (see the module)."""

    def __init__(self, wire: Calls) -> None:
        self.wire = wire
        self.chats: dict[Lane, ChatQueue] = {}
        self.stopping = False  # a stop: no queue's task takes another step
        self.news_seq = 0  # the groups' new messages queued so far (their tickets, Behind)

    def answering(self, chat_id: int, receiver: int | None, key: OutboxKey) -> bool:
        """Whether a step of message ``key`` waits in the answers' queue (a later step of the
        key goes behind it there, in order)."""
        lane = self.chats.get(Lane(chat_id, receiver, answers=True))
        return lane is not None and any(step.key == key for step in lane.queue)

    def chat(self, chat_id: int, receiver: int | None = None, answers: bool = False) -> ChatQueue:
        lane = Lane(chat_id, receiver, answers)
        chat = self.chats.get(lane)
        if chat is None:
            chat = self.chats[lane] = ChatQueue(receiver, answers)
        return chat

    def enqueue(
        self, chat_id: int, step: Step, receiver: int | None = None, answers: bool = False
    ) -> None:
        chat = self.chat(chat_id, receiver, answers)
        chat.queue.append(step)
        if chat_id < 0 and receiver is None and not answers and is_news(step):
            self.news_seq += 1
            chat.news.append(self.news_seq)
        chat.arrived.set()  # a notice waiting for its place lets it go first
        if chat.worker is None or chat.worker.done():
            name = f"outbox:{chat_id}" if receiver is None else f"outbox:{chat_id}:{receiver}"
            name += ":answers" if answers else ""
            chat.worker = asyncio.create_task(self._run(chat_id, chat), name=name)

    def behind(self, group_id: int) -> Behind | None:
        """What a player's step queued now waits for: the new messages of group ``group_id``
        still to go out (None: none)."""
        chat = self.chats.get(Lane(group_id))
        if chat is None or not chat.before(self.news_seq):
            return None
        return Behind(group_id, self.news_seq)

    async def _after_group(self, chat: ChatQueue) -> None:
        """While the head step waits for the group's new messages queued before it (its
        table, the last deal's result), nothing of this queue goes out — for at most
        :data:`BEHIND_GROUP_MAX_S`: a group that long without its turn is starved (a 429's
        wait, an operator's lower budget), and the game goes on without it."""
        loop = asyncio.get_running_loop()
        until = loop.time() + BEHIND_GROUP_MAX_S
        while chat.queue and not self.stopping and loop.time() < until:
            head = chat.queue[0]
            behind = head.behind if isinstance(head, Show) else None
            group = self.chats.get(Lane(behind.chat_id)) if behind is not None else None
            if behind is None or group is None or not group.before(behind.ticket):
                return
            await asyncio.sleep(BEHIND_TABLE_S)

    async def _run(self, chat_id: int, chat: ChatQueue) -> None:
        failed = 0  # the head step's failures in a row
        while chat.queue and not self.stopping:
            await self._after_group(chat)
            if not chat.queue or self.stopping:
                break
            head, taken = chat.queue[0], chat.taken
            try:
                await self._next(chat_id, chat)
            except Exception as error:  # the worker survives any one failed step
                failed += 1
                self.wire.patience.failed(f"a {head.label} in chat={chat_id}", error)
                if failed >= GIVE_UP and chat.queue and chat.taken == taken:
                    dropped = chat.take()
                    logger.error(
                        "outbox: dropped a %s to chat=%s: it failed again", dropped.label, chat_id
                    )
                    await self.wire.unsent(dropped)
                await self.wire.patience.pause(failed)
                if chat.taken != taken:
                    failed = 0  # the next step starts afresh
                continue
            finally:
                chat.calling = False
                chat.sending = None  # its new message went out, or never will
            if failed:
                failed = 0
                self.wire.patience.recovered()
        lane = Lane(chat_id, chat.receiver, chat.answers)
        if self.chats.get(lane) is chat:  # idle: nothing of the chat is kept in memory
            del self.chats[lane]

    async def _next(self, chat_id: int, chat: ChatQueue) -> None:
        """Deliver the chat's first step; several workers: under the message's shared lock."""
        book, key = self.wire.book, chat.queue[0].key
        if book is None or key is None:
            await self._step(chat_id, chat)
            return
        async with contextlib.AsyncExitStack() as held:  # one worker at a time
            entry = await self.wire.patience(
                "a message's lock", lambda: held.enter_async_context(book.guard(chat_id, key))
            )
            self._adopt(chat_id, key, entry.known)
            step = chat.queue[0]  # as it is now: a show may have taken newer text meanwhile
            shows = step.rev if isinstance(step, Show) else None
            if shows is not None and entry.rev is not None and shows < entry.rev:
                chat.take()  # another worker showed a later turn already
                await self.wire.unsent(step)
                return
            rev = entry.rev if shows is None else shows
            wanted = offers(step.rendered) if isinstance(step, Show) else None
            await self._step(chat_id, chat, Held(entry, rev, wanted))  # told to the book at once
            known = self.wire.known.get((chat_id, key))
            await self.wire.patience(
                "the message book", lambda: book.put(chat_id, key, known, rev, wanted, entry)
            )

    async def _step(self, chat_id: int, chat: ChatQueue, held: Held | None = None) -> None:
        head, receiver, rates = chat.queue[0], chat.receiver, self.wire.rates
        known = self.wire.known.get((chat_id, head.key)) if head.key is not None else None
        if known is not None and isinstance(head, Show) and head.asker is not None:
            head = await self._renewed(chat_id, chat, head)
        if needless(head, known):
            await self.wire.settle_owed(chat.take())  # shown already (a restart's repeat)
            return
        new = is_new(head, known)
        if not isinstance(head, QUIET):
            group = chat_id < 0 and receiver is None  # a group message's edits keep a gap
            edit_key = head.key if group and isinstance(head, Show) and not head.fresh else None
            if chat.answers:
                if not await self._answer_turn(chat_id, chat, edit_key, new):
                    return  # dropped: his quota of answers is spent
            elif is_notice(head):
                if not await self._notice_turn(chat_id, chat, new):
                    return  # it waits aside, or went unsent
            else:  # the show may take newer text meanwhile
                await self.wire.patience(
                    "a rate turn", lambda: rates.turn(chat_id, edit_key, receiver, new=new)
                )
        step = chat.take()  # from here on, newer texts queue behind it
        chat.calling = True  # a stop lets the step end (its call and what it leaves known)
        try:
            now = self.wire.known.get((chat_id, step.key)) if step.key is not None else None
            if step is not head and needless(step, now):
                # it took newer text while it waited for its turn, and the message shows that
                # already (it went back to what it was): the turn goes unused
                await self.wire.settle_owed(step)
            else:
                await self.wire.deliver(chat_id, chat, step, held)
        except Exception:  # never lose the queue to one failure
            logger.exception("outbox: %s to chat=%s failed", step.label, chat_id)
            await self.wire.unsent(step)
        if isinstance(step, Show) and step.asker is not None and new:
            now = self.wire.known.get((chat_id, step.key))
            if now is not None and (known is None or now.message_id != known.message_id):
                key = step.key  # sent anew: in place for a window
                await self.wire.patience(WINDOW, lambda: rates.sent_anew(chat_id, key))
        # not when cancelled (a stop): an unused turn then runs out with its window
        answers = chat.answers
        await self.wire.patience(
            "a rate turn's end", lambda: rates.done(chat_id, receiver, answer=answers)
        )

    async def _renewed(self, chat_id: int, chat: ChatQueue, head: Show) -> Show:
        """An answer whose message was sent anew more than a window ago is sent anew: an
        edit of it would change a message far up the chat; within the window it is edited."""
        if head.fresh:
            return head
        key, rates = head.key, self.wire.rates
        if await self.wire.patience(WINDOW, lambda: rates.recent(chat_id, key)):
            return head
        head = chat.queue[0] = dataclasses.replace(head, fresh=True)
        return head

    async def _answer_turn(
        self, chat_id: int, chat: ChatQueue, edit_key: OutboxKey | None, new: bool
    ) -> bool:
        """An answer's turn: a place in its asker's quota (none: it is dropped, False),
        then a turn once the table's queue beside it is empty — never ahead of a step the
        table owes — while half of the group's window is free (its other half the table's)."""
        head, rates, receiver = chat.queue[0], self.wire.rates, chat.receiver
        asker = head.asker if isinstance(head, Show) else None
        if asker is not None:
            room = await self.wire.patience(
                "a member's quota", lambda: rates.take(chat_id, asker, Quota.ANSWERS)
            )
            if not room:
                step = chat.take()
                logger.debug("outbox: an answer to %s in chat=%s dropped: quota", asker, chat_id)
                await self.wire.unsent(step)
                return False
        table = Lane(chat_id, receiver)
        while True:
            ahead = self.chats.get(table)
            if ahead is not None and ahead.queue:
                await asyncio.sleep(BEHIND_TABLE_S)
                continue
            took = await self.wire.patience(
                "a rate turn",
                lambda: rates.turn(chat_id, edit_key, receiver, new=new, wait=False, answer=True),
            )
            if took:
                return True
            await asyncio.sleep(ANSWER_POLL_S)

    def _adopt(self, chat_id: int, key: OutboxKey, known: StoredMessage | None) -> None:
        """What the shared book says the message shows replaces this worker's memory of it."""
        self.wire.forget(chat_id, key)
        if known is not None:
            self.wire.known[(chat_id, key)] = known
            self.wire.keys[(chat_id, known.message_id)] = key

    async def _notice_turn(self, chat_id: int, chat: ChatQueue, new: bool) -> bool:
        """A notice's turn (:meth:`show`), never waited for in the chat's way: while it would
        wait, a step queued behind it goes first (False: the lane's head changed) and a delete
        of its own message behind it lets it go unsent (its turn is over)."""
        head, rates = chat.queue[0], self.wire.rates
        while True:
            took = await self.wire.patience(
                "a rate turn",
                lambda: rates.turn(chat_id, None, chat.receiver, new=new, wait=False, notice=True),
            )
            if took:
                return True
            rest = list(chat.queue)[1:]
            if any(isinstance(step, Delete) and step.key == head.key for step in rest):
                self.wire.settle(chat.take(), None)
                return False
            after = rest[0] if rest else None
            if after is not None and after.key != head.key and not is_notice(after):
                chat.queue[0], chat.queue[1] = after, head
                return False
            chat.arrived.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(NOTICE_POLL_S):
                    await chat.arrived.wait()
