"""``python -m bot check`` against the fake Bot API (a child process), the webhook settings'
one-line errors, and the one log line per update."""

from __future__ import annotations

import asyncio
import logging
import re
import sys
from pathlib import Path

import pytest

from bot.app import RunningBot
from bot.storage.db import migrations
from tests.bot.helpers import lobby_message
from tests.bot.test_startup import clean_env
from tests.fakeapi import FakeTelegram

SECRET = "s3cret-of-the-webhook_0123456789"


async def cli(tmp_path: Path, env: dict[str, str], *args: str) -> tuple[int, str, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        *args,
        cwd=tmp_path,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), timeout=60)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


def env_for(fake: FakeTelegram, tmp_path: Path, **extra: str) -> dict[str, str]:
    return clean_env(
        BOT_TOKEN=fake.token,
        BOT_API_BASE=fake.base_url,
        BOT_DATABASE=str(tmp_path / "data" / "bot.sqlite3"),
        **extra,
    )


async def test_check_reports_schema_rows_and_the_bot_and_exits_0(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    code, out, err = await cli(tmp_path, env_for(fake_telegram, tmp_path), "check")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "settings: ok (mode polling)"
    latest = len(migrations())
    assert re.fullmatch(rf"database: .*bot\.sqlite3 schema {latest} of {latest}", lines[1])
    assert lines[2].startswith("rows: chats=0 users=0 tables=0 ")
    assert lines[3] == f"bot: @{fake_telegram.bot_username} (id {fake_telegram.bot_id})"
    assert lines[-1] == "all fine"
    assert fake_telegram.count("getWebhookInfo") == 1  # polling: no webhook may be left set


async def test_check_in_webhook_mode_says_the_webhook_is_not_set_yet(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    env = env_for(
        fake_telegram,
        tmp_path,
        BOT_WEBHOOK_URL="https://bot.example.org/tg",
        BOT_WEBHOOK_SECRET=SECRET,
    )
    code, out, err = await cli(tmp_path, env, "check")
    assert code == 1
    assert "webhook: (none), 0 pending" in out
    assert err.strip().splitlines() == [
        "check failed: Telegram's webhook is not set, BOT_WEBHOOK_URL is "
        "https://bot.example.org/tg (the bot sets it at start)"
    ]
    assert fake_telegram.count("getWebhookInfo") == 1


async def test_check_with_a_token_telegram_refuses_fails_in_one_line(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    env = env_for(fake_telegram, tmp_path)
    env["BOT_TOKEN"] = "999:not-the-fakes-token"
    code, _, err = await cli(tmp_path, env, "check")
    assert code == 1
    refused = "check failed: Telegram refused BOT_TOKEN (401 Unauthorized): "
    [line] = err.strip().splitlines()
    assert line.startswith(refused)


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        (
            {"BOT_WEBHOOK_URL": "https://bot.example.org/tg"},
            "configuration error: BOT_WEBHOOK_SECRET is required when BOT_WEBHOOK_URL is set",
        ),
        (
            {"BOT_WEBHOOK_URL": "ftp://x", "BOT_WEBHOOK_SECRET": SECRET},
            "configuration error: BOT_WEBHOOK_URL: must be an https:// URL",
        ),
        (
            {"BOT_WEBHOOK_URL": "https://x.org/", "BOT_WEBHOOK_SECRET": "short"},
            "configuration error: BOT_WEBHOOK_SECRET: must be 16-256 characters",
        ),
        (
            {"BOT_WEBHOOK_LISTEN": "0.0.0.0:99999"},
            "configuration error: BOT_WEBHOOK_LISTEN: must be host:port with a port 1-65535",
        ),
        (
            {"BOT_HEALTH_LISTEN": "localhost"},
            "configuration error: BOT_HEALTH_LISTEN: must be host:port",
        ),
    ],
)
async def test_bad_webhook_settings_stop_with_one_line_exit_2(
    fake_telegram: FakeTelegram, tmp_path: Path, extra: dict[str, str], expected: str
) -> None:
    code, out, err = await cli(tmp_path, env_for(fake_telegram, tmp_path, **extra), "check")
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert err.startswith(expected), err
    assert not (tmp_path / "data").exists()  # nothing was opened


def update_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "bot.updates"]


async def test_one_log_line_per_update_for_a_command_and_presses(
    fake_telegram: FakeTelegram, bot: RunningBot, caplog: pytest.LogCaptureFixture
) -> None:
    fake = fake_telegram
    caplog.set_level(logging.INFO, logger="bot.updates")
    anna = fake.add_user(101, "Anna", language_code="ru")
    boris = fake.add_user(102, "Boris", language_code="ru")
    group = fake.add_group(-1001, "Пятница", members=[101, 102])
    await boris.start_bot()
    await anna.send(group, "/newgame mushka")
    await fake.wait_until(lambda: lobby_message(group) is not None, timeout=10)
    lobby = lobby_message(group)
    assert lobby is not None
    await boris.press(lobby, "✋")
    again = await boris.press(lobby, "✋")  # already seated: refused
    assert again.text
    await fake.settle(quiet=0.05)
    lines = update_lines(caplog)
    command = re.compile(
        r"event=update update=\d+ kind=message chat=-1001 user=101 table=- "
        r"action=/newgame ms=\d+ outcome=ok"
    )
    join = re.compile(
        r"event=update update=\d+ kind=callback_query chat=-1001 user=102 table=(\d+) "
        r"action=l:j ms=\d+ outcome=(ok|refused\S*)"
    )
    assert [line for line in lines if command.fullmatch(line)], lines
    joins = [m for line in lines if (m := join.fullmatch(line))]
    assert [m.group(2) for m in joins] == ["ok", "refused"], lines
    assert {m.group(1) for m in joins} == {"1"}
    ids = [int(line.split()[1].removeprefix("update=")) for line in lines]
    assert len(ids) == len(set(ids))  # one line per update


def test_the_key_value_formatter_quotes_what_needs_it() -> None:
    from bot.middlewares.updates import KeyValueFormatter

    record = logging.LogRecord("bot.x", logging.WARNING, __file__, 1, 'a "b" = c', None, None)
    line = KeyValueFormatter().format(record)
    assert re.fullmatch(r'ts=\S+ level=WARNING logger=bot\.x msg="a \\"b\\" = c"', line), line
    record.fields = {"event": "update", "chat": None, "action": "/newgame"}
    line = KeyValueFormatter().format(record)
    assert line.endswith(" logger=bot.x event=update chat=- action=/newgame"), line
