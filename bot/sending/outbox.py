"""The outbox: every message the bot puts on screen goes through it, within Telegram's limits.

Callers say what a chat should show, and the outbox decides when Telegram hears of it:

* One queue per chat, delivered in order by one worker task: a deal's result never overtakes
  the table edit queued before it.
* A message the bot keeps up to date has a *key* (``table:12:3``, ``hand:12:0``).
  :meth:`Outbox.show` makes it show a text: it is edited if it exists and sent otherwise. An
  edit still waiting in the queue takes the newer text in its place — the latest state wins,
  and the final state is always delivered.
* Groups get at most ``group_ops`` sends+edits in any ``group_window`` seconds (Telegram allows
  about 20 a minute), and one message is edited at most once every ``edit_gap`` seconds.
  Private chats get about one message a second with short bursts; new messages to all chats
  together stay under ``global_ops`` a second (edits and deletes are not counted there:
  :mod:`bot.sending.rates`).
* What every keyed message shows is remembered (a digest, in the :class:`MessageStore`), across
  restarts too: an edit identical to what a message shows is never sent.
* Callback answers are not messages: they are answered at once by the handlers, never queued.

Telegram's own answers (429, "message is not modified", "message can't be edited") are handled
below, in :mod:`bot.sending.session`; a chat that answers 403 is *closed* to the bot until a
message to it gets through again.

A chat's worker survives any failed step: a Redis call (several workers) is tried again with
back-off until it works (:mod:`bot.sending.patience`, logged once per outage), anything else
too, up to ``GIVE_UP`` times. An idle chat (nothing queued) keeps nothing in memory.

Exactly once (issue #28). A keyed message is *marked* in the store before its send goes out
and *settled* with its Telegram id as the first thing done with the answer (before any wait of
the rate window, the shared book or the old message's strip). A key marked and never settled was
killed in between: it is sent again when shown — a second copy only if Telegram had the first
(the Bot API has no idempotent send); such keys are logged at the start-up.

What a chat is owed (issue #36: a deal's or a match's result, a notice) is written by the
runtime in the unit of work of the action that caused it; its step names the entry (``owed``),
which is claimed with the mark and settled with the id (:mod:`bot.storage.outbox_sql`). A
restart shows every entry still owed again, in order, however many actions came after it. An
entry whose send fails past the Bot API's patience (429s, an outage) is *held* and the runtime
told (:attr:`Outbox.on_held`): it is sent again while the bot runs, with back-off, and the
chat's later entries wait behind it — the chat's other messages (its table) go on meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING

from aiogram import Bot

from bot.clock import Clock
from bot.render.common import Rendered
from bot.render.limits import fit
from bot.sending.calls import Calls, Sleep, Undeliverable
from bot.sending.held import OnHeld
from bot.sending.rates import OutboxLimits, Rates
from bot.sending.steps import (
    QUIET,
    ChatQueue,
    Delete,
    DeleteMessage,
    Document,
    Drop,
    Held,
    Lane,
    Old,
    Photo,
    Post,
    Settle,
    Show,
    Step,
    Strip,
    StripMessage,
    coalesced,
    is_new,
    is_notice,
    needless,
    offers,
)
from bot.storage.protocol import MessageStore
from bot.storage.rows import OwedRef, StoredMessage, stored_id
from bot.tasks import cancelled

if TYPE_CHECKING:  # Redis is an optional extra (several workers)
    from bot.sending.redis_book import RedisBook

__all__ = ["Old", "Outbox", "OutboxLimits", "Undeliverable", "offers"]

logger = logging.getLogger(__name__)
GIVE_UP = 5  # a step failing this often in a row (not Redis: that is waited out) is dropped


NOTICE_POLL_S = 0.5  # how often a notice waiting for all chats' window asks again
CALL_GRACE_S = 5.0  # at a stop, a step whose call is on its way has this long to end


class Outbox:
    """Per-chat ordered delivery with coalesced edits and rate limits (see the module)."""

    def __init__(
        self,
        bot: Bot,
        store: MessageStore,
        limits: OutboxLimits | None = None,
        *,
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
        on_refused: Callable[[int, str, Undeliverable], None] | None = None,
        rates: Rates | None = None,
        book: RedisBook | None = None,
    ) -> None:
        self.on_refused = on_refused  # told (chat, key, why) when a keyed message can't go
        # told (chat, entry, seconds) when an owed entry is held, to be sent again then
        self.on_held: OnHeld | None = None
        self.wire = Calls(
            bot,
            store,
            limits,
            clock=clock,
            sleep=sleep,
            rates=rates,
            book=book,
            on_refused=self._refused,
            on_held=self._held,
        )
        self._chats: dict[Lane, ChatQueue] = {}
        self._wants: set[asyncio.Task[None]] = set()  # the book told what a show offers
        self._telling: dict[tuple[int, str], int] = {}  # keys whose offers are on their way
        self._stopping = False  # no worker takes another step

    @property
    def book(self) -> RedisBook | None:
        """Several workers: what each keyed message shows, shared."""
        return self.wire.book

    def _refused(self, chat_id: int, key: str, why: Undeliverable) -> None:
        if self.on_refused is not None:
            self.on_refused(chat_id, key, why)

    def _held(self, chat_id: int, owed: OwedRef, seconds: float) -> None:
        if self.on_held is not None:
            self.on_held(chat_id, owed, seconds)

    async def load(self) -> None:
        """Read what every keyed message shows (at start-up, before anything is shown)."""
        for message in await self.wire.store.messages():
            self.wire.known[(message.chat_id, message.key)] = message
            self.wire.keys[(message.chat_id, message.message_id)] = message.key  # as stored
        if self.wire.book is not None:
            await self.wire.book.seed(list(self.wire.known.values()))
        for chat_id, key in await self.wire.store.intents():  # the module: exactly once
            logger.warning(
                "outbox: chat=%s %s was being sent when the bot stopped; it goes again when"
                " shown (a second copy only if Telegram had the first)",
                chat_id,
                key,
            )

    # --- what callers say -------------------------------------------------------------------

    def show(
        self,
        chat_id: int,
        key: str,
        rendered: Rendered,
        *,
        fresh: bool = False,
        old: Old = Old.KEEP,
        reply_to: int | None = None,
        thread: int | None = None,
        rev: int | None = None,
        receiver: int | None = None,
        answering: str | None = None,
        replace: bool = False,
        notice: bool = False,
        owed: OwedRef | None = None,
    ) -> None:
        """Make message ``key`` of the chat show ``rendered`` (edited, or sent if new or fresh;
        ``old``: what happens to the message the key named before; ``thread``: the forum topic
        it is sent in; ``rev``: the table's turn it shows — several workers: an older turn
        never takes a newer one's place).

        ``receiver``: the message is the group's for that member alone (an ephemeral message,
        #32), in a queue of its own; ``answering``: the callback query of his press it answers,
        ``replace``: shown in place of the message he pressed (a fresh send only).

        ``notice``: a notification (a turn ping, a reminder), whose place among the chat's
        other steps does not matter: while it would wait for a turn (all chats' window full,
        #33), the chat's next step goes first — a hand's edit never waits behind a ping.

        ``owed``: the durable outbox's entry it shows (#36), settled once shown."""
        rendered = fit(rendered)  # within Telegram's limits, whatever built it
        wanted = self.wire.wanted[(chat_id, key)] = offers(rendered)
        if self.wire.book is not None:  # every worker checks a press against it (RedisBook)
            self._want(chat_id, key, wanted, rev)
        lane = self._chat(chat_id, receiver)
        if not fresh and coalesced(lane.queue, key, rendered, rev, answering, owed):
            return
        show = Show(
            key, rendered, fresh, old, reply_to, thread, rev, answering, replace, notice, owed
        )
        self._enqueue(chat_id, show, receiver)

    def _want(self, chat_id: int, key: str, wanted: frozenset[str], rev: int | None) -> None:
        """Tell the book (every worker) what message ``key`` is to offer; until it has it, this
        worker answers from its own memory (:meth:`telling`)."""
        book, at = self.wire.book, (chat_id, key)
        assert book is not None
        self._telling[at] = self._telling.get(at, 0) + 1

        async def tell() -> None:
            try:
                await self.wire.patience(
                    "the wanted offers", lambda: book.want(chat_id, key, wanted, rev)
                )
            finally:
                left = self._telling.pop(at, 1) - 1
                if left:
                    self._telling[at] = left

        task = asyncio.create_task(tell())
        self._wants.add(task)
        task.add_done_callback(self._wants.discard)

    def telling(self, chat_id: int, key: str) -> bool:
        """Whether what message ``key`` offers is on its way to the book (this worker knows)."""
        return (chat_id, key) in self._telling

    def post(
        self,
        chat_id: int,
        rendered: Rendered,
        *,
        key: str | None = None,
        reply_to: int | None = None,
        thread: int | None = None,
        owed: OwedRef | None = None,
    ) -> asyncio.Future[int | None]:
        """Send a new message (a result, a notice) in order; the future gets its id. ``owed``:
        the durable outbox's entry it shows (#36), settled once sent."""
        rendered = fit(rendered)
        done: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        self._enqueue(chat_id, Post(rendered, done, key, reply_to, thread, owed))
        return done

    def settle(self, chat_id: int, owed: OwedRef) -> None:
        """An owed entry shows nothing after all (#36): settled in its place in the chat's
        order."""
        self._enqueue(chat_id, Settle(owed))

    def post_document(
        self,
        chat_id: int,
        filename: str,
        data: bytes,
        *,
        reply_to: int | None = None,
        thread: int | None = None,
    ) -> None:
        """Send a file (a game record) in order with the chat's messages."""
        self._enqueue(chat_id, Document(filename, data, reply_to, thread))

    def post_photo(
        self,
        chat_id: int,
        filename: str,
        data: bytes,
        *,
        key: str | None = None,
        reply_to: int | None = None,
        thread: int | None = None,
    ) -> None:
        """Send a picture (a chart) in order with the chat's messages; ``key``: it goes once,
        never again while the key is known (:meth:`queued` or :meth:`message_id` say so)."""
        self._enqueue(chat_id, Photo(filename, data, key, reply_to, thread))

    def strip(
        self, chat_id: int, key: str, *, forget: bool = False, receiver: int | None = None
    ) -> None:
        """Remove the keyboard of message ``key`` (its text stays as shown). ``forget``: then the
        key is let go (its buttons no longer count; a later message may take the key);
        ``receiver``: the member an ephemeral message is for (see :meth:`show`)."""
        # in queue order: a send of this key still queued (a hand sent anew) is stripped too,
        # and the key is let go when the queue gets there
        self._enqueue(chat_id, Strip(key), receiver)
        if forget:
            self._enqueue(chat_id, Drop(key), receiver)

    def strip_message(self, chat_id: int, message_id: int) -> None:
        """Remove the buttons of a message by id (an old one no key names any more)."""
        if (chat_id, message_id) not in self.wire.keys:
            self._enqueue(chat_id, StripMessage(message_id))

    def delete(self, chat_id: int, key: str, *, receiver: int | None = None) -> None:
        """Delete message ``key`` (``receiver``: the member an ephemeral message is for). A show
        of the key still waiting behind another step goes unsent: it would be deleted at once
        (a turn ping whose turn is over before it could go). The step being made is left be."""
        lane = self._chats.get((chat_id, receiver))
        if lane is not None and len(lane.queue) > 1:
            head, *rest = lane.queue
            kept = [s for s in rest if not (isinstance(s, Show) and s.key == key)]
            if len(kept) < len(rest):
                lane.queue = deque([head, *kept])
        self._enqueue(chat_id, Delete(key), receiver)

    def delete_message(self, chat_id: int, message_id: int) -> None:
        """Delete a message by id (a user's own command line in the private chat, say)."""
        self._enqueue(chat_id, DeleteMessage(message_id))

    def forget_chat(self, chat_id: int) -> None:
        """A group that became a supergroup (issue #17): its queue and keyed messages go (the
        database's rows went in the migration's unit of work)."""
        for lane in [lane for lane in self._chats if lane[0] == chat_id]:
            chat = self._chats.pop(lane)
            if chat.worker is not None:
                chat.worker.cancel()
        self.wire.known = {k: v for k, v in self.wire.known.items() if k[0] != chat_id}
        self.wire.keys = {k: v for k, v in self.wire.keys.items() if k[0] != chat_id}
        self.wire.wanted = {k: v for k, v in self.wire.wanted.items() if k[0] != chat_id}
        self.wire.closed.pop(chat_id, None)
        self.wire.holding.forget(chat_id)
        self.wire.rates.forget(chat_id)

    def message_id(self, chat_id: int, key: str) -> int | None:
        """The Telegram id message ``key`` lives under now (None: not sent yet, or gone)."""
        known = self.wire.known.get((chat_id, key))
        return known.telegram_id if known else None

    def key_of(self, chat_id: int, message_id: int, *, ephemeral: bool = False) -> str | None:
        """Which keyed message of the chat this id is now (None: none, or an old one);
        ``ephemeral``: Telegram's ``ephemeral_message_id``, a namespace apart."""
        stored = stored_id(message_id, ephemeral=ephemeral)
        key = self.wire.keys.get((chat_id, stored))
        known = self.wire.known.get((chat_id, key)) if key is not None else None
        return key if known is not None and known.message_id == stored else None

    def queued(self, chat_id: int, key: str) -> bool:
        """Whether a step of message ``key`` waits in the chat's queue (not sent yet)."""
        lane = self._chats.get((chat_id, None))
        return lane is not None and any(step.key == key for step in lane.queue)

    def offers(self, chat_id: int, key: str) -> frozenset[str] | None:
        """The callback data message ``key`` offers now: that of the latest text it was asked
        to show (None: not asked since the start)."""
        return self.wire.wanted.get((chat_id, key))

    def is_closed(self, chat_id: int) -> bool:
        """Whether the chat's last send or edit was refused (403: blocked, kicked, not started)."""
        return chat_id in self.wire.closed

    def pending(self, chat_id: int | None = None) -> int:
        """Queued steps not delivered yet (of one chat, or of all)."""
        chats = [c for lane, c in self._chats.items() if chat_id is None or lane[0] == chat_id]
        return sum(len(c.queue) + (c.worker is not None and not c.worker.done()) for c in chats)

    def tracked(self) -> dict[str, int]:
        """What per-chat state is in memory now (figures: idle chats keep none)."""
        return {
            "chats": len(self._chats),
            "windows": self.wire.rates.tracked(),
            "closed": len(self.wire.closed),
            "offers": len(self.wire.wanted),
            "held": self.wire.holding.tracked(),
        }

    async def drain(self) -> None:
        """Wait until every queued step has been delivered."""
        while True:
            workers = [c.worker for c in self._chats.values() if c.worker and not c.worker.done()]
            workers += self._wants
            if not workers:
                return
            await asyncio.gather(*workers, return_exceptions=True)

    async def drain_for(self, seconds: float) -> bool:
        """Deliver what is queued for at most ``seconds`` (a clean stop); whether all went.
        Nothing is cut short when the time is up (:meth:`close` stops the workers)."""
        loop = asyncio.get_running_loop()
        until = loop.time() + seconds
        while True:
            workers = [c.worker for c in self._chats.values() if c.worker and not c.worker.done()]
            workers += self._wants
            left = until - loop.time()
            if not workers or left <= 0:
                return not workers and self.pending() == 0
            await asyncio.wait(workers, timeout=left)

    async def close(self, grace: float = CALL_GRACE_S) -> None:
        """Stop the workers (what is still queued is dropped: the database brings it back). A
        step whose call is on its way ends first, for at most ``grace`` seconds (0: at once, as
        a kill): cut short, Telegram may have made the call while the bot never learns it, and a
        restart would send it again — an edit answered «message is not modified»."""
        self._stopping = True
        for task in list(self._wants):
            task.cancel()
        calling = [c.worker for c in self._chats.values() if c.worker and c.calling]
        if calling and grace > 0:
            await asyncio.wait(calling, timeout=grace)
        for chat in list(self._chats.values()):
            if chat.worker is not None:
                await cancelled(chat.worker)
        self._chats.clear()

    # --- delivery ---------------------------------------------------------------------------

    def _chat(self, chat_id: int, receiver: int | None = None) -> ChatQueue:
        chat = self._chats.get((chat_id, receiver))
        if chat is None:
            chat = self._chats[(chat_id, receiver)] = ChatQueue(receiver)
        return chat

    def _enqueue(self, chat_id: int, step: Step, receiver: int | None = None) -> None:
        chat = self._chat(chat_id, receiver)
        chat.queue.append(step)
        chat.arrived.set()  # a notice waiting for its place lets it go first
        if chat.worker is None or chat.worker.done():
            name = f"outbox:{chat_id}" if receiver is None else f"outbox:{chat_id}:{receiver}"
            chat.worker = asyncio.create_task(self._run(chat_id, chat), name=name)

    async def _run(self, chat_id: int, chat: ChatQueue) -> None:
        failed = 0  # the head step's failures in a row
        while chat.queue and not self._stopping:
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
            if failed:
                failed = 0
                self.wire.patience.recovered()
        lane = (chat_id, chat.receiver)
        if self._chats.get(lane) is chat:  # idle: nothing of the chat is kept in memory
            del self._chats[lane]

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
        head, receiver = chat.queue[0], chat.receiver
        known = self.wire.known.get((chat_id, head.key)) if head.key is not None else None
        if needless(head, known):
            await self.wire.settle_owed(chat.take())  # shown already (a restart's repeat)
            return
        if not isinstance(head, QUIET):
            group = chat_id < 0 and receiver is None  # a group message's edits keep a gap
            edit_key = head.key if group and isinstance(head, Show) and not head.fresh else None
            new = is_new(head, known)
            if is_notice(head):
                if not await self._notice_turn(chat_id, chat, new):
                    return  # it waits aside, or went unsent
            else:  # the show may take newer text meanwhile
                await self.wire.patience(
                    "a rate turn",
                    lambda: self.wire.rates.turn(chat_id, edit_key, receiver, new=new),
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
        # not when cancelled (a stop): an unused turn then runs out with its window
        await self.wire.patience(
            "a rate turn's end", lambda: self.wire.rates.done(chat_id, receiver)
        )

    def _adopt(self, chat_id: int, key: str, known: StoredMessage | None) -> None:
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
