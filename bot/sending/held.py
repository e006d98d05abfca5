"""Owed messages a chat can't be sent for now: a deal's or a match's result, a
notice, whose send failed past the Bot API's patience (six 429s in a row, an outage of minutes).

Such an entry is *held* in the store (:meth:`bot.storage.protocol.MessageStore.hold_owed`) and
the runtime told how long to wait (:attr:`Holding.on_held`): it stores a deadline, and draws the
chat's held entries again when it falls due, in the order they were owed — on whichever worker
leads the scheduler, each entry claimed by one sender. Meanwhile the chat's later entries are
held behind it (their claim finds it held), and its other messages (the table) go on. The wait
grows with the entry's tries up to :attr:`~bot.sending.rates.OutboxLimits.owed_most`. The
outage is logged once for a chat, when its first entry is held, and once when one gets through.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable

from bot.clock import Clock
from bot.sending.outage import Downtime
from bot.sending.rates import OutboxLimits
from bot.storage.protocol import MessageStore
from bot.storage.rows import OwedRef

logger = logging.getLogger("bot.sending.outbox")  # one log for the outbox, whichever part

OnHeld = Callable[[int, OwedRef, float], None]
"""Told (chat, entry, seconds) when an owed entry is held: it is to be tried again then."""


class Holding:
    """The chats whose owed messages are held now, and what holding one does."""

    def __init__(
        self,
        store: MessageStore,
        limits: OutboxLimits,
        *,
        clock: Clock = time.monotonic,
        on_held: OnHeld | None = None,
    ) -> None:
        self.store = store
        self.limits = limits
        self.clock = clock
        self.on_held = on_held  # None: a held entry waits for the next start
        self._chats: dict[int, Downtime] = {}  # only chats with an entry held now

    async def hold(self, chat_id: int, owed: OwedRef, why: object) -> None:
        """The entry this sender claimed (``owed`` as it was read before the claim) could not
        be sent: held, and tried again after a back-off that grows with its tries."""
        claimed = dataclasses.replace(owed, tries=owed.tries + 1)
        if not await self.store.hold_owed(claimed):
            return  # another sender has it now
        downtime = self._chats.setdefault(chat_id, Downtime(self.clock))
        if downtime.fail():
            logger.warning(
                "outbox: chat=%s: %s can't be sent now (%s): it stays owed and is tried again"
                " with back-off (at most %.0f s apart); what the chat is owed after it waits",
                chat_id,
                claimed.ref,
                why,
                self.limits.owed_most,
            )
        if self.on_held is not None:
            self.on_held(chat_id, claimed, self.limits.owed_again(claimed.tries))

    def sent(self, chat_id: int) -> None:
        """An owed message of the chat got through: if its entries were held, it is back."""
        downtime = self._chats.pop(chat_id, None)
        ended = downtime.end() if downtime is not None else None
        if ended is not None:
            took, tries = ended
            logger.warning(
                "outbox: chat=%s: what it is owed goes out again after %.0f s (%d tries failed)",
                chat_id,
                took,
                tries,
            )

    def forget(self, chat_id: int) -> None:
        self._chats.pop(chat_id, None)

    def tracked(self) -> int:
        return len(self._chats)
