"""Presses per second and press → callback-answer latency with 1, 2 and 4 webhook workers.

    python bench/workers.py [--workers 1 2 4] [--tables 30] [--seconds 20] [--time-scale 0]
                            [--connections 40] [--json]

For each worker count: a fresh fake Telegram (``tests/fakeapi``) in this process, a
``redis-server`` of its own (``tests/services.py``; or ``BOT_TEST_REDIS``), a temporary SQLite
file (WAL) and ``python -m bot`` with ``BOT_WORKERS=N`` (``tests/bot/fleet.py``: the workers
share one webhook port, SO_REUSEPORT; the fake delivers over ``--connections`` connections at
once, Telegram's default ``max_connections`` is 40). ``--tables`` groups of three players
open ``/newgame mushka target=100`` and then, concurrently for ``--seconds``, whoever is to act
presses a legal button, waits for its answer and for his hand to show the move, and the next
player presses. Reported per N: presses, presses/s, p50/p99 latency from the press to its
callback answer, refused and unanswered presses. ``--time-scale 0`` (the default) takes
Telegram's rate windows out, so the figures are the bot's path, not the outbox's pacing.

The driver (fake + players) shares the machine's cores with the workers: on 2 cores it takes
a large part of one; read the figures as what this machine does, not as the workers' ceiling.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.bot.fleet import Presses, fleet, open_all, play_table, seat_tables  # noqa: E402
from tests.fakeapi import FakeTelegram  # noqa: E402
from tests.services import redis_server  # noqa: E402

TOKEN = "123456:TEST-token"


@dataclass
class Row:
    workers: int
    tables: int
    presses: int
    seconds: float
    presses_per_s: float
    p50_ms: float
    p99_ms: float
    refused: int
    unanswered: int


async def measure(workers: int, tables: int, seconds: float, scale: float, connections: int) -> Row:
    fake = FakeTelegram(token=TOKEN, bot_username="mushka_test_bot")
    await fake.start()
    try:
        with redis_server() as url, tempfile.TemporaryDirectory(prefix="bench-workers-") as tmp:
            seated = seat_tables(fake, tables)
            async with fleet(
                fake,
                Path(tmp),
                url,
                workers,
                connections=connections,
                BOT_OUTBOX_TIME_SCALE=str(scale),
            ):
                await open_all(fake, seated, "target=100")
                await fake.settle(quiet=0.2, timeout=60)
                presses = Presses()
                started = time.monotonic()
                until = started + seconds
                await asyncio.gather(
                    *(
                        play_table(fake, g, ps, random.Random(i), presses, until=until)
                        for i, (g, ps) in enumerate(seated)
                    )
                )
                took = time.monotonic() - started
    finally:
        await fake.stop()
    latency = sorted(presses.latency) or [0.0]
    return Row(
        workers=workers,
        tables=tables,
        presses=presses.sent,
        seconds=took,
        presses_per_s=presses.sent / took,
        p50_ms=1000 * statistics.median(latency),
        p99_ms=1000 * presses.p99(),
        refused=presses.refused,
        unanswered=presses.lost,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--time-scale", type=float, default=0.0)
    parser.add_argument("--connections", type=int, default=40)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = [
        asyncio.run(measure(n, args.tables, args.seconds, args.time_scale, args.connections))
        for n in args.workers
    ]
    if args.json:
        print(json.dumps([asdict(r) for r in rows], indent=2))
        return
    print(f"{args.tables} tables of 3, {args.seconds:.0f} s each, python {sys.version.split()[0]}")
    print(f"{'workers':>8}{'presses':>9}{'presses/s':>11}{'p50 ms':>9}{'p99 ms':>9}{'refused':>9}")
    for r in rows:
        print(
            f"{r.workers:>8}{r.presses:>9}{r.presses_per_s:>11.1f}{r.p50_ms:>9.0f}"
            f"{r.p99_ms:>9.0f}{r.refused:>9}"
        )


if __name__ == "__main__":
    main()
