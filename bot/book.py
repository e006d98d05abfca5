"""The runtime's :class:`~bot.runtime.message_book.MessageBook`, answered from the outbox: which
keyed message Telegram's message id is, what it offers, whether it was posted. One process:
the outbox's memory; several workers: the book they share (``bot/sending/redis_book.py``)."""

from __future__ import annotations

import asyncio

from bot.callbacks import Press, PressCodec
from bot.keys import OutboxKey
from bot.sending.outbox import Outbox

LOOKUPS = 4
LOOKUP_PAUSE_S = 0.05


class OutboxBook:
    """What the outbox knows of the bot's messages, asked by the runtime (and the routers
    that present a keyed message)."""

    def __init__(self, outbox: Outbox, codec: PressCodec) -> None:
        self.outbox = outbox
        self.codec = codec

    async def key_of(
        self, chat_id: int, message_id: int, *, ephemeral: bool = False
    ) -> OutboxKey | None:
        """Which keyed message of the chat this id is now (None: none, or an old one);
        ``ephemeral``: the id is an ephemeral message's (a namespace apart)."""
        box = self.outbox
        if box.book is None:
            return box.key_of(chat_id, message_id, ephemeral=ephemeral)
        for _ in range(LOOKUPS):  # a message another worker sent a moment ago: in the book soon
            key = await box.book.key_of(chat_id, message_id, ephemeral=ephemeral)
            if key is not None:
                return key
            await asyncio.sleep(LOOKUP_PAUSE_S)
        return None

    async def offers(self, chat_id: int, key: OutboxKey, press: Press) -> bool:
        """Whether message ``key`` offers this button: its latest queued text's buttons
        (several workers: whichever worker queued it)."""
        box = self.outbox
        if box.book is None or box.telling(chat_id, key):
            offered = box.offers(chat_id, key)
        else:
            offered = await box.book.offers(chat_id, key)
        return offered is not None and self.codec.pack(press) in offered

    async def posted(self, chat_id: int, key: OutboxKey) -> bool:
        """Whether message ``key`` of the chat was sent (any worker's), or waits in this
        worker's queue to be."""
        return self.outbox.queued(chat_id, key) or await self.message_id(chat_id, key) is not None

    async def message_id(self, chat_id: int, key: OutboxKey) -> int | None:
        box = self.outbox
        if box.book is None:
            return box.message_id(chat_id, key)
        known = await box.book.message(chat_id, key)
        return known.telegram_id if known else None
