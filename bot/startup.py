"""Start-up failures that explain themselves: the probes ``running_bot`` and ``python -m bot
check`` share, each turning what went wrong into :class:`StartFailed` — one or two lines saying
what to do, and the exit code of ``python -m bot`` (documented in ``bot/__main__.py``).

Order at start: the token is not the example's (no network, no file touched), the database
opens, is checked (a SQLite file: ``PRAGMA quick_check``), migrates and takes a write, ``getMe``
answers, and in polling mode Telegram has no webhook set and nobody else is polling (one
``getUpdates`` with ``timeout=0``, which confirms nothing). A webhook found in polling mode is
never deleted for the operator: the bot stops and says how to switch (``python -m bot
delete-webhook``, or set ``BOT_WEBHOOK_URL``).
"""

from __future__ import annotations

import sqlite3
from enum import IntEnum
from pathlib import Path
from typing import TYPE_CHECKING, Final

from aiogram.exceptions import (
    TelegramConflictError,
    TelegramNetworkError,
    TelegramUnauthorizedError,
)
from aiogram.methods import GetUpdates

from bot.callbacks import PressCodec, new_callback_secret
from bot.config import Settings, database_label
from bot.logsafe import safe
from bot.sending.outage import reason
from bot.storage import latest_schema, open_repository
from bot.storage.db import Damaged, MigrationFailed
from bot.storage.protocol import SecretName, Store
from bot.storage.repository import SqlRepository
from bot.storage.sqlite import SqliteRunner

if TYPE_CHECKING:
    from aiogram import Bot
    from aiogram.types import User

EXAMPLE_TOKEN: Final = "123456789:replace-with-your-token"
"""``BOT_TOKEN`` as ``.env.example`` has it (a test keeps the two the same)."""


class Exit(IntEnum):
    """``python -m bot``'s exit codes."""

    OK = 0
    UNEXPECTED = 1  # anything else (its traceback with BOT_LOG_LEVEL=DEBUG)
    CONFIGURATION = 2  # a setting missing or malformed
    EXAMPLE_TOKEN = 3  # BOT_TOKEN is still .env.example's placeholder
    TOKEN_REJECTED = 4  # getMe: 401 Unauthorized
    UNREACHABLE = 5  # the Bot API at BOT_API_BASE: DNS, refused, TLS, timeout
    ANOTHER_INSTANCE = 6  # getUpdates: 409 Conflict, someone else polls with this token
    WEBHOOK_SET = 7  # polling mode, but Telegram has a webhook set
    DATABASE = 8  # BOT_DATABASE not writable, damaged, or from a newer version of the bot


