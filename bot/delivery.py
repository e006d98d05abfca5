"""Outcome → screens → outbox: an outcome's deadlines to the scheduler and its screens to the
presenter (:mod:`bot.presenter`), which renders each in its audience's language and hands it
to the outbox; commands' answers in a group through :mod:`bot.answers`. Nothing here reads
storage or calls the runtime."""

from __future__ import annotations

import asyncio

from bot.answers import Answers
from bot.book import OutboxBook
from bot.keys import OutboxKey
from bot.presenter import Presenter
from bot.rendered import Rendered
from bot.runtime.outcome import Outcome
from bot.scheduling import Scheduler

__all__ = ["Delivery", "Presenter"]


class Delivery:
    """Where every outcome goes: its deadlines to the scheduler, its screens to the outbox."""

    def __init__(
        self, presenter: Presenter, scheduler: Scheduler, answers: Answers, book: OutboxBook
    ) -> None:
        self.presenter = presenter
        self.book = book
        self.scheduler = scheduler
        self.answers = answers  # a command's answer in a group
        self._later: list[Outcome] = []  # deferred outcomes, in the order they were committed

    def __call__(self, outcome: Outcome) -> list[asyncio.Future[int | None]]:
        self.flush()  # a deferred outcome is older: its screens go first
        return self._deliver(outcome)

    def _deliver(self, outcome: Outcome) -> list[asyncio.Future[int | None]]:
        for table_id, kind in outcome.undue:
            self.scheduler.discard(table_id, kind)
        for deadline in outcome.due:
            self.scheduler.add(deadline)
        return self.presenter.present(outcome)

    def post(
        self,
        chat_id: int,
        rendered: Rendered,
        *,
        reply_to: int | None = None,
        thread: int | None = None,
    ) -> None:
        """Post a one-off message (a command's answer in a private chat) in order with the
        chat's other messages: a chat's limit counts every message."""
        self.presenter.outbox.post(chat_id, rendered, reply_to=reply_to, thread=thread)

    def defer(self, outcome: Outcome) -> None:
        """Keep ``outcome`` (in commit order) until :meth:`flush`: a press's callback answer goes
        out before its screens are rendered, the presser's spinner stopping sooner."""
        self._later.append(outcome)

    def flush(self) -> None:
        """Present every deferred outcome, oldest first."""
        later, self._later = self._later, []
        for outcome in later:
            self._deliver(outcome)

    # what the outbox knows of the bot's messages (the runtime asks the same book)

    async def message_key(
        self, chat_id: int, message_id: int, *, ephemeral: bool = False
    ) -> OutboxKey | None:
        return await self.book.key_of(chat_id, message_id, ephemeral=ephemeral)

    async def message_id(self, chat_id: int, key: OutboxKey) -> int | None:
        return await self.book.message_id(chat_id, key)

    def link(self, payload: str) -> str:
        return self.presenter.link(payload)
