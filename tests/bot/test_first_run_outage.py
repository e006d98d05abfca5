"""A lost Bot API while the bot runs: aiogram's polling retries with back-off, the log says so
once when it goes and once when it is back, and the bot carries on (a relay on 127.0.0.1 in
front of the fake is cut and restored)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from aiogram import Bot
from aiogram.exceptions import TelegramNetworkError
from aiogram.methods import GetMe, SendMessage, TelegramMethod
from aiogram.types import Chat, Message

from bot.app import running_bot
from bot.config import Settings
from bot.sending.outage import DISPATCHER, Outage, OutageLog
from bot.sending.session import TelegramLimits
from tests.bot.helpers import fixed_seeds, lobby_message, open_table, watched
from tests.fakeapi import FakeTelegram

BOT = Bot("123456:TEST-token")


class Relay:
    """A TCP relay 127.0.0.1:port → the fake; ``cut()`` closes it and every connection (the
    next connect is refused), ``restore()`` listens on the same port again."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.port = 0
        self._server: asyncio.Server | None = None
        self._open: set[asyncio.StreamWriter] = set()

    async def restore(self) -> None:
        self._server = await asyncio.start_server(self._pipe, "127.0.0.1", self.port)
        self.port = self._server.sockets[0].getsockname()[1]

    async def cut(self) -> None:
        assert self._server is not None
        self._server.close()
        for writer in list(self._open):
            writer.transport.abort()
        self._open.clear()
        await self._server.wait_closed()
        self._server = None

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)
        except OSError:
            writer.transport.abort()
            return
        self._open |= {writer, up_writer}

        async def copy(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            with contextlib.suppress(OSError, asyncio.CancelledError):
                while chunk := await src.read(65536):
                    dst.write(chunk)
                    await dst.drain()
            dst.transport.abort()

        await asyncio.gather(copy(reader, up_writer), copy(up_reader, writer))
        self._open -= {writer, up_writer}


def test_one_line_per_outage_from_aiogrammes_retries() -> None:
    """aiogram's words for three failed attempts and the recovery become two lines."""
    seen: list[str] = []
    outage = Outage("https://api.example", clock=lambda: 100.0)
    log_filter = OutageLog(outage)

    def log(msg: str, *args: object, level: int = logging.ERROR) -> None:
        record = logging.LogRecord(DISPATCHER, level, __file__, 1, msg, args, None)
        if log_filter.filter(record):
            seen.append(f"{record.levelname} {record.getMessage()}")

    log("Start polling", level=logging.INFO)
    for _ in range(3):
        log("Failed to fetch updates - %s: %s", "TelegramNetworkError", "HTTP Client says - x")
        log("Sleep for %f seconds and try again... (tryings = %d, bot id = %d)", 1.0, 0, 1)
    log("Connection established (tryings = %d, bot id = %d)", 3, 1, level=logging.INFO)
    log("Failed to fetch updates - %s: %s", "TelegramConflictError", "Conflict: terminated")
    assert seen == [
        "WARNING lost the Bot API at https://api.example (x); retrying with back-off",
        "INFO the Bot API at https://api.example is back after 0 s (3 failed attempts)",
        "WARNING getUpdates: 409 Conflict, another instance is polling with this token; "
        "retrying with back-off",
    ]
    assert outage.outages == 1  # the conflict is no outage of the connection


async def test_a_send_during_an_outage_waits_for_the_bot_api() -> None:
    """A send that cannot reach the Bot API is retried with back-off (not dropped), the outage
    said once; getMe (a start-up probe) fails at once."""
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    outage = Outage("https://api.example", clock=lambda: 100.0)
    limits = TelegramLimits(sleep=sleep, outage=outage, network_wait=60)
    send = SendMessage(chat_id=7, text="x")
    down = TelegramNetworkError(method=send, message="HTTP Client says - refused")
    sent = Message(
        message_id=1, date=datetime.fromtimestamp(0, UTC), chat=Chat(id=7, type="private")
    )
    answers: list[object] = [down, down, down, sent]

    async def make_request(bot: Bot, method: TelegramMethod[Any]) -> Any:
        answer = answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    with caplog_lines() as lines:
        got: object = await limits(make_request, BOT, send)
        assert got is sent
    assert slept == [1.0, 2.0, 4.0]
    assert lines == [
        "WARNING lost the Bot API at https://api.example (refused); retrying with back-off",
        "INFO the Bot API at https://api.example is back after 0 s (3 failed attempts)",
    ]
    answers[:] = [TelegramNetworkError(method=GetMe(), message="refused")]
    with pytest.raises(TelegramNetworkError):
        await limits(make_request, BOT, GetMe())
    assert len(slept) == 3  # never retried


@contextlib.contextmanager
def caplog_lines() -> Iterator[list[str]]:
    """``LEVEL message`` of every record the session's logger emits meanwhile."""
    lines: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(f"{record.levelname} {record.getMessage()}")

    keep = Keep(logging.INFO)
    target = logging.getLogger("bot.sending.session")
    level = target.level
    target.addHandler(keep)
    target.setLevel(logging.INFO)
    try:
        yield lines
    finally:
        target.removeHandler(keep)
        target.setLevel(level)


async def test_a_lost_connection_is_logged_once_and_the_bot_carries_on(
    settings: Settings, fake_telegram: FakeTelegram, caplog: pytest.LogCaptureFixture
) -> None:
    fake = fake_telegram
    relay = Relay(int(fake.base_url.rsplit(":", 1)[1]))
    await relay.restore()
    via = settings.model_copy(update={"api_base": f"http://127.0.0.1:{relay.port}"})
    anna = fake.add_user(101, "Anna", language_code="ru")
    group = fake.add_group(-1001, "Пятница", members=[101])
    caplog.set_level(logging.INFO)
    async with watched(fake, running_bot(via)):
        await fake.wait_until(lambda: fake.count("getUpdates") >= 2, timeout=10)
        await relay.cut()
        cut_at = fake.count("getUpdates")
        await asyncio.sleep(4)  # aiogram's back-off: 1 s, 1.3 s, 1.7 s … — several attempts
        assert fake.count("getUpdates") == cut_at  # nothing got through
        await anna.send(group, "/newgame mushka")  # pressed while the bot can't see it
        await relay.restore()
        await fake.wait_until(lambda: lobby_message(group) is not None, timeout=20)
    lines = [r.getMessage() for r in caplog.records if r.name == DISPATCHER]
    lost = [line for line in lines if line.startswith("lost the Bot API")]
    back = [line for line in lines if line.startswith("the Bot API at")]
    assert len(lost) == 1 and f"http://127.0.0.1:{relay.port}" in lost[0]
    assert len(back) == 1
    attempts = int(back[0].rsplit("(", 1)[1].split()[0])
    assert attempts >= 2  # several attempts, one line
    assert not any(line.startswith(("Failed to fetch", "Sleep for")) for line in lines)


async def test_the_start_line_counts_the_running_tables_resumed(
    settings: Settings, fake_telegram: FakeTelegram, caplog: pytest.LogCaptureFixture
) -> None:
    fake = fake_telegram
    players = [fake.add_user(101, "Anna"), fake.add_user(102, "Boris"), fake.add_user(103, "Vera")]
    group = fake.add_group(-1001, "Пятница", admins=[101], members=[102, 103])
    other = fake.add_group(-1002, "Суббота", members=[101])
    caplog.set_level(logging.INFO, logger="bot.app")
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await open_table(fake, group, players)
        await players[0].send(other, "/newgame pamfil")  # a lobby: open, but not running
        await fake.wait_until(lambda: lobby_message(other) is not None, timeout=10)
        await fake.settle(quiet=0.05)
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await fake.settle(quiet=0.05)
    started = [r.getMessage() for r in caplog.records if r.getMessage().startswith("started: ")]
    assert started == [
        f"started: @{fake.bot_username}, polling, database {settings.database}, "
        f"{n} running table(s) resumed"
        for n in (0, 1)
    ]
