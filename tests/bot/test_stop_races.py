"""A stop that comes in the same loop step as a wake-up still stops (the CI hang of the Redis
sample, stopping cleanly): Python 3.11's ``asyncio.wait_for`` returns when the awaited event is
set in the step a cancel comes, and the cancel is lost — the scheduler then waited on for ever,
and ``running_bot`` with it. Waits are ``asyncio.timeout`` now, and stopping a task swallows
only that task's own cancellation (``bot/tasks.py``)."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.runtime.commands import Command
from bot.scheduling import Scheduler
from bot.storage.rows import Deadline, DeadlineKind
from bot.tasks import cancelled, ended

LATER = 3600.0


def far(table_id: int) -> Deadline:
    return Deadline(table_id, DeadlineKind.IDLE, time.time() + LATER, 0)


async def fire(due: Command) -> None:
    raise AssertionError(f"nothing falls due here: {due}")


async def test_a_stop_in_the_step_a_deadline_is_added_stops_the_scheduler() -> None:
    scheduler = Scheduler()
    scheduler.start([far(1)], fire)
    await asyncio.sleep(0.05)  # it waits for the first deadline (a timed wait)
    task = scheduler._task
    assert task is not None and not task.done()
    scheduler.add(far(2))  # wakes it: the event is set ...
    started = time.monotonic()
    async with asyncio.timeout(5):
        await scheduler.stop()  # ... and the cancel comes in the same step
    assert task.done() and task.cancelled()
    assert time.monotonic() - started < 1.0  # at once, not when a time ran out


async def test_a_stop_in_the_step_the_scheduler_wakes_with_nothing_timed() -> None:
    scheduler = Scheduler()
    scheduler.start([], fire)
    await asyncio.sleep(0.05)
    task = scheduler._task
    assert task is not None
    scheduler._wake.set()
    async with asyncio.timeout(5):
        await scheduler.stop()
    assert task.cancelled()


async def test_cancelled_lets_the_callers_own_cancel_through() -> None:
    """A caller cancelled while it waits for a task to stop is cancelled itself, instead of
    going on as if its wait had ended (what ``suppress(CancelledError)`` did)."""
    stubborn_done = asyncio.Event()

    async def stubborn() -> None:
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            await stubborn_done.wait()  # takes its time to stop
            raise

    task = asyncio.create_task(stubborn())
    await asyncio.sleep(0)
    went_on: list[str] = []

    async def stopper() -> None:
        await cancelled(task)
        went_on.append("went on")

    stopping = asyncio.create_task(stopper())
    await asyncio.sleep(0.01)
    stopping.cancel()
    with pytest.raises(asyncio.CancelledError):
        await stopping
    assert went_on == []
    stubborn_done.set()
    await ended(task)
    assert task.cancelled()


async def test_ended_of_a_task_that_finished_returns() -> None:
    async def quick() -> None:
        return None

    task = asyncio.create_task(quick())
    await ended(task)
    assert task.done() and not task.cancelled()
