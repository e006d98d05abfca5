"""A computer's decision, off the event loop, timed.

The search is pure CPU work: it runs in the default executor's threads so that the event loop
answers other tables meanwhile. Every decision is logged with how long it waited for a thread,
its wall time and its thread's CPU time — what ``bench/computers.py`` reads back to tell
whether several computers thinking at once keep within the turn's pace.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from dataclasses import dataclass
from typing import Any

from engine.core import View
from engine.players import Policy

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Thought:
    """A decision and its times, in seconds."""

    action: Any
    queued: float  # from the request to a thread taking it
    wall: float  # the search's own wall time
    cpu: float  # the search's thread's CPU time


def _timed(policy: Policy, view: View[Any, Any], rng: random.Random, asked: float) -> Thought:
    started, cpu = time.perf_counter(), time.thread_time()
    action = policy(view, rng)
    done = time.perf_counter()
    return Thought(action, started - asked, done - started, time.thread_time() - cpu)


async def think(
    policy: Policy, view: View[Any, Any], rng: random.Random, *, table_id: int, level: str
) -> Any:
    """``policy(view, rng)`` in a worker thread; the decision's times go to the log."""
    thought = await asyncio.to_thread(_timed, policy, view, rng, time.perf_counter())
    logger.info(
        "computer table=%s level=%s queued_ms=%.1f wall_ms=%.1f cpu_ms=%.1f",
        table_id,
        level,
        1000 * thought.queued,
        1000 * thought.wall,
        1000 * thought.cpu,
    )
    return thought.action


__all__ = ["Thought", "think"]
