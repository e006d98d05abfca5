"""Stopping background tasks without losing a cancel (Python 3.11).

``with contextlib.suppress(asyncio.CancelledError): await task`` swallows the waiting task's own
cancellation too, when it comes while it waits (a stop whose time ran out, say): the caller
then goes on as if nothing happened. These swallow only the awaited task's.
:class:`Background` keeps the tasks that handlers hand off.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

logger = logging.getLogger(__name__)


async def ended(task: asyncio.Task[object] | asyncio.Task[None]) -> None:
    """Wait until ``task`` has ended; its own cancellation is no error here, the caller's is."""
    try:
        await task
    except asyncio.CancelledError:
        current = asyncio.current_task()
        if current is not None and current.cancelling():
            raise


async def cancelled(task: asyncio.Task[object] | asyncio.Task[None] | None) -> None:
    """Cancel a background task and wait until it has stopped (see :func:`ended`)."""
    if task is not None:
        task.cancel()
        await ended(task)


class Background:
    """Work a handler hands off so that its update is answered now (Start's second half waits
    up to half a minute for the players' notes: in webhook mode it would hold Telegram's
    request, one of its 40 connections, all that time). A task is kept until it ends (the
    event loop holds only weak references) and cancelled when the bot stops."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[None]] = set()

    def pending(self) -> int:
        """The tasks still running (a test waits for none before it calls the bot quiet)."""
        return len(self._tasks)

    def spawn(self, work: Coroutine[Any, Any, None], *, name: str | None = None) -> None:
        task = asyncio.create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._ended)

    def _ended(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            logger.error("background task %s failed", task.get_name(), exc_info=task.exception())

    def cancel(self) -> None:
        """At a stop: whatever is still running is cancelled (what it would have done has a
        stored deadline of its own)."""
        for task in list(self._tasks):
            task.cancel()
