"""The outbox's Bot API calls, one step of a chat at a time, and what each leaves remembered:
a keyed message's id and digest (in memory, in the store, in the shared book), the chats that
refused the bot. :class:`bot.sending.outbox.Outbox` queues the steps and runs them (its module
says how, and why a send is settled first)."""

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
from bot.sending.lean import EditText, SendText
from bot.sending.patience import Patience
from bot.sending.rates import LocalRates, OutboxLimits, Rates
from bot.sending.session import EDIT_THREAD
from bot.storage.protocol import MessageStore
from bot.storage.rows import StoredMessage

if TYPE_CHECKING:  # Redis is an optional extra (several workers)
    from bot.sending.shared import Entry, RedisBook

logger = logging.getLogger("bot.sending.outbox")  # one log for the outbox, whichever part

Refusal = Literal["forbidden", "topic"]  # why a keyed message can't go: a 403, a gone topic
_TOPIC_GONE = re.compile(r"thread not found|TOPIC_(CLOSED|DELETED)", re.IGNORECASE)

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]
CLOSED_KEPT = 4096  # chats remembered as closed (403), the oldest forgotten first


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
class Op:
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
class ChatQueue:
    queue: deque[Op] = field(default_factory=deque)
    worker: asyncio.Task[None] | None = None


