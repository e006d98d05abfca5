"""``BOT_WORKERS=N`` (webhook mode, ``BOT_REDIS_URL``): this process starts N worker
processes — each ``python -m bot`` with ``BOT_WORKER_INDEX`` set, all listening on
``BOT_WEBHOOK_LISTEN`` (``SO_REUSEPORT``) — restarts one that dies, and on SIGTERM/Ctrl-C
stops them all (each drains its outbox). Worker 0 calls ``setWebhook``; the database is
migrated here once, before any worker starts (a failure exits with its code, as one
process does).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys

from bot.config import Settings
from bot.startup import check_token, open_database

logger = logging.getLogger("bot.workers")
RESTART_S = 1.0  # a worker that died is started again after this pause (doubling, up to 30 s)
STOP_S = 15.0  # after SIGTERM a worker gets this long (plus BOT_DRAIN_S) before SIGKILL


async def _spawn(index: int) -> asyncio.subprocess.Process:
    env = dict(os.environ, BOT_WORKER_INDEX=str(index))
    process = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", env=env)
    logger.info("worker %s started (pid %s)", index, process.pid)
    return process


async def supervise(settings: Settings) -> int:
    """Run the workers until a signal; the exit code (0: a clean stop). What stops a worker
    from starting at all (the token, the database) raises :class:`bot.startup.StartFailed`
    here, before any worker runs: the supervisor exits with its code."""
    check_token(settings)
    store = await open_database(settings)  # migrations run once, here
    await store.close()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    workers: dict[int, asyncio.subprocess.Process] = {}

    def dump() -> None:  # SIGUSR1 (bot.__main__.dump_tasks): each worker logs its tasks
        for process in workers.values():
            if process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    process.send_signal(signal.SIGUSR1)

    loop.add_signal_handler(signal.SIGUSR1, dump)
    for i in range(settings.workers):
        workers[i] = await _spawn(i)
    pause = dict.fromkeys(workers, RESTART_S)
    stopping = asyncio.create_task(stop.wait())
    try:
        while not stop.is_set():
            waits = {asyncio.create_task(p.wait()): i for i, p in workers.items()}
            done, _ = await asyncio.wait({stopping, *waits}, return_when=asyncio.FIRST_COMPLETED)
            for task in waits:
                if task not in done:
                    task.cancel()
            if stop.is_set():
                break
            for task in done:
                index = waits[task]
                code = workers[index].returncode
                logger.warning(
                    "worker %s exited (%s); restarting in %.0f s", index, code, pause[index]
                )
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(pause[index]):  # not wait_for (3.11)
                        await stop.wait()
                if stop.is_set():
                    break
                pause[index] = min(pause[index] * 2, 30.0)
                workers[index] = await _spawn(index)
    finally:
        stopping.cancel()
        await _stop_all(list(workers.values()), STOP_S + settings.drain_s)
    return 0


async def _stop_all(processes: list[asyncio.subprocess.Process], grace: float) -> None:
    for process in processes:
        if process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(signal.SIGTERM)
    try:
        async with asyncio.timeout(grace):
            await asyncio.gather(*(p.wait() for p in processes))
    except TimeoutError:
        for process in processes:
            if process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
        await asyncio.gather(*(p.wait() for p in processes))