class StartFailed(Exception):
    """Why the bot cannot start: ``code`` is the exit code, the message says what to do."""

    def __init__(self, code: Exit, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def check_token(settings: Settings) -> None:
    if settings.token.get_secret_value() == EXAMPLE_TOKEN:
        raise StartFailed(
            Exit.EXAMPLE_TOKEN,
            "BOT_TOKEN is still the example from .env.example: "
            "put the token @BotFather gave your bot (/newbot or /token) into .env",
        )


async def open_database(settings: Settings) -> Store:
    """Open and migrate ``BOT_DATABASE`` (a SQLite file, or PostgreSQL) and, for a file, take one
    write; a newer schema than this bot's migrations is refused (its tables are not what this
    code writes)."""
    database = settings.database
    label = database_label(database)
    try:
        db = await open_repository(database)
    except Damaged as damaged:
        raise StartFailed(
            Exit.DATABASE,
            f"database {label} is damaged (quick_check: {safe(damaged)}): nothing was written — "
            f"restore a backup (`sqlite3 {label} .recover` may save what is left of it), or "
            "point BOT_DATABASE elsewhere",
        ) from damaged
    except MigrationFailed as failed:
        raise StartFailed(
            Exit.DATABASE,
            f"database {label} cannot be migrated: {failed} (rolled back, the schema stays at "
            f"{failed.number - 1}): its tables are not what this bot's migrations expect — "
            "restore a backup, or point BOT_DATABASE elsewhere",
        ) from failed
    except Exception as error:
        if isinstance(database, Path):
            if isinstance(error, OSError | sqlite3.Error):
                raise _not_writable(settings, error) from error
            raise
        # PostgreSQL: refused, unreachable, unknown database, wrong password …
        raise StartFailed(
            Exit.DATABASE,
            f"database {label} cannot be opened ({error}): check BOT_DATABASE, that the "
            "server runs and that this user may create tables there",
        ) from error
    try:
        version = await db.schema_version()
        known = latest_schema(database)
        if version > known:
            raise StartFailed(
                Exit.DATABASE,
                f"database {label} has schema {version}, this bot knows {known}: it was written "
                "by a newer version of the bot — run that version, or point BOT_DATABASE elsewhere",
            )
        runner = db.runner if isinstance(db, SqlRepository) else None
        if isinstance(runner, SqliteRunner):  # a write: fails if the file is read-only
            await runner.write(f"PRAGMA user_version = {version}")
    except (OSError, sqlite3.Error) as error:
        await db.close()
        raise _not_writable(settings, error) from error
    except BaseException:
        await db.close()
        raise
    return db


async def callback_codec(settings: Settings, db: Store) -> PressCodec:
    """The buttons' codec: its key is ``BOT_CALLBACK_SECRET``, or (unset) the one the database
    keeps — made by the first process that asks, shared by every worker — never the token."""
    configured = settings.callback_secret
    if configured is not None:
        secret = configured.get_secret_value()
    else:
        secret = await db.secret(SecretName.CALLBACK, new_callback_secret())
    return PressCodec.from_secret(secret, token=settings.token.get_secret_value())


def _not_writable(settings: Settings, error: BaseException) -> StartFailed:
    return StartFailed(
        Exit.DATABASE,
        f"database {database_label(settings.database)} cannot be opened for writing ({error}): "
        "check BOT_DATABASE and that the bot may write the file and its folder",
    )


def unreachable(settings: Settings, error: BaseException) -> StartFailed:
    return StartFailed(
        Exit.UNREACHABLE,
        f"the Bot API at {settings.api_base} is unreachable ({reason(error)}): "
        "check the network, a proxy or firewall, and BOT_API_BASE",
    )


async def probe_me(bot: Bot, settings: Settings) -> User:
    """``getMe``: the token is accepted and the Bot API answers."""
    check_token(settings)
    try:
        return await bot.get_me()
    except TelegramUnauthorizedError as error:
        raise StartFailed(
            Exit.TOKEN_REJECTED,
            "Telegram refused BOT_TOKEN (401 Unauthorized): the token is wrong or was revoked; "
            "get the current one from @BotFather (/token) and put it into .env",
        ) from error
    except (TelegramNetworkError, TimeoutError, OSError) as error:
        raise unreachable(settings, error) from error


async def probe_polling(bot: Bot, settings: Settings) -> None:
    """Polling mode: no webhook set (never deleted here), and nobody else polling."""
    try:
        info = await bot.get_webhook_info()
        if info.url:
            raise StartFailed(
                Exit.WEBHOOK_SET,
                f"Telegram has a webhook set ({info.url}), but BOT_WEBHOOK_URL is empty "
                "(polling).\nTo poll: python -m bot delete-webhook (pending updates are kept); "
                "to serve that webhook: set BOT_WEBHOOK_URL and BOT_WEBHOOK_SECRET.",
            )
        await bot(GetUpdates(limit=1, timeout=0))  # without an offset it confirms nothing
    except TelegramConflictError as error:
        raise StartFailed(
            Exit.ANOTHER_INSTANCE,
            "another instance of the bot is polling with this token (409 Conflict): "
            "stop it first — one token, one running bot",
        ) from error
    except (TelegramNetworkError, TimeoutError, OSError) as error:
        raise unreachable(settings, error) from error


async def delete_webhook(bot: Bot, settings: Settings) -> str:
    """``python -m bot delete-webhook``: switch Telegram back to polling, pending kept."""
    info = await probe_webhook_url(bot, settings)
    if not info:
        return "no webhook is set: nothing to do"
    await bot.delete_webhook(drop_pending_updates=False)
    return f"webhook {info} deleted (pending updates kept): python -m bot now polls"


async def probe_webhook_url(bot: Bot, settings: Settings) -> str:
    await probe_me(bot, settings)
    try:
        return (await bot.get_webhook_info()).url
    except (TelegramNetworkError, TimeoutError, OSError) as error:
        raise unreachable(settings, error) from error
