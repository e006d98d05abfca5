"""``python -m bot check [--quick]``: is this deployment fine? One line per finding, exit 0 when
all is, else non-zero with the reason on the last line: 8 when the database is one the bot would
not start on (as the start exits: not writable, damaged, newer), else 1.

Checks the settings, opens (and migrates) the database — its schema version and row counts —,
calls ``getMe`` with the token and, in webhook mode, ``getWebhookInfo`` (is the URL the one set?);
in polling mode the start's own probes (``bot/startup.py``: no webhook set, nobody else polling).
``--quick`` (the container's HEALTHCHECK) asks the running bot's own ``/healthz`` when it has an
HTTP server, else only opens the database: it never calls Telegram.
"""

from __future__ import annotations

import asyncio
import json
import sys
import urllib.request
from collections.abc import Callable

from aiogram.exceptions import TelegramAPIError, TelegramNetworkError

from bot.config import Settings, database_label, host_port
from bot.logsafe import safe
from bot.startup import Exit, StartFailed, open_database, probe_me, probe_polling, unreachable
from bot.storage import latest_schema

COUNTED = ("chats", "users", "tables", "seats", "matches", "actions", "messages", "updates")


class CheckFailed(Exception):
    """The one-line reason ``check`` failed, and its exit code."""

    def __init__(self, reason: str, code: Exit = Exit.UNEXPECTED) -> None:
        super().__init__(reason)
        self.code = code


async def check(settings: Settings, say: Callable[[str], None], *, quick: bool = False) -> None:
    say(f"settings: ok (mode {settings.mode})")
    if quick and (settings.mode == "webhook" or settings.health_listen is not None):
        listen = settings.webhook_listen if settings.mode == "webhook" else settings.health_listen
        assert listen is not None
        say(f"healthz: {await asyncio.to_thread(_healthz, listen)}")
        return
    await _database(settings, say)
    if quick:
        return
    if settings.redis_url is not None:
        await _redis(settings.redis_url, settings.workers, say)
    await _telegram(settings, say)


async def _redis(url: str, workers: int, say: Callable[[str], None]) -> None:
    """Several workers: Redis answers (``PING``) and its server version."""
    try:
        from bot.coordination.redis_locks import connect

        client = connect(url)
        try:
            await client.ping()
            version = (await client.info("server")).get("redis_version", "?")
        finally:
            await client.aclose()
    except Exception as error:  # missing extra, refused, auth: all one finding
        raise CheckFailed(f"redis: {error}") from error
    say(f"redis: ok (server {version}, {workers} worker(s))")


async def _database(settings: Settings, say: Callable[[str], None]) -> None:
    label = database_label(settings.database)
    try:
        db = await open_database(settings)  # the start's own probe: intact, writable, not newer
    except StartFailed as failed:
        raise CheckFailed(failed.message, failed.code) from failed
    except Exception as error:  # any other reason the database cannot be opened or migrated
        raise CheckFailed(f"database {label}: {safe(error)}", Exit.DATABASE) from error
    try:
        version = await db.schema_version()
        say(f"database: {label} schema {version} of {latest_schema(settings.database)}")
        counts = [f"{table}={await db.count(table)}" for table in COUNTED]  # names: COUNTED
        say("rows: " + " ".join(counts))
    except Exception as error:  # a read failing past the probes: one line all the same
        raise CheckFailed(
            f"database {label} cannot be read ({safe(error)})", Exit.DATABASE
        ) from error
    finally:
        await db.close()


async def _telegram(settings: Settings, say: Callable[[str], None]) -> None:
    from bot.app import build_bot

    bot = build_bot(settings)
    try:
        me = await probe_me(bot, settings)  # the start's own probe: placeholder, 401, network
        say(f"bot: @{me.username} (id {me.id})")
        if settings.webhook_url is None:
            await probe_polling(bot, settings)  # no webhook left set, nobody else polling
        else:
            info = await bot.get_webhook_info()
            say(f"webhook: {info.url or '(none)'}, {info.pending_update_count} pending")
            if info.last_error_message:
                say(f"webhook last error: {info.last_error_message}")
            if info.url != settings.webhook_url:
                raise CheckFailed(
                    f"Telegram's webhook is {info.url or 'not set'}, BOT_WEBHOOK_URL is "
                    f"{settings.webhook_url} (the bot sets it at start)"
                )
    except StartFailed as failed:
        raise CheckFailed(failed.message) from failed
    except (TelegramNetworkError, TimeoutError, OSError) as error:
        raise CheckFailed(unreachable(settings, error).message) from error
    except TelegramAPIError as error:
        raise CheckFailed(f"Telegram: {error.message}") from error
    finally:
        await bot.session.close()


def _healthz(listen: str) -> str:
    host, port = host_port(listen)
    if host in ("0.0.0.0", "::", ""):
        host = "127.0.0.1"
    url = f"http://{host}:{port}/healthz"
    try:
        with urllib.request.urlopen(url, timeout=5) as response:  # our own server
            body = json.loads(response.read())
    except (OSError, ValueError) as error:
        raise CheckFailed(f"{url}: {error}") from error
    if not body.get("ok"):
        raise CheckFailed(f"{url}: {body}")
    return f"{url} ok"


def _say(line: str) -> None:
    sys.stdout.write(line + "\n")


def check_main(argv: list[str], settings: Settings) -> int:
    quick = "--quick" in argv
    if any(a != "--quick" for a in argv):
        sys.stderr.write("usage: python -m bot check [--quick]\n")
        return 2
    try:
        asyncio.run(check(settings, _say, quick=quick))
    except CheckFailed as failed:
        sys.stderr.write(f"check failed: {failed}\n")
        return int(failed.code)
    sys.stdout.write("all fine\n")
    return 0
