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
  Private chats get about one message a second with short bursts; all chats together stay under
  ``global_ops`` a second.
* What every keyed message shows is remembered (a digest, in the :class:`MessageStore`), across
  restarts too: an edit identical to what a message shows is never sent.
* Callback answers are not messages: they are answered at once by the handlers, never queued.

Telegram's own answers (429, "message is not modified", "message can't be edited") are handled
below, in :mod:`bot.sending.session`; a chat that answers 403 is *closed* to the bot until a
message to it gets through again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Literal

from aiogram import Bot
from aiogram.exceptions import TelegramAPIError, TelegramBadRequest, TelegramForbiddenError
from aiogram.types import BufferedInputFile, Message

from bot.render.common import Rendered
from bot.render.limits import fit
from bot.sending.lean import EditText, SendText
from bot.sending.rates import LocalRates, OutboxLimits, Rates
from bot.sending.session import EDIT_THREAD

__all__ = ["Old", "Outbox", "OutboxLimits", "Refusal", "offers"]
from bot.storage.protocol import MessageStore
from bot.storage.rows import StoredMessage

if TYPE_CHECKING:  # Redis is an optional extra (several workers)
    from bot.sending.shared import Entry, RedisBook

logger = logging.getLogger(__name__)

Refusal = Literal["forbidden", "topic"]  # why a keyed message can't go: a 403, a gone topic
_TOPIC_GONE = re.compile(r"thread not found|TOPIC_(CLOSED|DELETED)", re.IGNORECASE)

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]


class Old(StrEnum):
    """What happens to the previous message of a key that is sent anew (``fresh``)."""

    KEEP = "keep"  # it stays as it was (its final state was shown before)
    STRIP = "strip"  # its keyboard is removed
    DELETE = "delete"  # it is deleted (an old hand message)


def offers(rendered: Rendered) -> frozenset[str]:
    """The callback data of a message's buttons: what pressing it may send."""
    buttons = rendered.markup.buttons() if rendered.markup else ()
    return frozenset(b.callback_data for b in buttons if b.callback_data)


@dataclass(slots=True)
class _Op:
    """One queued step of a chat: show a keyed message, post a one-off, strip, delete."""

    kind: str  # "show" | "post" | "doc" | "strip" | "delete" | "drop"
    key: str | None
    rendered: Rendered | None = None
    fresh: bool = False
    old: Old = Old.KEEP
    reply_to: int | None = None
    done: asyncio.Future[int | None] | None = None
    message_id: int | None = None  # a strip of a message whose key was forgotten already
    rev: int | None = None  # the table's turn it shows (several workers: never older wins)
    document: bytes | None = None  # "doc": the file (its name is the rendered text)
    thread: int | None = None  # a forum topic a send goes to (edits need none)


