"""Start-up faults an operator meets: a database that cannot be opened or migrated
makes ``python -m bot`` exit with its code at once — never hang with aiosqlite's thread alive,
so Docker and the worker supervisor see it stop — and processes starting together on one
SQLite file each apply every migration once; a file whose pages were overwritten is found at
start (``PRAGMA quick_check``) by the bot and by ``check`` alike. The real ``python -m bot``
runs as a subprocess; these tests are about SQLite's file (and an unreachable PostgreSQL
server) on purpose."""

from __future__ import annotations

import asyncio
import contextlib
import random
import sqlite3
import sys
import time
from pathlib import Path

from bot.startup import Exit
from bot.storage import open_repository
from bot.storage.db import migrations
from bot.storage.rows import SeatKind, TableStatus
from tests.bot.test_check_and_logs import cli
from tests.bot.test_first_run import closed_port, env_for, failure
from tests.bot.test_startup import ROOT, clean_env
from tests.fakeapi import FakeTelegram

PROMPTLY_S = 20.0  # a failed start exits within this (it takes about a second)


async def exits(tmp_path: Path, env: dict[str, str], *args: str) -> tuple[int, str, float]:
    """Run a process to its end; its exit code, stderr and how long it ran (killed, and the
    test failed, when it is still running after ``PROMPTLY_S``)."""
    started = time.monotonic()
    proc = await asyncio.create_subprocess_exec(
        *args,
        cwd=tmp_path,
        env=env,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        _, err = await asyncio.wait_for(proc.communicate(), timeout=PROMPTLY_S)
    except TimeoutError:
        proc.kill()
        _, err = await proc.communicate()
        raise AssertionError(f"still running after {PROMPTLY_S} s: {err.decode()}") from None
    assert proc.returncode is not None
    return proc.returncode, err.decode(), time.monotonic() - started


async def bot_exits(tmp_path: Path, env: dict[str, str]) -> tuple[int, str]:
    code, err, _ = await exits(tmp_path, env, sys.executable, "-m", "bot")
    return code, err


def database_at(tmp_path: Path) -> Path:
    path = tmp_path / "data" / "bot.sqlite3"
    path.parent.mkdir(exist_ok=True)
    return path


async def test_a_migration_that_fails_exits_8_at_once(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    path = database_at(tmp_path)
    with contextlib.closing(sqlite3.connect(path)) as conn:  # a table migration 1 creates
        conn.execute("CREATE TABLE chats (x)")
        conn.commit()
    code, err = await bot_exits(tmp_path, env_for(fake_telegram, tmp_path))
    assert code == Exit.DATABASE, err
    said = failure(err)
    assert "cannot be migrated: migration 1 failed: table chats already exists" in said
    assert "restore a backup" in said
    assert fake_telegram.requests == []  # stopped before asking Telegram anything
    with contextlib.closing(sqlite3.connect(path)) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 0  # rolled back


async def test_a_file_that_is_not_a_database_exits_8_at_once(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    database_at(tmp_path).write_bytes(b"not a database at all, " * 100)
    code, err = await bot_exits(tmp_path, env_for(fake_telegram, tmp_path))
    assert code == Exit.DATABASE, err
    assert "cannot be opened for writing (file is not a database)" in failure(err)


async def test_the_worker_supervisor_exits_with_the_code_too(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    with contextlib.closing(sqlite3.connect(database_at(tmp_path))) as conn:
        conn.execute("CREATE TABLE chats (x)")
        conn.commit()
    env = env_for(
        fake_telegram,
        tmp_path,
        BOT_WORKERS="2",
        BOT_WEBHOOK_URL="https://bot.example.org/tg",
        BOT_WEBHOOK_SECRET="s" * 32,
        BOT_REDIS_URL=f"redis://127.0.0.1:{closed_port()}",  # never reached
    )
    code, err = await bot_exits(tmp_path, env)
    assert code == Exit.DATABASE, err
    assert "cannot be migrated: migration 1 failed" in failure(err)  # and no worker started


async def test_an_unreachable_postgresql_exits_8_at_once(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    url = f"postgresql://bot@127.0.0.1:{closed_port()}/bot"
    code, err = await bot_exits(tmp_path, env_for(fake_telegram, tmp_path, BOT_DATABASE=url))
    assert code == Exit.DATABASE, err
    assert f"database {url} cannot be opened (" in failure(err)


OPEN_AT = """
import asyncio, sys, time
from pathlib import Path
from bot.storage.db import Database

async def main() -> None:
    time.sleep(max(0.0, float(sys.argv[2]) - time.time()))  # all of them at once
    db = await Database.open(Path(sys.argv[1]))
    await db.close()

asyncio.run(main())
"""


def schema_of(path: Path) -> tuple[int, list[tuple[str, str]]]:
    with contextlib.closing(sqlite3.connect(path)) as conn:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        rows = conn.execute(
            "SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name"
        ).fetchall()
    return int(version), [(str(n), str(s)) for n, s in rows]


async def test_processes_migrating_one_new_file_together_all_succeed(tmp_path: Path) -> None:
    path = tmp_path / "shared.sqlite3"
    env = clean_env(PYTHONPATH=str(ROOT))
    at = str(time.time() + 3.0)  # after every interpreter has started
    runs = [exits(tmp_path, env, sys.executable, "-c", OPEN_AT, str(path), at) for _ in range(4)]
    results = await asyncio.gather(*runs)
    for code, err, _ in results:
        assert code == 0, err
    alone = tmp_path / "alone.sqlite3"
    code, err, _ = await exits(tmp_path, env, sys.executable, "-c", OPEN_AT, str(alone), "0")
    assert code == 0, err
    version, tables = schema_of(path)
    assert version == len(migrations())
    assert (version, tables) == schema_of(alone)  # each migration applied exactly once


async def with_tables(path: Path, tables: int = 30, actions: int = 100) -> None:
    """A bot's file with running tables and their logged actions, written as the bot writes
    them, its WAL folded in (every page in the one file)."""
    store = await open_repository(path)
    people = ((101, "Anna"), (102, "Boris"), (103, "Vera"))
    try:
        async with store.unit() as tx:
            await tx.upsert_chat(-1001, "Пятница")
            for uid, name in people:
                await tx.upsert_user(uid, name, None, "ru")
            for t in range(tables):
                tid = await tx.create_table(-1001, "mushka", {}, 101, f"c{t:05d}", 0.0)
                await tx.replace_seats(tid, [(SeatKind.HUMAN, uid, name) for uid, name in people])
                await tx.update_table(tid, status=TableStatus.RUNNING)
                await tx.add_match(tid, 1, 7, None, 0)
                for seq in range(actions):
                    await tx.add_action(tid, seq, seq % 3, "p:" + "x" * 40)
    finally:
        await store.close()
    with contextlib.closing(sqlite3.connect(path)) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def damage_middle_pages(path: Path, page: int = 4096) -> int:
    """Garbage over the actions' pages in the middle third of the file (its header, schema and
    every other table stay whole, so it opens, migrates and takes a write as ever, however many
    tables the migrations add); how many pages."""
    with contextlib.closing(sqlite3.connect(path)) as conn:
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        owned = conn.execute(
            "SELECT pageno FROM dbstat WHERE name IN ('actions', 'sqlite_autoindex_actions_1')"
        ).fetchall()
    middle = range(pages // 3, 2 * pages // 3)
    hit = sorted(n for (n,) in owned if n in middle and n > 1)
    data = bytearray(path.read_bytes())
    rng = random.Random(47)
    for number in hit:  # page numbers count from 1
        data[(number - 1) * page : number * page] = rng.randbytes(page)
    path.write_bytes(bytes(data))
    return len(hit)


async def test_a_file_with_damaged_middle_pages_is_found_at_start_in_one_line_exit_8(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    """Such a file used to pass the start's probe and die resuming its tables, exit 1 on every
    restart (and ``check`` printed a traceback); ``PRAGMA quick_check`` finds it first."""
    path = database_at(tmp_path)
    await with_tables(path)
    assert damage_middle_pages(path) > 5
    env = env_for(fake_telegram, tmp_path)
    code, err = await bot_exits(tmp_path, env)
    assert code == Exit.DATABASE, err
    said = failure(err)
    assert f"database {path} is damaged (quick_check: " in said, said
    assert "restore a backup" in said and f"sqlite3 {path} .recover" in said
    assert fake_telegram.requests == []  # stopped before asking Telegram anything
    code, out, err = await cli(tmp_path, env, "check")
    assert code == Exit.DATABASE, err
    assert "Traceback" not in err and out == "settings: ok (mode polling)\n"
    [line] = err.strip().splitlines()
    assert line.startswith(f"check failed: database {path} is damaged (quick_check: "), line
    before = path.read_bytes()
    assert (await bot_exits(tmp_path, env))[0] == Exit.DATABASE  # every restart says the same
    assert path.read_bytes() == before  # and writes nothing to it


async def test_the_worker_supervisor_finds_a_damaged_file_before_any_worker_starts(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    path = database_at(tmp_path)
    await with_tables(path)
    damage_middle_pages(path)
    env = env_for(
        fake_telegram,
        tmp_path,
        BOT_WORKERS="2",
        BOT_WEBHOOK_URL="https://bot.example.org/tg",
        BOT_WEBHOOK_SECRET="s" * 32,
        BOT_REDIS_URL=f"redis://127.0.0.1:{closed_port()}",  # never reached
    )
    code, err = await bot_exits(tmp_path, env)
    assert code == Exit.DATABASE, err
    assert f"database {path} is damaged (quick_check: " in failure(err)
