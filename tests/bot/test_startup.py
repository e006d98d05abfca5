"""Start-up and shutdown: setMyCommands (PRODUCT.md §4.9), the token check, SIGTERM."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import sqlite3
import sys
from pathlib import Path

import pytest

from bot.app import RunningBot, running_bot
from bot.config import Settings
from tests.bot.helpers import fixed_seeds, open_table, play_step, table_message, to_act, watched
from tests.fakeapi import FakeTelegram

GROUP_RU = [
    ("newgame", "Новый стол"),
    ("daily", "🗓 Задача дня"),
    ("score", "Счёт и итоги"),
    ("record", "Запись игры"),
    ("rules", "Правила"),
    ("help", "Помощь"),
    ("hand", "Мои карты"),
    ("language", "Язык"),
    ("settings", "Настройки"),
    ("cancel", "Отменить стол"),
    ("kick", "Передать место компьютеру"),
    ("notify", "Сообщать о новых столах"),
]
GROUP_EN = [
    ("newgame", "New table"),
    ("daily", "🗓 The day's deal"),
    ("score", "Scores"),
    ("record", "Game record"),
    ("rules", "Rules"),
    ("help", "Help"),
    ("hand", "My cards"),
    ("language", "Language"),
    ("settings", "Settings"),
    ("cancel", "Cancel table"),
    ("kick", "Hand seat to computer"),
    ("notify", "Notify me of new tables"),
]
PRIVATE = {"newgame", "cancel", "kick", "notify"}
ROOT = Path(__file__).resolve().parents[2]


def listed(fake: FakeTelegram, scope: str, language: str) -> list[tuple[str, str]]:
    commands = fake.commands_for({"type": scope}, language)
    return [(c["command"], c["description"]) for c in commands]


async def test_4_9_commands_registered_in_ru_and_en_for_groups_and_private(
    fake_telegram: FakeTelegram, bot: RunningBot
) -> None:
    fake = fake_telegram
    assert listed(fake, "all_group_chats", "ru") == GROUP_RU
    assert listed(fake, "all_group_chats", "en") == GROUP_EN
    # in private, /practice first: a table of one's own and computers
    practice_ru, practice_en = (
        ("practice", "🎮 Сыграть с ботом"),
        ("practice", "🎮 Practice with the bot"),
    )
    in_private_ru = [practice_ru, *[c for c in GROUP_RU if c[0] not in PRIVATE]]
    assert listed(fake, "all_private_chats", "ru") == in_private_ru
    in_private_en = [practice_en, *[c for c in GROUP_EN if c[0] not in PRIVATE]]
    assert listed(fake, "all_private_chats", "en") == in_private_en
    # users with another language see the default language (ru)
    assert listed(fake, "all_group_chats", "") == GROUP_RU


def wal_left(database: Path) -> bool:
    return Path(f"{database}-wal").exists()


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "LANG", "LC_ALL", "SYSTEMROOT")}
    env["PYTHONPATH"] = str(ROOT)  # `python -m bot` runs this checkout, not an installed copy
    env.update(extra)
    return env


async def run_bot_cli(tmp_path: Path, env: dict[str, str]) -> tuple[int, str, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=tmp_path,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), timeout=30)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        (None, "configuration error: BOT_TOKEN is missing (see .env.example)"),
        ("not-a-token", "configuration error: BOT_TOKEN: BOT_TOKEN is malformed"),
        ("", "configuration error: BOT_TOKEN: BOT_TOKEN is malformed"),
    ],
)
async def test_startup_bad_token_one_line_exit_2(
    tmp_path: Path, token: str | None, expected: str
) -> None:
    env = clean_env() if token is None else clean_env(BOT_TOKEN=token)
    code, out, err = await run_bot_cli(tmp_path, env)
    assert code == 2
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(expected)
    assert "Traceback" not in err and "not-a-token" not in err  # the secret is not echoed
    assert not (tmp_path / "data").exists()  # nothing was created


async def test_sigterm_exits_cleanly_and_the_tables_resume(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    fake = fake_telegram
    database = tmp_path / "bot.sqlite3"
    env = clean_env(
        BOT_TOKEN=fake.token,
        BOT_API_BASE=fake.base_url,
        BOT_DATABASE=str(database),
        BOT_COMPUTER_DELAY_S="0",
        BOT_LOG_LEVEL="WARNING",
    )
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=tmp_path,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        await fake.wait_until(lambda: fake.count("getUpdates") > 0, timeout=20)
        players = [
            fake.add_user(101, "Anna", language_code="ru"),
            fake.add_user(102, "Boris", language_code="ru"),
            fake.add_user(103, "Vera", language_code="en"),
        ]
        group = fake.add_group(-1001, "Пятница", admins=[101], members=[102, 103])
        other = fake.add_group(-1002, "Суббота", members=[101])
        await open_table(fake, group, players)
        rng = random.Random(2)
        for _ in range(3):
            await play_step(fake, group, players, rng)
        await players[0].send(other, "/newgame pamfil")  # a lobby, too
        await fake.wait_until(lambda: len(other.messages) == 1, timeout=10)
        await fake.settle(quiet=0.1)
        with contextlib.closing(sqlite3.connect(database)) as conn:
            logged = conn.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
        assert logged > 0

        started = asyncio.get_running_loop().time()
        proc.send_signal(signal.SIGTERM)
        _, err = await asyncio.wait_for(proc.communicate(), timeout=15)
        took = asyncio.get_running_loop().time() - started
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    assert proc.returncode == 0, err.decode()
    assert "Traceback" not in err.decode()
    assert took < 5, f"shutdown took {took:.1f} s"

    # the bot closed its connection: the WAL was checkpointed into the database file
    assert not wal_left(database)
    with contextlib.closing(sqlite3.connect(database)) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        rows = conn.execute("SELECT chat_id, game, status FROM tables ORDER BY id").fetchall()
        assert conn.execute("SELECT COUNT(*) FROM actions").fetchone()[0] == logged
    assert rows == [(-1001, "mushka", "running"), (-1002, "pamfil", "lobby")]

    # a new bot on the same database: the running table continues where it was
    settings = Settings(
        token=fake.token,  # type: ignore[arg-type]
        database=database,
        api_base=fake.base_url,
        polling_timeout_s=1,
        computer_delay_s=0,
        outbox_time_scale=0,
        _env_file=None,  # type: ignore[call-arg]
    )
    table_before = table_message(group)
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await fake.settle(quiet=0.1)
        assert table_message(group) is table_before
        actor = to_act(group, players)
        assert actor is not None
        for _ in range(6):  # a step may only mark a card; an action follows within a few
            assert await play_step(fake, group, players, rng)
        with contextlib.closing(sqlite3.connect(database)) as conn:
            assert conn.execute("SELECT COUNT(*) FROM actions").fetchone()[0] > logged
