"""A :class:`~bot.runtime.message_book.MessageBook` for tests that drive a runtime without an
outbox: a message id names the key it was given by :meth:`KeyBook.at`; every message offers
every button; nothing was posted."""

from __future__ import annotations

from bot.callbacks import Press
from bot.keys import OutboxKey
from bot.runtime.message_book import Pressed


class KeyBook:
    def __init__(self) -> None:
        self._keys: list[OutboxKey] = []

    def at(self, chat_id: int, key: OutboxKey) -> Pressed:
        """The message of ``chat_id`` the book knows as ``key``."""
        if key not in self._keys:
            self._keys.append(key)
        return Pressed(chat_id, self._keys.index(key) + 1)

    async def key_of(
        self, chat_id: int, message_id: int, *, ephemeral: bool = False
    ) -> OutboxKey | None:
        return self._keys[message_id - 1] if 0 < message_id <= len(self._keys) else None

    async def offers(self, chat_id: int, key: OutboxKey, press: Press) -> bool:
        return True

    async def posted(self, chat_id: int, key: OutboxKey) -> bool:
        return False
