"""Stopping background tasks without losing a cancel (Python 3.11).

``with contextlib.suppress(asyncio.CancelledError): await task`` swallows the waiting task's own
cancellation too, when it comes while it waits (a stop whose time ran out, say): the caller
then goes on as if nothing happened. These swallow only the awaited task's.
"""

from __future__ import annotations

import asyncio


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
