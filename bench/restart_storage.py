"""Restart and storage: resuming open tables, memory per table, committed actions per second.

    python bench/restart_storage.py [--tables 1000] [--actions 2000]

**Restart** (child processes on the fake Telegram, as in :mod:`bench.press_throughput`, with
Telegram's rate limits lifted — ``BOT_OUTBOX_TIME_SCALE=0`` — so that opening a thousand tables
takes seconds, not the quarter of an hour 30 calls a second would make it):
``--tables`` groups of 3 open ``/newgame mushka target=100`` with the bot; the bot stops and a
new one starts on the same database. Reported: the time from its getMe (its first call,
imports and migrations done) to its first getUpdates (it polls only once every open table is
resumed: loaded, replayed, its screens compared with what the chats show; the start-up probe's
``getUpdates`` comes before and does not count) for that database and for an empty one, the
difference per table, the Bot API calls the resume made (by method), and the
resident memory (``VmRSS``) of the resumed bot against a bot with no table, per table.

**Storage** (in this process, a temporary file): ``--actions`` units of work of the
repository (``SqlRepository.unit`` on SQLite: ``BEGIN IMMEDIATE``, the action row, the table's
move count, ``COMMIT``; what a card press commits) on the project's connection (``bot.storage.db``:
WAL, ``synchronous=NORMAL``), against the same statements and commits through aiosqlite
bare, and through the standard library's ``sqlite3`` in a plain loop with the same settings.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import aiosqlite  # noqa: E402

from bench.press_throughput import (  # noqa: E402
    START_TIMEOUT,
    TOKEN,
    child_env,
    seat_tables,
    set_up,
    stop_child,
)
from bot.storage.db import Database  # noqa: E402
from bot.storage.repository import SqlRepository  # noqa: E402
from bot.storage.sqlite import sqlite_repository  # noqa: E402
from tests.fakeapi import FakeTelegram  # noqa: E402

START = frozenset({"getMe", "getWebhookInfo", "getUpdates", "setMyCommands"})
"""What every start calls, with or without tables: not the resume's calls."""


@dataclass
class Restart:
    tables: int
    start_empty_s: float
    start_full_s: float
    resume_ms_per_table: float
    resume_calls: int
    resume_methods: dict[str, int]
    rss_empty_mb: float
    rss_full_mb: float
    rss_kb_per_table: float


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def _polling_since(fake: FakeTelegram, mark: int) -> float | None:
    """When the bot started polling: its first getUpdates after its commands were set (the
    start-up probe, ``getUpdates`` with ``limit=1``, comes before them, the resume after)."""
    commands = None
    for call in fake.requests[mark:]:
        method = call.method.lower()
        if method == "setmycommands":
            commands = call.at
        elif method == "getupdates" and commands is not None:
            return call.at
    return None


async def spawn(
    fake: FakeTelegram, tmp: Path, tables: int = 0
) -> tuple[asyncio.subprocess.Process, float]:
    """Start the bot on ``tmp``'s database; it and the seconds from its getMe to its first
    getUpdates."""
    mark = fake.mark()
    log = (tmp / "bot.log").open("ab")
    started = time.monotonic()
    try:
        child = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            cwd=tmp,
            # no turn timer runs out while the last of a thousand tables opens: the first ones'
            # seats would go to the computers, which would then play on for ever
            env={**child_env(fake, tmp, time_scale="0"), "BOT_TURN_TIMEOUT_S": "3600"},
            stdin=asyncio.subprocess.DEVNULL,
            stdout=log,
            stderr=log,
        )
    finally:
        log.close()
    deadline = started + START_TIMEOUT + 0.5 * tables  # a loaded machine resumes slowly
    while (polled := _polling_since(fake, mark)) is None:
        if child.returncode is not None or time.monotonic() > deadline:
            tail = (tmp / "bot.log").read_text(errors="replace")[-2000:]
            raise RuntimeError(f"the bot did not start polling:\n{tail}")
        await asyncio.sleep(0.01)
    me = next(c.at for c in fake.requests[mark:] if c.method.lower() == "getme")
    return child, polled - me


