"""One failed step of the outbox is tried again, never given up.

With several workers the outbox's bookkeeping lives in Redis (:mod:`bot.sending.redis_book`): a
rate window's turn, a message's lock and book entry. A Redis blip (a restart, a failover, a
dropped connection) makes such a call raise; the step is then tried again with back-off (0.05 s
doubling to 2 s) until it works, so a chat's queue waits out the outage and loses nothing. The
outage is logged once when its first step fails and once when a step works again — not on
every attempt, and not once per chat: one :class:`Patience` serves the whole outbox.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from bot.clock import Clock
from bot.sending.outage import Downtime

logger = logging.getLogger(__name__)
T = TypeVar("T")
Sleep = Callable[[float], Awaitable[None]]
FIRST_S = 0.05
MOST_S = 2.0


class Patience:
    """Runs a step again after a failure, with back-off; the outage is logged once."""

    def __init__(
        self,
        *,
        sleep: Sleep = asyncio.sleep,
        clock: Clock = time.monotonic,
        first: float = FIRST_S,
        most: float = MOST_S,
    ) -> None:
        self.sleep = sleep
        self.first = first
        self.most = most
        self.downtime = Downtime(clock)  # the current outage, if any (one log line each way)

    async def __call__(self, what: str, step: Callable[[], Awaitable[T]]) -> T:
        """``step()``'s result, once it works (``what`` names it in the log)."""
        try:
            result = await step()
        except Exception as error:
            return await self._again(what, step, error)
        self.recovered()
        return result

    async def _again(self, what: str, step: Callable[[], Awaitable[T]], error: Exception) -> T:
        pause = self.first
        while True:
            self.failed(what, error)
            await self.sleep(pause)
            pause = min(pause * 2, self.most)
            try:
                result = await step()
            except Exception as again:
                error = again
                continue
            self.recovered()
            return result

    def failed(self, what: str, error: BaseException) -> None:
        """A step failed: the first failure of an outage is logged (with its traceback)."""
        if self.downtime.fail():
            logger.error(
                "outbox: %s failed (%s: %s); retrying with back-off until it works",
                what,
                type(error).__name__,
                error,
                exc_info=error,
            )

    @property
    def outages(self) -> int:
        """How many outages began (figures for tests)."""
        return self.downtime.outages

    def recovered(self) -> None:
        if (ended := self.downtime.end()) is not None:
            logger.warning("outbox: working again after %.1f s", ended[0])

    async def pause(self, attempt: int) -> None:
        """The back-off before attempt ``attempt`` (1, 2, …) of a step that failed."""
        await self.sleep(min(self.first * 2 ** (attempt - 1), self.most))
