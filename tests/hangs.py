"""A test that hangs is shown where it hangs, and stopped.

Every test has ``pytest-timeout``'s time (``timeout`` in ``pyproject.toml``; a ``slow`` soak
gets :data:`SLOW_S`), so one await that never returns fails one test instead of holding the
whole run until CI gives up on it. Before that, at :data:`DUMP_S` (at ⅔ of a test's own
limit), every thread's stack and every asyncio task's await chain go to stderr: the failed
test's report then shows which await never returned (a thread dump alone shows only the event
loop waiting in ``select``).
"""

from __future__ import annotations

import asyncio
import faulthandler
import sys
import threading
from collections.abc import Iterator
from types import FrameType

import pytest

DUMP_S = 200.0  # pyproject.toml's per-test timeout is later (300 s): the dump comes first
SLOW_S = 1800.0  # a soak (``-m slow``) has longer; CI runs a bounded sample of them


def slow_timeouts(items: list[pytest.Item]) -> None:
    """A ``slow`` test without a timeout of its own gets :data:`SLOW_S`."""
    for item in items:
        if item.get_closest_marker("slow") and not item.get_closest_marker("timeout"):
            item.add_marker(pytest.mark.timeout(SLOW_S))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    marker = item.get_closest_marker("timeout")
    limit = None if marker is None else marker.kwargs.get("timeout", *marker.args[:1])
    after = DUMP_S if not limit else float(limit) * 2 / 3  # a test's own limit: before it
    timer = threading.Timer(after, _dump, args=(item.nodeid, threading.get_ident(), after))
    timer.daemon = True
    timer.start()
    try:
        return (yield)
    finally:
        timer.cancel()


def _dump(nodeid: str, main: int, after: float) -> None:
    out = sys.__stderr__
    if out is None:
        return
    print(f"\n=== {nodeid} still runs after {after:.0f} s: threads, then tasks ===", file=out)
    out.flush()
    faulthandler.dump_traceback(file=out, all_threads=True)
    loop = _loop_of(sys._current_frames().get(main))
    if loop is None or loop.is_closed():
        return
    shown = threading.Event()

    def tasks() -> None:
        try:
            for task in asyncio.all_tasks(loop):
                print(f"--- task {task.get_name()}, awaiting (outermost first):", file=out)
                for frame in _awaiting(task.get_coro()):
                    code = frame.f_code
                    print(f"  {code.co_filename}:{frame.f_lineno} in {code.co_name}", file=out)
            out.flush()
        finally:
            shown.set()

    loop.call_soon_threadsafe(tasks)
    shown.wait(5.0)


def _awaiting(coro: object) -> Iterator[FrameType]:
    """The frames of a coroutine and of what it awaits, down to the innermost await (a task's
    own ``print_stack`` shows only its outermost coroutine)."""
    while coro is not None:
        frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
        if isinstance(frame, FrameType):
            yield frame
        coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)


def _loop_of(frame: FrameType | None) -> asyncio.AbstractEventLoop | None:
    """The event loop the main thread runs (a ``self`` up its stack), if it runs one."""
    while frame is not None:
        candidate = frame.f_locals.get("self")
        if isinstance(candidate, asyncio.AbstractEventLoop):
            return candidate
        frame = frame.f_back
    return None
