"""Outcome → screens → outbox: an outcome's deadlines to the scheduler and its screens to the
presenter (:mod:`bot.presenter`), which renders each in its audience's language and hands it
to the outbox; commands' answers in a group through :mod:`bot.answers`. Nothing here reads
storage or calls the runtime."""

from __future__ import annotations

import asyncio

from bot.answers import Answers
from bot.presenter import Presenter
from bot.rendered import Rendered
from bot.runtime.outcome import Outcome
from bot.runtime.scheduler import Scheduler

__all__ = ["Delivery", "Presenter"]


LOOKUPS = 4
LOOKUP_PAUSE_S = 0.05


class Delivery:
    """Where every outcome goes: its deadlines to the scheduler, its screens to the outbox."""

    def __init__(self, presenter: Presenter, scheduler: Scheduler, answers: Answers) -> None:
        self.presenter = presenter
        self.scheduler = scheduler
        self.answers = answers  # a command's answer in a group (#47)
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

    # Several workers: what every worker knows (the outbox's shared book); else this one's.

    async def message_key(
        self, chat_id: int, message_id: int, *, ephemeral: bool = False
    ) -> str | None:
        """Which keyed message of the chat this id is now (None: none, or an old one);
        ``ephemeral``: the id is an ephemeral message's (a namespace apart, #32)."""
        box = self.presenter.outbox
        if box.book is None:
            return box.key_of(chat_id, message_id, ephemeral=ephemeral)
        for _ in range(LOOKUPS):  # a message another worker sent a moment ago: in the book soon
            key = await box.book.key_of(chat_id, message_id, ephemeral=ephemeral)
            if key is not None:
                return key
            await asyncio.sleep(LOOKUP_PAUSE_S)
        return None

    async def posted(self, chat_id: int, key: str) -> bool:
        """Whether message ``key`` of the chat was sent (any worker's), or waits in this
        worker's queue to be."""
        box = self.presenter.outbox
        return box.queued(chat_id, key) or await self.message_id(chat_id, key) is not None

    async def message_id(self, chat_id: int, key: str) -> int | None:
        box = self.presenter.outbox
        if box.book is None:
            return box.message_id(chat_id, key)
        known = await box.book.message(chat_id, key)
        return known.telegram_id if known else None

    async def offers(self, chat_id: int, key: str) -> frozenset[str] | None:
        """What message ``key`` offers: its latest queued text's buttons (several workers:
        whichever worker queued it)."""
        box = self.presenter.outbox
        if box.book is None or box.telling(chat_id, key):
            return box.offers(chat_id, key)
        return await box.book.offers(chat_id, key)

    def link(self, payload: str) -> str:
        return self.presenter.link(payload)