class Calls:
    """What the outbox remembers of the messages it keeps up to date, and the Bot API calls
    that change it: the :class:`~bot.sending.outbox.Outbox` queues the steps, this makes them."""

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
        self.patience = Patience(sleep=sleep)  # a failed Redis call is tried again
        self.guarding: dict[int, tuple[Entry, int | None, frozenset[str] | None]] = {}
        self.known: dict[tuple[int, str], StoredMessage] = {}
        self.keys: dict[tuple[int, int], str] = {}  # (chat, message id) → key
        self.wanted: dict[tuple[int, str], frozenset[str]] = {}  # key → callback data it offers
        # told (chat, key, why) when a keyed message can't go: a 403, or its forum topic gone
        self.on_refused = on_refused
        self.closed: dict[int, None] = {}  # in the order they closed (at most CLOSED_KEPT)
        self.calls = 0  # Bot API calls made (figures for tests and benchmarks)

    @staticmethod
    def settle(op: Op, sent: int | None) -> None:
        """Tell whoever waits for a post what became of it (its id; None: not sent)."""
        if op.done is not None and not op.done.done():
            op.done.set_result(sent)

    @contextlib.asynccontextmanager
    async def _counted(self, chat_id: int) -> AsyncIterator[None]:
        """Count one API call at the moment its answer came (later than Telegram saw it)."""
        try:
            yield
        finally:
            self.calls += 1
            await self.patience("counting a call", lambda: self.rates.spent(chat_id))

    async def deliver(self, chat_id: int, chat: ChatQueue, op: Op) -> None:
        known = self.known.get((chat_id, op.key)) if op.key else None
        if op.kind == "drop":
            assert op.key is not None
            self._let_go(chat_id, chat, op.key)
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
                self._let_go(chat_id, chat, op.key)
                await self.store.drop_message(chat_id, op.key)
            return
        assert op.rendered is not None
        if op.kind == "show" and known is not None and not op.fresh:
            await self._edit(chat_id, chat, op, known)
            return
        if op.key is not None:  # marked before the request goes out (the module: exactly once)
            await self.store.intend_message(chat_id, op.key)
        sent = await self._send(chat_id, chat, op)  # a keyed message: remembered first thing
        self.settle(op, sent)
        if sent is None and op.key is not None:  # refused or failed: nothing is being sent
            if known is not None:
                await self.store.put_message(known)
            else:
                await self.store.drop_message(chat_id, op.key)
        if sent is None or op.key is None:
            return
        if known is not None and known.message_id != sent:
            if op.old is Old.STRIP and known.keyboard:
                # a second call of this step: its own turn
                await self.patience("a rate turn", lambda: self.rates.turn(chat_id, None))
                await self._strip(chat_id, chat, known)
            elif op.old is Old.DELETE:
                async with self._counted(chat_id):
                    with contextlib.suppress(TelegramBadRequest, TelegramForbiddenError):
                        await self.bot.delete_message(chat_id, known.message_id)

    async def _send(self, chat_id: int, chat: ChatQueue, op: Op) -> int | None:
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
                if op.key is not None:  # its id stored before anything else is awaited
                    await self._remember(chat_id, op.key, message.message_id, op.rendered)
        except TelegramForbiddenError as error:
            logger.info("send to chat=%s refused: %s", chat_id, error.message)
            self._close(chat_id)
            self._refused(chat_id, op.key)
            return None
        except TelegramAPIError as error:
            logger.warning("send to chat=%s failed: %s", chat_id, error.message)
            self._topic_gone(chat_id, op, error)
            return None
        self.closed.pop(chat_id, None)
        return message.message_id

    async def _edit(self, chat_id: int, chat: ChatQueue, op: Op, known: StoredMessage) -> None:
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
            self._close(chat_id)
            self._refused(chat_id, op.key)
            return
        except TelegramAPIError as error:
            logger.warning("edit chat=%s message=%s failed: %s", chat_id, known.message_id, error)
            self._topic_gone(chat_id, op, error)  # deleted with its topic, and not re-sent
            return
        finally:
            EDIT_THREAD.reset(topic)
            key = op.key
            await self.patience("an edit gap", lambda: self.rates.edited(chat_id, key))
        self.closed.pop(chat_id, None)
        now = result.message_id if isinstance(result, Message) else known.message_id
        await self._remember(chat_id, op.key, now, op.rendered)  # a re-sent message: its new id

    async def _strip(self, chat_id: int, chat: ChatQueue, known: StoredMessage) -> None:
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
        if known.key and self.known.get((chat_id, known.key)) == known:
            self.known[(chat_id, known.key)] = stripped
            await self.store.put_message(stripped)

    async def _remember(self, chat_id: int, key: str, message_id: int, shown: Rendered) -> None:
        message = StoredMessage(chat_id, key, message_id, shown.digest(), shown.markup is not None)
        old = self.known.get((chat_id, key))
        if old is not None and old.message_id != message_id:
            self.keys.pop((chat_id, old.message_id), None)
        self.known[(chat_id, key)] = message
        self.keys[(chat_id, message_id)] = key
        await self.store.put_message(message)  # first: a send is settled (exactly once)
        guarded, book = self.guarding.get(chat_id), self.book
        if book is not None and guarded is not None:  # every worker knows it at once
            entry, rev, wanted = guarded
            await self.patience(
                "the message book", lambda: book.put(chat_id, key, message, rev, wanted, entry)
            )

    def _close(self, chat_id: int) -> None:
        """The chat refused the bot (403): remembered, the oldest such chat forgotten first."""
        self.closed.pop(chat_id, None)
        self.closed[chat_id] = None
        if len(self.closed) > CLOSED_KEPT:
            del self.closed[next(iter(self.closed))]

    def _let_go(self, chat_id: int, chat: ChatQueue, key: str) -> None:
        """A key deleted or dropped: nothing of it is kept (unless a later step shows it)."""
        self.forget(chat_id, key)
        if all(op.key != key for op in chat.queue):
            self.wanted.pop((chat_id, key), None)

    def forget(self, chat_id: int, key: str) -> None:
        old = self.known.pop((chat_id, key), None)
        if old is not None:
            self.keys.pop((chat_id, old.message_id), None)

    def _topic_gone(self, chat_id: int, op: Op, error: TelegramAPIError) -> None:
        if op.thread is not None and _TOPIC_GONE.search(error.message):
            self._refused(chat_id, op.key, "topic")

    def _refused(self, chat_id: int, key: str | None, why: Refusal = "forbidden") -> None:
        if key is not None and self.on_refused is not None:
            self.on_refused(chat_id, key, why)