async def restart(tables: int) -> Restart:
    fake = FakeTelegram(token=TOKEN, bot_username="mushka_test_bot")
    await fake.start()
    try:
        with (
            tempfile.TemporaryDirectory(prefix="restart-full-") as full_name,
            tempfile.TemporaryDirectory(prefix="restart-empty-") as empty_name,
        ):
            full, empty = Path(full_name), Path(empty_name)
            child, _ = await spawn(fake, empty)
            await fake.settle(quiet=0.3, timeout=60)
            rss_empty = rss_kb(child.pid)
            await stop_child(child)
            child, start_empty = await spawn(fake, empty)  # warm: the second start, as below
            await stop_child(child)

            seated = seat_tables(fake, tables)
            child, _ = await spawn(fake, full)
            await set_up("bot", fake, seated)
            await fake.settle(quiet=1.0, timeout=600)  # every screen out before the stop
            await stop_child(child)
            await fake.settle(quiet=0.3, timeout=60)
            mark = fake.mark()
            child, start_full = await spawn(fake, full, tables)
            await fake.settle(quiet=0.5, timeout=120)
            methods = Counter(c.method for c in fake.requests[mark:] if c.method not in START)
            calls = sum(methods.values())
            rss_full = rss_kb(child.pid)
            await stop_child(child)
    finally:
        await fake.stop()
    return Restart(
        tables=tables,
        start_empty_s=start_empty,
        start_full_s=start_full,
        resume_ms_per_table=1000 * (start_full - start_empty) / tables,
        resume_calls=calls,
        resume_methods=dict(methods.most_common()),
        rss_empty_mb=rss_empty / 1024,
        rss_full_mb=rss_full / 1024,
        rss_kb_per_table=(rss_full - rss_empty) / tables,
    )


@dataclass
class Storage:
    actions: int
    repository_per_s: float
    aiosqlite_per_s: float
    sqlite3_per_s: float


INSERT = "INSERT INTO actions(table_id, seq, seat, action) VALUES (?, ?, ?, ?)"
UPDATE = "UPDATE tables SET moves = ? WHERE id = ?"


async def _table(repo: SqlRepository, db: Database, chat: int) -> int:
    async with repo.unit() as tx:
        await tx.upsert_chat(chat, "bench")
        await tx.upsert_user(1, "Anna", None, "ru")
        return await tx.create_table(chat, "mushka", {}, 1, f"c{-chat}", 0.0)


async def storage(actions: int) -> Storage:
    with tempfile.TemporaryDirectory(prefix="storage-") as tmp_name:
        path = Path(tmp_name) / "bot.sqlite3"
        db = await Database.open(path)
        repo = sqlite_repository(db)
        try:
            tid = await _table(repo, db, -1)
            t0 = time.perf_counter()
            for seq in range(actions):
                async with repo.unit() as tx:
                    await tx.add_action(tid, seq, seq % 3, "p:AS")
                    await tx.update_table(tid, moves=seq + 1)
            repository = actions / (time.perf_counter() - t0)
            tid = await _table(repo, db, -2)
        finally:
            await db.close()

        conn = await aiosqlite.connect(path, isolation_level=None)
        try:
            await conn.execute("PRAGMA journal_mode=WAL")
            await conn.execute("PRAGMA synchronous=NORMAL")
            t0 = time.perf_counter()
            for seq in range(actions):
                await conn.execute("BEGIN IMMEDIATE")
                await conn.execute(INSERT, (tid, seq, seq % 3, "p:AS"))
                await conn.execute(UPDATE, (seq + 1, tid))
                await conn.execute("COMMIT")
            bare_async = actions / (time.perf_counter() - t0)
        finally:
            await conn.close()

        plain = sqlite3.connect(path, isolation_level=None)
        try:
            plain.execute("PRAGMA journal_mode=WAL")
            plain.execute("PRAGMA synchronous=NORMAL")
            plain.execute("DELETE FROM actions WHERE table_id = ?", (tid,))
            t0 = time.perf_counter()
            for seq in range(actions):
                plain.execute("BEGIN IMMEDIATE")
                plain.execute(INSERT, (tid, seq, seq % 3, "p:AS"))
                plain.execute(UPDATE, (seq + 1, tid))
                plain.execute("COMMIT")
            bare = actions / (time.perf_counter() - t0)
        finally:
            plain.close()
    return Storage(actions, repository, bare_async, bare)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000, help="open tables to resume")
    parser.add_argument("--actions", type=int, default=2000, help="committed actions")
    args = parser.parse_args()
    print(asdict(asyncio.run(storage(max(args.actions, 1)))))
    print(asdict(asyncio.run(restart(max(args.tables, 1)))))


if __name__ == "__main__":
    main()
