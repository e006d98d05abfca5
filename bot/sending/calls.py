"""The outbox's Bot API calls, one step of a chat at a time, and what each leaves remembered:
a keyed message's id and digest (in memory, in the store, in the shared book), the chats that
refused the bot. :class:`bot.sending.outbox.Outbox` queues the steps and runs them (its module
says how, and why a send is settled first)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING

from aiogram import Bot
from aiogram.exceptions import (
    TelegramAPIError,
    TelegramBadRequest,
    TelegramForbiddenError,
)
from aiogram.methods import DeleteEphemeralMessage, EditEphemeralMessageReplyMarkup
from aiogram.types import BufferedInputFile, EphemeralMessageParameters, Message, ReplyParameters

from bot.clock import Clock
from bot.keys import OutboxKey
from bot.rendered import Rendered
from bot.runtime.commands import Undeliverable
from bot.sending.held import Holding, OnHeld
from bot.sending.json_session import EditEphemeralText, EditText
from bot.sending.patience import Patience
from bot.sending.rates import LocalRates, OutboxLimits, Rates
from bot.sending.requests import (
    STAYS_OWED,
    TOPIC_GONE,
    Postponed,
    Sleep,
    reply_of,
    send_text,
)
from bot.sending.session import is_cant_edit
from bot.sending.steps import (
    ChatQueue,
    Delete,
    DeleteMessage,
    Document,
    Drop,
    Held,
    Old,
    Photo,
    Post,
    Settle,
    Show,
    Step,
    StripButtons,
    StripMessageButtons,
)
from bot.storage.protocol import MessageStore
from bot.storage.rows import Claim, OwedRef, StoredMessage, stored_id

if TYPE_CHECKING:  # Redis is an optional extra (several workers)
    from bot.sending.redis_book import RedisBook

logger = logging.getLogger("bot.sending.outbox")  # one log for the outbox, whichever part

CLOSED_KEPT = 4096  # chats remembered as closed (403), the oldest forgotten first


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
        on_refused: Callable[[int, OutboxKey, Undeliverable], None] | None = None,
        on_held: OnHeld | None = None,
        rates: Rates | None = None,
        book: RedisBook | None = None,
    ) -> None:
        self.bot = bot
        self.store = store
        self.limits = limits or OutboxLimits()
        self.rates: Rates = rates or LocalRates(self.limits, clock=clock, sleep=sleep)
        self.book = book  # several workers: what each keyed message shows, shared
        self.patience = Patience(sleep=sleep)  # a failed Redis call is tried again
        self.known: dict[tuple[int, OutboxKey], StoredMessage] = {}
        self.keys: dict[tuple[int, int], OutboxKey] = {}  # (chat, message id) → key
        # key → the callback data it offers
        self.wanted: dict[tuple[int, OutboxKey], frozenset[str]] = {}
        # told (chat, key, why) when a keyed message can't go: a 403, or its forum topic gone
        self.on_refused = on_refused
        self.holding = Holding(store, self.limits, clock=clock, on_held=on_held)
        self.closed: dict[int, None] = {}  # in the order they closed (at most CLOSED_KEPT)
        self.calls = 0  # Bot API calls made (figures for tests and benchmarks)
        self.ephemeral_calls = 0  # of them, about messages for one member of a group

    @staticmethod
    def settle(step: Step, sent: int | None) -> None:
        """Tell whoever waits for a post what became of it (its id; None: not sent)."""
        if isinstance(step, Post) and not step.done.done():
            step.done.set_result(sent)

    async def settle_owed(self, step: Step) -> None:
        """The step's owed entry needs nothing more: shown already, or it never can be."""
        owed = step.owed if isinstance(step, Show | Post | Settle) else None
        if owed is not None:
            await self.store.settle_owed(owed)

    async def unsent(self, step: Step) -> None:
        """A step that goes unsent for good (shown by another worker, or failing): whoever
        waits for it hears None, and its owed entry is settled — were that to fail, it is only
        shown again after a restart."""
        self.settle(step, None)
        try:
            await self.settle_owed(step)
        except Exception as error:  # logged; the entry stays owed
            logger.warning("outbox: a %s stays owed: %s", step.label, error)

    @contextlib.asynccontextmanager
    async def _counted(
        self, chat_id: int, chat: ChatQueue | None = None, *, new: bool = False
    ) -> AsyncIterator[None]:
        """Count one API call at the moment its answer came (later than Telegram saw it);
        ``chat``: the queue it was made for (None: the chat's own); ``new``: a new message (all
        chats' window counts those alone)."""
        receiver = chat.receiver if chat is not None else None
        answer = chat is not None and chat.answers
        try:
            yield
        finally:
            self.calls += 1
            if receiver is not None:
                self.ephemeral_calls += 1
            await self.patience(
                "counting a call",
                lambda: self.rates.spent(chat_id, receiver, new=new, answer=answer),
            )

    async def deliver(
        self, chat_id: int, chat: ChatQueue, step: Step, held: Held | None = None
    ) -> None:
        """Make one step (``held``: under its message's shared lock)."""
        match step:
            case Drop(key=key):
                self._let_go(chat_id, chat, key)
                await self.store.drop_message(chat_id, key)
            case Settle():
                await self.settle_owed(step)
            case Document() | Photo():
                await self._file(chat_id, step, held)
            case StripButtons(key=key):
                known = self.known.get((chat_id, key))
                assert known is not None  # a strip of a message never sent is needless
                await self._strip(chat_id, chat, known)
            case StripMessageButtons(message_id=message_id):
                await self._unbutton(chat_id, chat, message_id)
            case Delete(key=key):
                known = self.known.get((chat_id, key))
                assert known is not None  # a delete of a message never sent is needless
                await self._delete(chat_id, known.message_id, chat)
                self._let_go(chat_id, chat, key)
                await self.store.drop_message(chat_id, key)
            case DeleteMessage(message_id=message_id):
                await self._delete(chat_id, message_id, chat)
            case Show() | Post():
                known = self.known.get((chat_id, step.key)) if step.key is not None else None
                if isinstance(step, Show) and known is not None and not step.fresh:
                    await self._edit(chat_id, chat, step, known, held)
                else:
                    await self._send_anew(chat_id, chat, step, known, held)

    async def _file(self, chat_id: int, step: Document | Photo, held: Held | None) -> None:
        """A file (a game record) or a picture (its chart). A keyed picture is marked before
        its request goes out and settled with its id (exactly once, as a keyed message);
        refused or failed, its key is let go, so a later press sends it."""
        key = step.key
        if key is not None:
            await self.store.intend_message(chat_id, key)
        file = BufferedInputFile(step.data, filename=step.filename)
        send = self.bot.send_photo if isinstance(step, Photo) else self.bot.send_document
        sent = False
        try:
            async with self._counted(chat_id, new=True):
                message = await send(
                    chat_id,
                    file,
                    allow_paid_broadcast=True if self.limits.paid_broadcast else None,
                    message_thread_id=step.thread,
                    reply_to_message_id=step.reply_to,
                    allow_sending_without_reply=True if step.reply_to else None,
                )
                if key is not None:  # its id stored before anything else is awaited
                    shown = Rendered(step.filename)  # what a digest needs: it is never edited
                    await self._remember(chat_id, key, message.message_id, shown, held)
            sent = True
        except TelegramAPIError as error:
            logger.warning("%s to chat=%s failed: %s", step.label, chat_id, error.message)
        if key is not None and not sent:
            await self.store.drop_message(chat_id, key)

    async def _delete(self, chat_id: int, message_id: int, chat: ChatQueue | None = None) -> None:
        """Delete a message (``message_id`` as stored: an ephemeral one's needs its receiver,
        its queue's)."""
        receiver = chat.receiver if chat is not None else None
        if message_id < 0 and receiver is None:
            logger.warning("chat=%s: an ephemeral message without its receiver stays", chat_id)
            return
        async with self._counted(chat_id, chat):
            with contextlib.suppress(TelegramBadRequest, TelegramForbiddenError):
                if receiver is not None and message_id < 0:
                    await self.bot(
                        DeleteEphemeralMessage(
                            chat_id=chat_id,
                            receiver_user_id=receiver,
                            ephemeral_message_id=-message_id,
                        )
                    )
                else:
                    await self.bot.delete_message(chat_id, message_id)

    async def _send_anew(
        self,
        chat_id: int,
        chat: ChatQueue,
        step: Show | Post,
        known: StoredMessage | None,
        held: Held | None,
    ) -> None:
        """A new message; a keyed one takes the key, and what its key named before goes as
        ``old`` says."""
        # marked before the request goes out (the module: exactly once); an owed entry claimed
        # with it — not claimed: another sender has it, or had it; or an earlier entry of the
        # chat is held, and this one waits behind it (the chat sees them in order)
        if step.key is not None:
            claim = await self.store.intend_message(chat_id, step.key, step.owed)
        elif step.owed is not None:
            claim = await self.store.claim_owed(step.owed)
        else:
            claim = Claim.MINE
        if claim is not Claim.MINE:
            self.settle(step, None)
            return
        postponed: Postponed | None = None
        try:
            sent = await self._send(chat_id, chat, step, held)  # a keyed one: remembered first
        except Postponed as error:  # the Bot API out of reach past the session's patience
            sent, postponed = None, error
        self.settle(step, sent)
        if postponed is not None and step.owed is not None:  # sent again while the bot runs
            await self.holding.hold(chat_id, step.owed, postponed)
        elif sent is None or step.key is None:
            await self.settle_owed(step)  # a one-off post's once sent; refused: it never can be
        if sent is not None and step.owed is not None:
            self.holding.sent(chat_id)
        if sent is None and step.key is not None:  # refused or failed: nothing is being sent
            if known is not None:
                await self.store.put_message(known)
            else:
                await self.store.drop_message(chat_id, step.key)
        if sent is None or step.key is None or not isinstance(step, Show):
            return
        if known is not None and known.message_id != sent:
            if step.old is Old.STRIP and known.keyboard:
                # a second call of this step: its own turn
                lane, answer = chat.receiver, chat.answers
                await self.patience(
                    "a rate turn",
                    lambda: self.rates.turn(chat_id, None, lane, new=False, answer=answer),
                )
                await self._strip(chat_id, chat, known)
            elif step.old is Old.DELETE:
                await self._delete(chat_id, known.message_id, chat)

    async def _send(
        self, chat_id: int, chat: ChatQueue, step: Show | Post, held: Held | None
    ) -> int | None:
        """Send the step's message; its id as stored (None: refused or failed)."""
        if chat.receiver is not None:
            return await self._send_ephemeral(chat_id, chat, step, held)
        try:
            async with self._counted(chat_id, chat, new=True):
                message = await self.bot(
                    send_text(
                        chat_id,
                        step,
                        self.limits.paid_broadcast,
                        reply_to_message_id=step.reply_to,
                        allow_sending_without_reply=True if step.reply_to else None,
                    )
                )
                if step.key is not None:  # its id stored before anything else is awaited
                    await self._remember(
                        chat_id, step.key, message.message_id, step.rendered, held, step.owed
                    )
        except TelegramForbiddenError as error:
            logger.info("send to chat=%s refused: %s", chat_id, error.message)
            self._close(chat_id)
            self._refused(chat_id, step.key)
            return None
        except STAYS_OWED as error:
            if step.owed is not None:  # still owed: held, and sent again
                raise Postponed(error.message) from error
            logger.warning("send to chat=%s failed: %s", chat_id, error.message)
            return None
        except TelegramAPIError as error:
            logger.warning("send to chat=%s failed: %s", chat_id, error.message)
            self._topic_gone(chat_id, step, error)
            return None
        self.closed.pop(chat_id, None)
        return message.message_id

    async def _send_ephemeral(
        self, chat_id: int, chat: ChatQueue, step: Show | Post, held: Held | None
    ) -> int | None:
        """A message in group ``chat_id`` for the queue's receiver alone. In answer to
        his press when the step names one (a bot that is no administrator may send only so; it
        shows in place of the pressed message when ``replace``), or to his command (a reply
        to it; one he sent ephemerally gives a bot that is no administrator that right too); a
        press or command Telegram no longer knows (too old) is let go and the message sent
        without it, as an administrator may. Refused: the key's owner is told
        (``"ephemeral"``), his messages then go to his private chat."""
        receiver = chat.receiver
        assert receiver is not None
        answering = step.answering if isinstance(step, Show) else None
        replace = isinstance(step, Show) and step.replace and answering is not None
        reply = reply_of(step)
        tries: list[tuple[str | None, bool, ReplyParameters | None]] = [(None, False, None)]
        if answering is not None or reply is not None:
            tries.insert(0, (answering, replace, reply))
        for at, (query, in_place, replied) in enumerate(tries):
            try:
                async with self._counted(chat_id, chat, new=True):
                    message = await self.bot(
                        send_text(
                            chat_id,
                            step,
                            self.limits.paid_broadcast,
                            ephemeral_message_parameters=EphemeralMessageParameters(
                                receiver_user_id=receiver,
                                callback_query_id=query,
                                replace_callback_query_message=True if in_place else None,
                            ),
                            reply_parameters=replied,
                        )
                    )
                    sent = stored_id(message.ephemeral_message_id or 0, ephemeral=True)
                    if step.key is not None:  # its id stored before anything else is awaited
                        await self._remember(chat_id, step.key, sent, step.rendered, held)
            except TelegramBadRequest as error:
                if at + 1 < len(tries):
                    logger.info(
                        "ephemeral send to chat=%s for %s: %s; again without what it answers",
                        chat_id,
                        receiver,
                        error.message,
                    )
                    continue
                logger.info(
                    "ephemeral send to chat=%s for %s refused: %s", chat_id, receiver, error.message
                )
                self._refused(chat_id, step.key, Undeliverable.EPHEMERAL)
                return None
            except TelegramForbiddenError as error:  # the group itself refuses the bot
                logger.info("ephemeral send to chat=%s refused: %s", chat_id, error.message)
                self._close(chat_id)
                self._refused(chat_id, step.key, Undeliverable.EPHEMERAL)
                return None
            except TelegramAPIError as error:
                logger.warning("ephemeral send to chat=%s failed: %s", chat_id, error.message)
                return None
            return sent
        return None

    async def _edit(
        self, chat_id: int, chat: ChatQueue, step: Show, known: StoredMessage, held: Held | None
    ) -> None:
        receiver = chat.receiver
        method: EditText | EditEphemeralText
        if known.ephemeral and receiver is not None:
            method = EditEphemeralText(
                chat_id=chat_id,
                receiver_user_id=receiver,
                ephemeral_message_id=known.telegram_id,
                text=step.rendered.text,
                reply_markup=step.rendered.markup,
            )
        else:
            method = EditText(
                text=step.rendered.text,
                chat_id=chat_id,
                message_id=known.message_id,
                reply_markup=step.rendered.markup,
                topic=step.thread,  # a re-send (can't edit) goes to the same topic
            )
        try:
            async with self._counted(chat_id, chat):
                result: Message | bool
                if isinstance(method, EditText):
                    result = await self.bot(method)
                else:  # an ephemeral message's edit answers True (it is never re-sent)
                    result = await self.bot(method)
        except TelegramForbiddenError as error:
            logger.info("edit in chat=%s refused: %s", chat_id, error.message)
            self._close(chat_id)
            self._refused(chat_id, step.key)
            await self.settle_owed(step)
            return
        except TelegramAPIError as error:
            ephemeral = isinstance(method, EditEphemeralText)
            if ephemeral and isinstance(error, TelegramBadRequest) and is_cant_edit(error):
                # gone for him (deleted, or never shown): sent anew
                anew = dataclasses.replace(step, fresh=True, old=Old.KEEP)
                await self._send_anew(chat_id, chat, anew, known, held)
                return
            logger.warning("edit chat=%s message=%s failed: %s", chat_id, known.message_id, error)
            self._topic_gone(chat_id, step, error)  # deleted with its topic, and not re-sent
            await self.settle_owed(step)
            return
        finally:
            key = step.key
            await self.patience("an edit gap", lambda: self.rates.edited(chat_id, key))
        self.closed.pop(chat_id, None)
        now = result.message_id if isinstance(result, Message) else known.message_id
        # re-sent: its new id
        await self._remember(chat_id, step.key, now, step.rendered, held, step.owed)

    async def _strip(self, chat_id: int, chat: ChatQueue, known: StoredMessage) -> None:
        """A keyed message's buttons go; what it shows is remembered so."""
        if not await self._unbutton(chat_id, chat, known.message_id):
            return
        # What it shows now is its old text without buttons: no digest of ours matches that.
        stripped = StoredMessage(chat_id, known.key, known.message_id, "", keyboard=False)
        if self.known.get((chat_id, known.key)) == known:
            self.known[(chat_id, known.key)] = stripped
            await self.store.put_message(stripped)

    async def _unbutton(self, chat_id: int, chat: ChatQueue, stored: int) -> bool:
        """Remove the buttons of message ``stored`` (its id as stored: an ephemeral message's
        negated); whether that was done."""
        receiver = chat.receiver
        if stored < 0 and receiver is None:
            return False  # an ephemeral message's receiver is its lane's (Outbox.strip)
        try:
            async with self._counted(chat_id, chat):
                if stored < 0 and receiver is not None:
                    await self.bot(
                        EditEphemeralMessageReplyMarkup(
                            chat_id=chat_id,
                            receiver_user_id=receiver,
                            ephemeral_message_id=-stored,
                            reply_markup=None,
                        )
                    )
                else:
                    await self.bot.edit_message_reply_markup(
                        chat_id=chat_id, message_id=stored, reply_markup=None
                    )
        except TelegramAPIError as error:
            logger.debug("could not strip %s/%s: %s", chat_id, stored, error)
            return False
        return True

    async def _remember(
        self,
        chat_id: int,
        key: OutboxKey,
        message_id: int,
        shown: Rendered,
        held: Held | None,
        owed: OwedRef | None = None,
    ) -> None:
        message = StoredMessage(chat_id, key, message_id, shown.digest(), shown.markup is not None)
        old = self.known.get((chat_id, key))
        if old is not None and old.message_id != message_id:
            self.keys.pop((chat_id, old.message_id), None)
        self.known[(chat_id, key)] = message
        self.keys[(chat_id, message_id)] = key
        # first: a send is settled (exactly once), and the entry it showed with it
        await self.store.put_message(message, owed)
        book = self.book
        if book is not None and held is not None:  # every worker knows it at once
            await self.patience(
                "the message book",
                lambda: book.put(chat_id, key, message, held.rev, held.wanted, held.entry),
            )

    def _close(self, chat_id: int) -> None:
        """The chat refused the bot (403): remembered, the oldest such chat forgotten first."""
        self.closed.pop(chat_id, None)
        self.closed[chat_id] = None
        if len(self.closed) > CLOSED_KEPT:
            del self.closed[next(iter(self.closed))]

    def _let_go(self, chat_id: int, chat: ChatQueue, key: OutboxKey) -> None:
        """A key deleted or dropped: nothing of it is kept (unless a later step shows it)."""
        self.forget(chat_id, key)
        if all(step.key != key for step in chat.queue):
            self.wanted.pop((chat_id, key), None)

    def forget(self, chat_id: int, key: OutboxKey) -> None:
        old = self.known.pop((chat_id, key), None)
        if old is not None:
            self.keys.pop((chat_id, old.message_id), None)

    def _topic_gone(self, chat_id: int, step: Show | Post, error: TelegramAPIError) -> None:
        if step.thread is not None and TOPIC_GONE.search(error.message):
            self._refused(chat_id, step.key, Undeliverable.TOPIC)

    def _refused(
        self, chat_id: int, key: OutboxKey | None, why: Undeliverable = Undeliverable.FORBIDDEN
    ) -> None:
        if key is not None and self.on_refused is not None:
            self.on_refused(chat_id, key, why)
