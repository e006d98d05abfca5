"""The outbox: every message the bot puts on screen goes through it, within Telegram's limits.

Callers say what a chat should show, and the outbox decides when Telegram hears of it:

* One queue per chat, delivered in order by one worker task: a deal's result never overtakes
  the table edit queued before it. Answers to commands in a group (:meth:`Outbox.answer`)
  have a queue of their own beside it, which never goes ahead of a step waiting in the table's,
  takes at most half of the group's window (:func:`bot.sending.rates.share`), and
  drops what a member's quota of answers has no room for: whoever floods a group with commands
  can't delay the table's next move.
* A message the bot keeps up to date has a *key* (:data:`bot.keys.OutboxKey`, stored as
  ``table:12:3``, ``hand:12:0``).
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

The queues and the tasks delivering them are :mod:`bot.sending.lanes`: a chat's task survives
any failed step, and an idle chat (nothing queued) keeps nothing in memory.

Exactly once. A keyed message is *marked* in the store before its send goes out
and *settled* with its Telegram id as the first thing done with the answer (before any wait of
the rate window, the shared book or the old message's strip). A key marked and never settled was
killed in between: it is sent again when shown — a second copy only if Telegram had the first
(the Bot API has no idempotent send); such keys are logged at the start-up.

What a chat is owed (a deal's or a match's result, a notice) is written by the
runtime in the unit of work of the action that caused it; its step names the entry (``owed``),
which is claimed with the mark and settled with the id (:mod:`bot.storage.outbox_sql`). A
restart shows every entry still owed again, in order, however many actions came after it. An
entry whose send fails past the Bot API's patience (429s, an outage) is *held* and the runtime
told (:attr:`Outbox.on_held`): it is sent again while the bot runs, with back-off, and the
chat's later entries wait behind it — the chat's other messages (its table) go on meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from typing import TYPE_CHECKING

from aiogram import Bot

from bot.clock import Clock
from bot.keys import MessageKey, OutboxKey
from bot.message_limits import fit
from bot.rendered import Rendered
from bot.runtime.commands import DeliveryFailed, OwedHeld, Send, Undeliverable
from bot.sending.calls import Calls
from bot.sending.lanes import Lanes
from bot.sending.rates import OutboxLimits, Quota, Rates
from bot.sending.requests import Sleep
from bot.sending.steps import (
    Delete,
    DeleteMessage,
    Document,
    Drop,
    Lane,
    Old,
    Photo,
    Post,
    Settle,
    Show,
    StripButtons,
    StripMessageButtons,
    coalesced,
    offers,
    renewed,
)
from bot.storage.protocol import MessageStore
from bot.storage.rows import OwedRef, stored_id
from bot.tasks import cancelled

if TYPE_CHECKING:  # Redis is an optional extra (several workers)
    from bot.sending.redis_book import RedisBook

__all__ = ["Old", "Outbox", "OutboxLimits", "Undeliverable", "offers"]

logger = logging.getLogger(__name__)
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
        report: Send | None = None,
        rates: Rates | None = None,
        book: RedisBook | None = None,
    ) -> None:
        # the runtime's inbox: told (DeliveryFailed) when a keyed message can't go, and
        # (OwedHeld) when an owed entry is held, to be sent again later
        self.report = report
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
        self.lanes = Lanes(self.wire)
        self._wants: set[asyncio.Task[None]] = set()  # the book told what a show offers
        self._telling: dict[tuple[int, OutboxKey], int] = {}  # keys whose offers are on their way

    @property
    def book(self) -> RedisBook | None:
        """Several workers: what each keyed message shows, shared."""
        return self.wire.book

    def _refused(self, chat_id: int, key: OutboxKey, why: Undeliverable) -> None:
        if self.report is not None and isinstance(key, MessageKey):  # a table's message
            self.report(DeliveryFailed(chat_id, key, why))

    def _held(self, chat_id: int, owed: OwedRef, seconds: float) -> None:
        if self.report is not None:
            self.report(OwedHeld(chat_id, owed, seconds))

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
        key: OutboxKey,
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
        after: int | None = None,
    ) -> None:
        """Make message ``key`` of the chat show ``rendered`` (edited, or sent if new or fresh;
        ``old``: what happens to the message the key named before; ``thread``: the forum topic
        it is sent in; ``rev``: the table's turn it shows — several workers: an older turn
        never takes a newer one's place).

        ``receiver``: the message is the group's for that member alone (an ephemeral message),
        in a queue of its own; ``answering``: the callback query of his press it answers,
        ``replace``: shown in place of the message he pressed (a fresh send only).

        ``notice``: a notification (a turn ping, a reminder), whose place among the chat's
        other steps does not matter: while it would wait for a turn (all chats' window full),
        the chat's next step goes first — a hand's edit never waits behind a ping.

        ``owed``: the durable outbox's entry it shows, settled once shown.

        ``after``: a player's message of a table in group ``after`` (his hand, his turn
        ping): it goes out only after the new messages the group's queue holds now (the
        deal's table, the last deal's result)."""
        rendered = fit(rendered)  # within Telegram's limits, whatever built it
        wanted = self.wire.wanted[(chat_id, key)] = offers(rendered)
        if self.wire.book is not None:  # every worker checks a press against it (RedisBook)
            self._want(chat_id, key, wanted, rev)
        answers = self.lanes.answering(chat_id, receiver, key)  # follows the answer still queued
        lane = self.lanes.chat(chat_id, receiver, answers)
        behind = self.lanes.behind(after) if after is not None else None
        if not fresh and coalesced(lane.queue, key, rendered, rev, answering, owed, behind=behind):
            return
        show = Show(
            key,
            rendered,
            fresh,
            old,
            reply_to,
            thread,
            rev,
            answering,
            replace,
            notice,
            owed,
            behind=behind,
        )
        player = chat_id > 0 or receiver is not None  # a player's own: his hand, his ping
        if fresh and player and renewed(lane.queue, show):
            return
        self.lanes.enqueue(chat_id, show, receiver, answers)

    def answer(
        self,
        chat_id: int,
        key: OutboxKey,
        rendered: Rendered,
        *,
        asker: int,
        receiver: int | None = None,
        reply_to: int | None = None,
        replying: int | None = None,
        thread: int | None = None,
        old: Old = Old.KEEP,
    ) -> None:
        """Answer member ``asker``'s command in a group: message ``key`` shows
        ``rendered`` — in place while it was sent anew within the group's window (the same
        text again: nothing at all), else sent anew (``old``: what becomes of the one before).
        In the group's queue of answers, or (``receiver``) in his alone; ``replying``: the
        command he sent ephemerally, which the answer replies to (a bot that is no
        administrator may answer him alone only so). Counted in his quota of answers
        (:class:`~bot.sending.rates.Quota`): what it has no room for is dropped."""
        rendered = fit(rendered)
        wanted = self.wire.wanted[(chat_id, key)] = offers(rendered)
        if self.wire.book is not None:
            self._want(chat_id, key, wanted, None)
        lane = self.lanes.chat(chat_id, receiver, answers=True)
        if coalesced(lane.queue, key, rendered, None, None, None, replying):
            return
        show = Show(
            key, rendered, old=old, reply_to=reply_to, thread=thread, asker=asker, replying=replying
        )
        self.lanes.enqueue(chat_id, show, receiver, answers=True)

    async def quota(self, chat_id: int, user_id: int, kind: Quota, *, take: bool = True) -> bool:
        """Whether member ``user_id``'s quota in the group has room (every worker's);
        ``take``: a place is taken now."""
        rates = self.wire.rates
        return await self.wire.patience(
            "a member's quota", lambda: rates.take(chat_id, user_id, kind, count=take)
        )

    def _want(self, chat_id: int, key: OutboxKey, wanted: frozenset[str], rev: int | None) -> None:
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

    def telling(self, chat_id: int, key: OutboxKey) -> bool:
        """Whether what message ``key`` offers is on its way to the book (this worker knows)."""
        return (chat_id, key) in self._telling

    def post(
        self,
        chat_id: int,
        rendered: Rendered,
        *,
        key: OutboxKey | None = None,
        reply_to: int | None = None,
        thread: int | None = None,
        owed: OwedRef | None = None,
    ) -> asyncio.Future[int | None]:
        """Send a new message (a result, a notice) in order; the future gets its id. ``owed``:
        the durable outbox's entry it shows, settled once sent."""
        rendered = fit(rendered)
        done: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        self.lanes.enqueue(chat_id, Post(rendered, done, key, reply_to, thread, owed))
        return done

    def settle(self, chat_id: int, owed: OwedRef) -> None:
        """An owed entry shows nothing after all: settled in its place in the chat's
        order."""
        self.lanes.enqueue(chat_id, Settle(owed))

    def post_document(
        self,
        chat_id: int,
        filename: str,
        data: bytes,
        *,
        key: OutboxKey | None = None,
        reply_to: int | None = None,
        thread: int | None = None,
    ) -> None:
        """Send a file (a game record) in order with the chat's messages; ``key``: its id is
        remembered under the key (:meth:`queued` and :meth:`message_id` say so)."""
        self.lanes.enqueue(chat_id, Document(filename, data, key, reply_to, thread))

    def post_photo(
        self,
        chat_id: int,
        filename: str,
        data: bytes,
        *,
        key: OutboxKey | None = None,
        reply_to: int | None = None,
        thread: int | None = None,
    ) -> None:
        """Send a picture (a chart) in order with the chat's messages; ``key``: it goes once,
        never again while the key is known (:meth:`queued` or :meth:`message_id` say so)."""
        self.lanes.enqueue(chat_id, Photo(filename, data, key, reply_to, thread))

    def strip(
        self, chat_id: int, key: OutboxKey, *, forget: bool = False, receiver: int | None = None
    ) -> None:
        """Remove the keyboard of message ``key`` (its text stays as shown). ``forget``: then the
        key is let go (its buttons no longer count; a later message may take the key);
        ``receiver``: the member an ephemeral message is for (see :meth:`show`)."""
        # in queue order: a send of this key still queued (a hand sent anew) is stripped too,
        # and the key is let go when the queue gets there
        answers = self.lanes.answering(chat_id, receiver, key)
        self.lanes.enqueue(chat_id, StripButtons(key), receiver, answers)
        if forget:
            self.lanes.enqueue(chat_id, Drop(key), receiver, answers)

    def strip_message(self, chat_id: int, message_id: int) -> None:
        """Remove the buttons of a message by id (an old one no key names any more)."""
        if (chat_id, message_id) not in self.wire.keys:
            self.lanes.enqueue(chat_id, StripMessageButtons(message_id))

    def delete(self, chat_id: int, key: OutboxKey, *, receiver: int | None = None) -> None:
        """Delete message ``key`` (``receiver``: the member an ephemeral message is for). A show
        of the key still waiting behind another step goes unsent: it would be deleted at once
        (a turn ping whose turn is over before it could go). The step being made is left be."""
        answers = self.lanes.answering(chat_id, receiver, key)
        lane = self.lanes.chats.get(Lane(chat_id, receiver, answers))
        if lane is not None and len(lane.queue) > 1:
            head, *rest = lane.queue
            kept = [s for s in rest if not (isinstance(s, Show) and s.key == key)]
            if len(kept) < len(rest):
                lane.queue = deque([head, *kept])
        self.lanes.enqueue(chat_id, Delete(key), receiver, answers)

    def delete_message(self, chat_id: int, message_id: int) -> None:
        """Delete a message by id (a user's own command line in the private chat, say)."""
        self.lanes.enqueue(chat_id, DeleteMessage(message_id))

    def forget_chat(self, chat_id: int) -> None:
        """A group that became a supergroup: its queue and keyed messages go (the
        database's rows went in the migration's unit of work)."""
        for lane in [lane for lane in self.lanes.chats if lane[0] == chat_id]:
            chat = self.lanes.chats.pop(lane)
            if chat.worker is not None:
                chat.worker.cancel()
        self.wire.known = {k: v for k, v in self.wire.known.items() if k[0] != chat_id}
        self.wire.keys = {k: v for k, v in self.wire.keys.items() if k[0] != chat_id}
        self.wire.wanted = {k: v for k, v in self.wire.wanted.items() if k[0] != chat_id}
        self.wire.closed.pop(chat_id, None)
        self.wire.holding.forget(chat_id)
        self.wire.rates.forget(chat_id)

    def message_id(self, chat_id: int, key: OutboxKey) -> int | None:
        """The Telegram id message ``key`` lives under now (None: not sent yet, or gone)."""
        known = self.wire.known.get((chat_id, key))
        return known.telegram_id if known else None

    def key_of(self, chat_id: int, message_id: int, *, ephemeral: bool = False) -> OutboxKey | None:
        """Which keyed message of the chat this id is now (None: none, or an old one);
        ``ephemeral``: Telegram's ``ephemeral_message_id``, a namespace apart."""
        stored = stored_id(message_id, ephemeral=ephemeral)
        key = self.wire.keys.get((chat_id, stored))
        known = self.wire.known.get((chat_id, key)) if key is not None else None
        return key if known is not None and known.message_id == stored else None

    def queued(self, chat_id: int, key: OutboxKey) -> bool:
        """Whether a step of message ``key`` waits in the chat's queue, or in its answers' (not
        sent yet)."""
        lanes = (self.lanes.chats.get(Lane(chat_id, None, answers)) for answers in (False, True))
        return any(lane is not None and any(s.key == key for s in lane.queue) for lane in lanes)

    def offers(self, chat_id: int, key: OutboxKey) -> frozenset[str] | None:
        """The callback data message ``key`` offers now: that of the latest text it was asked
        to show (None: not asked since the start)."""
        return self.wire.wanted.get((chat_id, key))

    def is_closed(self, chat_id: int) -> bool:
        """Whether the chat's last send or edit was refused (403: blocked, kicked, not started)."""
        return chat_id in self.wire.closed

    def pending(self, chat_id: int | None = None) -> int:
        """Queued steps not delivered yet (of one chat, or of all)."""
        chats = [c for lane, c in self.lanes.chats.items() if chat_id is None or lane[0] == chat_id]
        return sum(len(c.queue) + (c.worker is not None and not c.worker.done()) for c in chats)

    def tracked(self) -> dict[str, int]:
        """What per-chat state is in memory now (figures: idle chats keep none)."""
        return {
            "chats": len(self.lanes.chats),
            "windows": self.wire.rates.tracked(),
            "closed": len(self.wire.closed),
            "offers": len(self.wire.wanted),
            "held": self.wire.holding.tracked(),
        }

    async def drain(self) -> None:
        """Wait until every queued step has been delivered."""
        while True:
            workers = [
                c.worker for c in self.lanes.chats.values() if c.worker and not c.worker.done()
            ]
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
            chats = self.lanes.chats.values()
            workers = [c.worker for c in chats if c.worker and not c.worker.done()]
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
        self.lanes.stopping = True
        for task in list(self._wants):
            task.cancel()
        calling = [c.worker for c in self.lanes.chats.values() if c.worker and c.calling]
        if calling and grace > 0:
            await asyncio.wait(calling, timeout=grace)
        for chat in list(self.lanes.chats.values()):
            if chat.worker is not None:
                await cancelled(chat.worker)
        self.lanes.chats.clear()