@dataclass(slots=True)
class _Chat:
    queue: deque[_Op] = field(default_factory=deque)
    worker: asyncio.Task[None] | None = None


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
        on_refused: Callable[[int, str, Refusal], None] | None = None,
        rates: Rates | None = None,
        book: RedisBook | None = None,
    ) -> None:
        self.bot = bot
        self.store = store
        self.limits = limits or OutboxLimits()
        self.rates: Rates = rates or LocalRates(self.limits, clock=clock, sleep=sleep)
        self.book = book  # several workers: what each keyed message shows, shared
        self.rev: int | None = None  # the turn of the screens being queued now (Presenter)
        self._guarding: dict[int, tuple[Entry, int | None, frozenset[str] | None]] = {}
        self._chats: dict[int, _Chat] = {}
        self._known: dict[tuple[int, str], StoredMessage] = {}
        self._keys: dict[tuple[int, int], str] = {}  # (chat, message id) → key
        self._wanted: dict[tuple[int, str], frozenset[str]] = {}  # key → callback data it offers
        # told (chat, key, why) when a keyed message can't go: a 403, or its forum topic gone
        self.on_refused = on_refused
        self._closed: set[int] = set()
        self.calls = 0  # Bot API calls made (figures for tests and benchmarks)

    async def load(self) -> None:
        """Read what every keyed message shows (at start-up, before anything is shown)."""
        for message in await self.store.messages():
            self._known[(message.chat_id, message.key)] = message
            self._keys[(message.chat_id, message.message_id)] = message.key
        if self.book is not None:
            await self.book.seed(list(self._known.values()))

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
    ) -> None:
        """Make message ``key`` of the chat show ``rendered`` (edited, or sent if new or fresh;
        ``old``: what happens to the message the key named before; ``thread``: the forum topic
        it is sent in)."""
        rendered = fit(rendered)  # within Telegram's limits, whatever built it
        self._wanted[(chat_id, key)] = offers(rendered)
        chat = self._chat(chat_id)
        if not fresh:
            for op in reversed(chat.queue):
                if op.key == key and op.kind == "show" and not op.fresh:
                    op.rendered = rendered  # the latest state wins, in the earlier place
                    op.rev = (
                        self.rev if op.rev is None or self.rev is None else max(op.rev, self.rev)
                    )
                    return
                if op.key == key or op.kind == "post" or op.fresh:
                    break  # never move a state ahead of a message sent after it
        op = _Op("show", key, rendered, fresh=fresh, old=old, reply_to=reply_to, thread=thread)
        op.rev = self.rev
        self._enqueue(chat_id, op)

    def post(
        self,
        chat_id: int,
        rendered: Rendered,
        *,
        key: str | None = None,
        reply_to: int | None = None,
        thread: int | None = None,
    ) -> asyncio.Future[int | None]:
        """Send a new message (a result, a notice) in order; the future gets its id."""
        rendered = fit(rendered)
        done: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        op = _Op("post", key, rendered, reply_to=reply_to, done=done, thread=thread)
        self._enqueue(chat_id, op)
        return done

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
        op = _Op("doc", None, Rendered(filename), reply_to=reply_to, document=data, thread=thread)
        self._enqueue(chat_id, op)

    def strip(self, chat_id: int, key: str, *, forget: bool = False) -> None:
        """Remove the keyboard of message ``key`` (its text stays as shown). ``forget``: then the
        key is let go (its buttons no longer count; a later message may take the key)."""
        # in queue order: a send of this key still queued (a hand sent anew) is stripped too,
        # and the key is let go when the queue gets there
        self._enqueue(chat_id, _Op("strip", key))
        if forget:
            self._enqueue(chat_id, _Op("drop", key))

    def strip_message(self, chat_id: int, message_id: int) -> None:
        """Remove the buttons of a message by id (an old one no key names any more)."""
        if (chat_id, message_id) not in self._keys:
            self._enqueue(chat_id, _Op("strip", None, message_id=message_id))

    def delete(self, chat_id: int, key: str) -> None:
        self._enqueue(chat_id, _Op("delete", key))

    def delete_message(self, chat_id: int, message_id: int) -> None:
        """Delete a message by id (a user's own command line in the private chat, say)."""
        self._enqueue(chat_id, _Op("delete", None, message_id=message_id))

    def forget_chat(self, chat_id: int) -> None:
        """A group that became a supergroup (issue #17): its queue and keyed messages go (the
        database's rows went in the migration's unit of work)."""
        chat = self._chats.pop(chat_id, None)
        if chat is not None and chat.worker is not None:
            chat.worker.cancel()
        self._known = {k: v for k, v in self._known.items() if k[0] != chat_id}
        self._keys = {k: v for k, v in self._keys.items() if k[0] != chat_id}
        self._wanted = {k: v for k, v in self._wanted.items() if k[0] != chat_id}
        self._closed.discard(chat_id)
        self.rates.forget(chat_id)

    def message_id(self, chat_id: int, key: str) -> int | None:
        """The Telegram id message ``key`` lives under now (None: not sent yet, or gone)."""
        known = self._known.get((chat_id, key))
        return known.message_id if known else None

    def key_of(self, chat_id: int, message_id: int) -> str | None:
        """Which keyed message of the chat this id is now (None: none, or an old one)."""
        key = self._keys.get((chat_id, message_id))
        known = self._known.get((chat_id, key)) if key is not None else None
        return key if known is not None and known.message_id == message_id else None

    def offers(self, chat_id: int, key: str) -> frozenset[str] | None:
        """The callback data message ``key`` offers now: that of the latest text it was asked
        to show (None: not asked since the start)."""
        return self._wanted.get((chat_id, key))

    def is_closed(self, chat_id: int) -> bool:
        """Whether the chat's last send or edit was refused (403: blocked, kicked, not started)."""
        return chat_id in self._closed

    def pending(self, chat_id: int | None = None) -> int:
        """Queued steps not delivered yet (of one chat, or of all)."""
        chats = self._chats.values() if chat_id is None else [self._chat(chat_id)]
        return sum(len(c.queue) + (c.worker is not None and not c.worker.done()) for c in chats)

    async def drain(self) -> None:
        """Wait until every queued step has been delivered."""
        while True:
            workers = [c.worker for c in self._chats.values() if c.worker and not c.worker.done()]
            if not workers:
                return
            await asyncio.gather(*workers, return_exceptions=True)

    async def drain_for(self, seconds: float) -> bool:
        """Deliver what is queued for at most ``seconds`` (a clean stop); whether all went."""
        if seconds <= 0:
            return self.pending() == 0
        try:
            await asyncio.wait_for(self.drain(), seconds)
        except TimeoutError:
            return False
        return True

    async def close(self) -> None:
        """Stop the workers (what is still queued is dropped: the database brings it back)."""
        for chat in self._chats.values():
            if chat.worker is not None:
                chat.worker.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await chat.worker
        self._chats.clear()

    # --- delivery ---------------------------------------------------------------------------

    def _chat(self, chat_id: int) -> _Chat:
        chat = self._chats.get(chat_id)
        if chat is None:
            chat = self._chats[chat_id] = _Chat()
        return chat

    def _enqueue(self, chat_id: int, op: _Op) -> None:
        chat = self._chat(chat_id)
        chat.queue.append(op)
        if chat.worker is None or chat.worker.done():
            chat.worker = asyncio.create_task(self._run(chat_id, chat), name=f"outbox:{chat_id}")

    async def _run(self, chat_id: int, chat: _Chat) -> None:
        while chat.queue:
            op = chat.queue[0]
            if self.book is None or op.key is None or op.message_id is not None:
                await self._step(chat_id, chat, op)
                continue
            async with self.book.guard(chat_id, op.key) as entry:  # one worker at a time
                self._adopt(chat_id, op.key, entry.known)
                if op.rev is not None and entry.rev is not None and op.rev < entry.rev:
                    chat.queue.popleft()  # another worker showed a later turn already
                    continue
                rev = entry.rev if op.rev is None else op.rev
                wanted = offers(op.rendered) if op.kind == "show" and op.rendered else None
                self._guarding[chat_id] = (entry, rev, wanted)  # _remember tells the book
                try:
                    await self._step(chat_id, chat, op)
                finally:
                    del self._guarding[chat_id]
                known = self._known.get((chat_id, op.key))
                await self.book.put(chat_id, op.key, known, rev, wanted, entry)

    async def _step(self, chat_id: int, chat: _Chat, op: _Op) -> None:
        if self._needless(chat_id, op):
            chat.queue.popleft()
            return
        if op.kind != "drop":
            edit_key = op.key if chat_id < 0 and op.kind == "show" and not op.fresh else None
            await self.rates.turn(chat_id, edit_key)  # the op may take newer text meanwhile
        chat.queue.popleft()  # from here on, newer texts queue behind it
        try:
            await self._deliver(chat_id, chat, op)
        except Exception:  # never lose the queue to one failure
            logger.exception("outbox: %s to chat=%s failed", op.kind, chat_id)
            if op.done is not None and not op.done.done():
                op.done.set_result(None)
        finally:
            await self.rates.done(chat_id)

    def _adopt(self, chat_id: int, key: str, known: StoredMessage | None) -> None:
        """What the shared book says the message shows replaces this worker's memory of it."""
        self._forget(chat_id, key)
        if known is not None:
            self._known[(chat_id, key)] = known
            self._keys[(chat_id, known.message_id)] = key

    def _needless(self, chat_id: int, op: _Op) -> bool:
        """An edit to what the message already shows, or a step on a message never sent."""
        if op.message_id is not None or op.kind == "drop":
            return False
        known = self._known.get((chat_id, op.key)) if op.key else None
        if op.kind == "show" and not op.fresh and known is not None:
            assert op.rendered is not None
            return known.digest == op.rendered.digest()
        if op.kind == "strip" and known is not None:
            return not known.keyboard
        return op.kind in ("strip", "delete") and known is None

    @contextlib.asynccontextmanager
    async def _counted(self, chat_id: int) -> AsyncIterator[None]:
        """Count one API call at the moment its answer came (later than Telegram saw it)."""
        try:
            yield
        finally:
            self.calls += 1
            await self.rates.spent(chat_id)

    async def _deliver(self, chat_id: int, chat: _Chat, op: _Op) -> None:
        known = self._known.get((chat_id, op.key)) if op.key else None
        if op.kind == "drop":
            assert op.key is not None
            self._forget(chat_id, op.key)
            await self.store.drop_message(chat_id, op.key)
            return
        if op.kind == "doc":
            assert op.rendered is not None and op.document is not None
            file = BufferedInputFile(op.document, filename=op.rendered.text)
            try:
                async with self._counted(chat_id):
                    await self.bot.send_document(
                        chat_id,
                        file,
                        message_thread_id=op.thread,
                        reply_to_message_id=op.reply_to,
                        allow_sending_without_reply=True if op.reply_to else None,
                    )
            except TelegramAPIError as error:
                logger.warning("document to chat=%s failed: %s", chat_id, error.message)
            return
        if op.kind == "strip":
            if op.message_id is not None:
                known = StoredMessage(chat_id, "", op.message_id, "")
            assert known is not None
            await self._strip(chat_id, chat, known)
            return
        if op.kind == "delete":
            message_id = op.message_id
            if message_id is None:
                assert known is not None and op.key is not None
                message_id = known.message_id
            async with self._counted(chat_id):
                with contextlib.suppress(TelegramBadRequest, TelegramForbiddenError):
                    await self.bot.delete_message(chat_id, message_id)
            if op.key is not None:
                self._forget(chat_id, op.key)
                await self.store.drop_message(chat_id, op.key)
            return
        assert op.rendered is not None
        if op.kind == "show" and known is not None and not op.fresh:
            await self._edit(chat_id, chat, op, known)
            return
        sent = await self._send(chat_id, chat, op)
        if op.done is not None and not op.done.done():
            op.done.set_result(sent)
        if sent is None or op.key is None:
            return
        if known is not None and known.message_id != sent:
            if op.old is Old.STRIP and known.keyboard:
                await self.rates.turn(chat_id, None)  # a second call of this step: its own turn
                await self._strip(chat_id, chat, known)
            elif op.old is Old.DELETE:
                async with self._counted(chat_id):
                    with contextlib.suppress(TelegramBadRequest, TelegramForbiddenError):
                        await self.bot.delete_message(chat_id, known.message_id)
        await self._remember(chat_id, op.key, sent, op.rendered)

    async def _send(self, chat_id: int, chat: _Chat, op: _Op) -> int | None:
        assert op.rendered is not None
        try:
            async with self._counted(chat_id):
                message = await self.bot(
                    SendText(
                        chat_id=chat_id,
                        text=op.rendered.text,
                        message_thread_id=op.thread,
                        reply_markup=op.rendered.markup,
                        reply_to_message_id=op.reply_to,
                        allow_sending_without_reply=True if op.reply_to else None,
                    )
                )
        except TelegramForbiddenError as error:
            logger.info("send to chat=%s refused: %s", chat_id, error.message)
            self._closed.add(chat_id)
            self._refused(chat_id, op.key)
            return None
        except TelegramAPIError as error:
            logger.warning("send to chat=%s failed: %s", chat_id, error.message)
            self._topic_gone(chat_id, op, error)
            return None
        self._closed.discard(chat_id)
        return message.message_id

    async def _edit(self, chat_id: int, chat: _Chat, op: _Op, known: StoredMessage) -> None:
        assert op.rendered is not None and op.key is not None
        topic = EDIT_THREAD.set(op.thread)  # a re-send (can't edit) goes to the same topic
        try:
            async with self._counted(chat_id):
                result = await self.bot(
                    EditText(
                        text=op.rendered.text,
                        chat_id=chat_id,
                        message_id=known.message_id,
                        reply_markup=op.rendered.markup,
                    )
                )
        except TelegramForbiddenError as error:
            logger.info("edit in chat=%s refused: %s", chat_id, error.message)
            self._closed.add(chat_id)
            self._refused(chat_id, op.key)
            return
        except TelegramAPIError as error:
            logger.warning("edit chat=%s message=%s failed: %s", chat_id, known.message_id, error)
            self._topic_gone(chat_id, op, error)  # deleted with its topic, and not re-sent
            return
        finally:
            EDIT_THREAD.reset(topic)
            await self.rates.edited(chat_id, op.key)
        self._closed.discard(chat_id)
        now = result.message_id if isinstance(result, Message) else known.message_id
        await self._remember(chat_id, op.key, now, op.rendered)  # a re-sent message: its new id

    async def _strip(self, chat_id: int, chat: _Chat, known: StoredMessage) -> None:
        try:
            async with self._counted(chat_id):
                await self.bot.edit_message_reply_markup(
                    chat_id=chat_id, message_id=known.message_id, reply_markup=None
                )
        except TelegramAPIError as error:
            logger.debug("could not strip %s/%s: %s", chat_id, known.message_id, error)
            return
        # What it shows now is its old text without buttons: no digest of ours matches that.
        stripped = StoredMessage(chat_id, known.key, known.message_id, "", keyboard=False)
        if known.key and self._known.get((chat_id, known.key)) == known:
            self._known[(chat_id, known.key)] = stripped
            await self.store.put_message(stripped)

    async def _remember(self, chat_id: int, key: str, message_id: int, shown: Rendered) -> None:
        message = StoredMessage(chat_id, key, message_id, shown.digest(), shown.markup is not None)
        old = self._known.get((chat_id, key))
        if old is not None and old.message_id != message_id:
            self._keys.pop((chat_id, old.message_id), None)
        self._known[(chat_id, key)] = message
        self._keys[(chat_id, message_id)] = key
        guarded = self._guarding.get(chat_id)
        if self.book is not None and guarded is not None:  # every worker knows it at once
            await self.book.put(chat_id, key, message, guarded[1], guarded[2], guarded[0])
        await self.store.put_message(message)

    def _forget(self, chat_id: int, key: str) -> None:
        old = self._known.pop((chat_id, key), None)
        if old is not None:
            self._keys.pop((chat_id, old.message_id), None)

    def _topic_gone(self, chat_id: int, op: _Op, error: TelegramAPIError) -> None:
        if op.thread is not None and _TOPIC_GONE.search(error.message):
            self._refused(chat_id, op.key, "topic")

    def _refused(self, chat_id: int, key: str | None, why: Refusal = "forbidden") -> None:
        if key is not None and self.on_refused is not None:
            self.on_refused(chat_id, key, why)
