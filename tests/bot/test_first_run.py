"""A newcomer's first start: every usual mistake is one or two lines on stderr with its own exit
code (``bot.startup.Exit``), no traceback unless ``BOT_LOG_LEVEL=DEBUG``; a good start is one
line. The real ``python -m bot`` runs as a subprocess against the fake Bot API (127.0.0.1)."""

from __future__ import annotations

import asyncio
import signal
import socket
import sqlite3
import sys
from pathlib import Path

from bot.startup import EXAMPLE_TOKEN, Exit
from bot.storage.db import migrations
from tests.bot.test_check_and_logs import cli
from tests.bot.test_check_and_logs import env_for as check_env
from tests.bot.test_startup import ROOT
from tests.fakeapi import FakeTelegram

WEBHOOK = "https://bot.example.org/tg"


def env_for(fake: FakeTelegram, tmp_path: Path, **changes: str) -> dict[str, str]:
    """The check tests' environment (the fake's token and URL, a fresh database), changed."""
    return {**check_env(fake, tmp_path), **changes}


def closed_port() -> int:
    """A port on 127.0.0.1 nobody listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def failure(err: str) -> str:
    """The one failure message (it may take two lines), checked to carry no traceback."""
    assert "Traceback" not in err, err
    lines = err.strip().splitlines()
    assert 1 <= len(lines) <= 2, err
    assert lines[0].startswith("start-up failed: "), err
    return "\n".join(lines)


def test_the_exit_codes_are_the_documented_ones() -> None:
    codes = {e.name.lower().replace("_", " "): int(e) for e in Exit}
    assert list(codes.values()) == list(range(9))
    doc = (ROOT / "bot" / "__main__.py").read_text(encoding="utf-8")
    readme = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    for code in codes.values():
        assert f"* {code} — " in doc
        assert f"| {code} |" in readme


def test_the_example_token_is_the_one_in_env_example() -> None:
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    assert f"\nBOT_TOKEN={EXAMPLE_TOKEN}\n" in example


async def test_the_example_token_says_so_and_touches_nothing(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    env = env_for(fake_telegram, tmp_path, BOT_TOKEN=EXAMPLE_TOKEN)
    code, _, err = await cli(tmp_path, env)
    assert code == Exit.EXAMPLE_TOKEN
    assert "BOT_TOKEN is still the example from .env.example" in failure(err)
    assert "@BotFather" in err
    assert fake_telegram.requests == []  # not even getMe
    assert not (tmp_path / "data").exists()  # no database created for a bot that can't run


async def test_a_token_telegram_rejects(fake_telegram: FakeTelegram, tmp_path: Path) -> None:
    env = env_for(fake_telegram, tmp_path, BOT_TOKEN="999:revoked-token")
    code, _, err = await cli(tmp_path, env)
    assert code == Exit.TOKEN_REJECTED
    said = failure(err)
    assert "Telegram refused BOT_TOKEN (401 Unauthorized)" in said
    assert "/token" in said


async def test_the_traceback_only_with_debug(fake_telegram: FakeTelegram, tmp_path: Path) -> None:
    env = env_for(fake_telegram, tmp_path, BOT_TOKEN="999:revoked-token", BOT_LOG_LEVEL="DEBUG")
    code, _, err = await cli(tmp_path, env)
    assert code == Exit.TOKEN_REJECTED
    assert "Traceback" in err and "TelegramUnauthorizedError" in err
    said = "start-up failed: Telegram refused BOT_TOKEN"
    assert any(line.startswith(said) for line in err.splitlines()), err


async def test_an_unreachable_bot_api_names_its_url(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    base = f"http://127.0.0.1:{closed_port()}"
    env = env_for(fake_telegram, tmp_path, BOT_API_BASE=base)
    code, _, err = await cli(tmp_path, env)
    assert code == Exit.UNREACHABLE
    said = failure(err)
    assert f"the Bot API at {base} is unreachable (" in said
    assert "BOT_API_BASE" in said


async def test_another_instance_polling(fake_telegram: FakeTelegram, tmp_path: Path) -> None:
    fake_telegram.other_poller = True
    code, _, err = await cli(tmp_path, env_for(fake_telegram, tmp_path))
    assert code == Exit.ANOTHER_INSTANCE
    assert "another instance of the bot is polling with this token (409 Conflict)" in failure(err)
    assert fake_telegram.count("setMyCommands") == 0  # stopped before doing anything


async def test_a_webhook_left_set_is_named_and_kept_until_deleted(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    fake = fake_telegram
    fake.webhook = {"url": WEBHOOK, "secret_token": None, "allowed_updates": None}
    env = env_for(fake, tmp_path)
    code, _, err = await cli(tmp_path, env)
    assert code == Exit.WEBHOOK_SET
    said = failure(err)
    assert f"Telegram has a webhook set ({WEBHOOK}), but BOT_WEBHOOK_URL is empty" in said
    assert "python -m bot delete-webhook" in said and "BOT_WEBHOOK_URL" in said
    assert fake.webhook is not None and fake.count("deleteWebhook") == 0  # the operator's

    code, out, err = await cli(tmp_path, env, "delete-webhook")
    assert code == 0, err
    assert (
        out.strip() == f"webhook {WEBHOOK} deleted (pending updates kept): python -m bot now polls"
    )
    assert fake.webhook is None
    call = fake.calls("deleteWebhook")[-1]
    assert not call.params.get("drop_pending_updates")
    code, out, _ = await cli(tmp_path, env, "delete-webhook")
    assert code == 0 and out.strip() == "no webhook is set: nothing to do"


async def test_a_database_that_cannot_be_written(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("a file where the folder should be", encoding="utf-8")
    code, _, err = await cli(tmp_path, env_for(fake_telegram, tmp_path))  # data/bot.sqlite3
    assert code == Exit.DATABASE
    said = failure(err)
    assert f"database {blocker / 'bot.sqlite3'} cannot be opened for writing" in said
    assert fake_telegram.requests == []


async def test_a_database_from_a_newer_bot(fake_telegram: FakeTelegram, tmp_path: Path) -> None:
    path = tmp_path / "data" / "bot.sqlite3"
    path.parent.mkdir()
    newer = len(migrations()) + 1
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {newer}")
    code, _, err = await cli(tmp_path, env_for(fake_telegram, tmp_path))
    assert code == Exit.DATABASE
    said = failure(err)
    assert f"has schema {newer}, this bot knows {newer - 1}" in said
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == newer  # left as it was


async def test_a_good_start_is_one_line(fake_telegram: FakeTelegram, tmp_path: Path) -> None:
    fake = fake_telegram
    env = env_for(fake, tmp_path, BOT_POLLING_TIMEOUT_S="1")
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
        await fake.wait_until(lambda: fake.count("getUpdates") >= 2, timeout=60)  # probe, poll
        proc.send_signal(signal.SIGTERM)
        _, err = await asyncio.wait_for(proc.communicate(), timeout=30)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    assert proc.returncode == 0, err.decode()
    lines = err.decode().strip().splitlines()
    database = tmp_path / "data" / "bot.sqlite3"
    started = (
        f'msg="started: @{fake.bot_username}, polling, database {database}, '
        '0 running table(s) resumed"'
    )
    assert len(lines) == 1 and lines[0].endswith(started), lines  # aiogram's chatter is gone
    assert fake.count("deleteWebhook") == 0
