"""The bot's HTTP server against a hostile client, on 127.0.0.1: a secret header
that is not even ASCII gets 401 (not a 500 with a traceback), on the one-process path and on
the several-workers (Redis) path; a connection that sends half its headers, or half its body,
is closed within bounded time; a body over the limit gets 413."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator

import pytest
from pydantic import SecretStr

from bot.app import RunningBot, running_bot
from bot.config import Settings, host_port
from bot.web import HttpLimits, build_app, secret_matches, serving
from tests.bot.helpers import fixed_seeds, watched
from tests.bot.test_webhook import HEADER, SECRET, free_port
from tests.fakeapi import FakeTelegram

QUICK = HttpLimits(headers_s=0.5, body_s=0.5, max_body=4096)
BOUND_S = 5.0  # the server has closed by then (QUICK's limits are half a second)


@pytest.fixture(params=["one process", "several workers"])
async def hooked_any(
    request: pytest.FixtureRequest, settings: Settings, fake_telegram: FakeTelegram, redis_url: str
) -> AsyncIterator[RunningBot]:
    """A webhook bot; with Redis, its requests go through the workers' gate too."""
    port = free_port()
    changes: dict[str, object] = {
        "webhook_url": f"http://127.0.0.1:{port}/tg/hook",
        "webhook_secret": SecretStr(SECRET),
        "webhook_listen": f"127.0.0.1:{port}",
    }
    if request.param == "several workers":
        changes["redis_url"] = redis_url
    webhook = settings.model_copy(update=changes)
    async with watched(fake_telegram, running_bot(webhook, seeds=fixed_seeds())) as running:
        yield running


async def exchange(listening: str, raw: bytes, *, half_close: bool = False) -> tuple[bytes, float]:
    """Send ``raw`` bytes; everything the server answers until it closes, and how long that
    took (the test fails if it has not closed within ``BOUND_S``)."""
    host, port = host_port(listening)
    reader, writer = await asyncio.open_connection(host, port)
    started = time.monotonic()
    try:
        writer.write(raw)
        await writer.drain()
        if half_close:
            writer.write_eof()
        answer = await asyncio.wait_for(reader.read(), BOUND_S)  # until the server closes
    finally:
        writer.close()
    return answer, time.monotonic() - started


def request_bytes(path: str, secret: bytes, body: bytes) -> bytes:
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n"
    ).encode()
    return head + HEADER.encode() + b": " + secret + b"\r\n\r\n" + body


@pytest.mark.parametrize(
    "secret",
    ["секрет".encode(), b"\xff\xfe-not-utf-8", "s3cret-of-the-webhook_012345678ё".encode()],
)
async def test_a_secret_header_that_is_not_ascii_gets_401_and_no_traceback(
    hooked_any: RunningBot, caplog: pytest.LogCaptureFixture, secret: bytes
) -> None:
    assert hooked_any.listening is not None
    body = b'{"update_id": 1}'
    with caplog.at_level(logging.ERROR):
        answer, _ = await exchange(hooked_any.listening, request_bytes("/tg/hook", secret, body))
    assert answer.startswith(b"HTTP/1.1 401 "), answer[:200]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    good, _ = await exchange(hooked_any.listening, request_bytes("/tg/hook", SECRET.encode(), body))
    assert good.startswith(b"HTTP/1.1 200 "), good[:200]  # the right one still passes


def test_the_secret_is_compared_as_bytes_whatever_the_header_holds() -> None:
    assert secret_matches(SECRET, SECRET)
    for other in (None, "", SECRET[:-1], SECRET + "0", SECRET.upper(), "ё" * 32, "\udcff" * 3):
        assert not secret_matches(other, SECRET)


@pytest.fixture
async def quick_server(hooked_any: RunningBot) -> AsyncIterator[str]:
    """The running bot's webhook and ``/healthz`` served again with half-second limits."""
    running = hooked_any
    dp = running.dispatcher
    gate = running.services.coordination.gate
    app = build_app(dp["settings"], running.db, running.bot, dp, gate, limits=QUICK)
    async with serving(app, "127.0.0.1:0") as listening:
        yield listening


async def test_half_the_headers_then_silence_is_closed_in_bounded_time(quick_server: str) -> None:
    answer, took = await exchange(quick_server, b"POST /tg/hook HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    assert answer == b""  # closed without an answer
    assert took < BOUND_S


async def test_an_idle_connection_is_closed_in_bounded_time(quick_server: str) -> None:
    answer, took = await exchange(quick_server, b"")
    assert answer == b"" and took < BOUND_S


def half_body(secret: bytes) -> bytes:
    """A webhook request whose body stops after 10 of its 1,000 bytes."""
    return request_bytes("/tg/hook", secret, b"{" * 1000)[:-990]


async def test_half_the_body_gets_408_and_is_closed(quick_server: str) -> None:
    answer, took = await exchange(quick_server, half_body(SECRET.encode()))
    assert answer.startswith(b"HTTP/1.1 408 "), answer[:200]
    assert took < BOUND_S


async def test_without_the_secret_the_body_is_never_waited_for(quick_server: str) -> None:
    answer, took = await exchange(quick_server, half_body(b"not-the-secret-0123456789"))
    assert answer.startswith(b"HTTP/1.1 401 "), answer[:200]
    assert took < QUICK.body_s  # answered at once, not after the body's time ran out


async def test_a_body_over_the_limit_gets_413(quick_server: str) -> None:
    body = b"x" * (QUICK.max_body + 1)
    answer, _ = await exchange(quick_server, request_bytes("/tg/hook", SECRET.encode(), body))
    assert answer.startswith(b"HTTP/1.1 413 "), answer[:200]


async def test_the_webhook_refuses_an_update_over_the_default_limit(hooked_any: RunningBot) -> None:
    assert hooked_any.listening is not None
    pad = "x" * HttpLimits().max_body
    body = f'{{"update_id": 7, "pad": "{pad}"}}'.encode()
    answer, _ = await exchange(
        hooked_any.listening, request_bytes("/tg/hook", SECRET.encode(), body)
    )
    assert answer.startswith(b"HTTP/1.1 413 "), answer[:200]


@pytest.mark.parametrize(
    "body",
    [
        b"{not json",
        b"\xff\xfe not even UTF-8",
        b"[1, 2]",
        b'"an update"',
        b"null",
        b'{"no_update_id": 1}',
        b'{"update_id": "seven"}',
        b'{"update_id": 7, "message": "hello"}',
    ],
    ids=["not-json", "not-utf8", "list", "string", "null", "no-id", "bad-id", "bad-message"],
)
async def test_a_body_with_the_secret_that_is_no_update_gets_400_and_one_line(
    hooked_any: RunningBot, caplog: pytest.LogCaptureFixture, body: bytes
) -> None:
    assert hooked_any.listening is not None
    with caplog.at_level(logging.INFO):
        answer, _ = await exchange(
            hooked_any.listening, request_bytes("/tg/hook", SECRET.encode(), body)
        )
    assert answer.startswith(b"HTTP/1.1 400 "), answer[:300]
    assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert not [r.getMessage() for r in caplog.records if r.exc_info]
    said = [r.getMessage() for r in caplog.records if r.name == "bot.web" and r.levelno >= 30]
    assert len(said) == 1 and "no update, answered 400: not " in said[0], said
    good = b'{"update_id": 8}'
    again, _ = await exchange(
        hooked_any.listening, request_bytes("/tg/hook", SECRET.encode(), good)
    )
    assert again.startswith(b"HTTP/1.1 200 "), again[:200]  # and the server serves on
