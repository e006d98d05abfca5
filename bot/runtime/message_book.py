"""What the runtime asks of the messages the bot sent: the pressed message as Telegram gave it
(:class:`Pressed`), and the port that says which keyed message it is and what it offers
(:class:`MessageBook`: the outbox's memory, or the workers' shared book, ``bot/book.py``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bot.callbacks import Press
from bot.keys import OutboxKey


@dataclass(frozen=True, slots=True)
class Pressed:
    """The message a button was pressed on, as Telegram gave it: its chat, its id (an
    ephemeral message's own id, a namespace apart)."""

    chat_id: int
    message_id: int
    ephemeral: bool = False


class MessageBook(Protocol):
    """What the runtime asks of the messages the bot sent (implemented by the delivery side:
    one process, the outbox's memory; several workers, their shared book)."""

    async def key_of(
        self, chat_id: int, message_id: int, *, ephemeral: bool = False
    ) -> OutboxKey | None:
        """Which keyed message of the chat this is now (None: none, or an old one)."""
        ...

    async def offers(self, chat_id: int, key: OutboxKey, press: Press) -> bool:
        """Whether message ``key`` offers this button now (its latest text's buttons)."""
        ...

    async def posted(self, chat_id: int, key: OutboxKey) -> bool:
        """Whether message ``key`` was sent, or waits to be."""
        ...
