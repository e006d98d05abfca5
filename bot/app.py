"""The composition root: ``build_bot``, ``build_dispatcher`` and ``running_bot``."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

from aiogram import Bot, Dispatcher
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.types import BotCommand, BotCommandScopeAllGroupChats, BotCommandScopeAllPrivateChats

from bot.callbacks import PressCodec
from bot.config import Settings
from bot.i18n import Catalogues, Translator
from bot.middlewares import ChatContext
from bot.routers import make_root_router
from bot.routers.common import member_lookup
from bot.sending.publisher import Publisher
from bot.sending.sender import Sender
from bot.sending.session import TelegramLimits
from bot.services.locks import TableLocks
from bot.services.members import Members
from bot.services.tables import NewGame, TableService
from bot.storage.db import Database
from engine.games import new_game

logger = logging.getLogger(__name__)


def build_bot(settings: Settings) -> Bot:
    session = AiohttpSession(api=TelegramAPIServer.from_base(settings.api_base))
    session.middleware(TelegramLimits())
    return Bot(
        settings.token.get_secret_value(),
        session=session,
        default=DefaultBotProperties(parse_mode="HTML", link_preview_is_disabled=True),
    )


def build_dispatcher(
    settings: Settings,
    db: Database,
    bot: Bot,
    bot_username: str,
    *,
    new_game_fn: NewGame = new_game,
    seeds: Callable[[], int] | None = None,
    monotonic: Callable[[], float] = time.monotonic,
) -> Dispatcher:
    catalogues = Catalogues.load(settings.locales, settings.default_language)
    codec = PressCodec.from_token(settings.token.get_secret_value())
    tables = (
        TableService(db, new_game_fn=new_game_fn)
        if seeds is None
        else TableService(db, new_game_fn=new_game_fn, seeds=seeds)
    )
    publisher = Publisher(
        Sender(bot, tables.repo),
        tables,
        catalogues,
        codec,
        bot_username,
        computer_delay=settings.computer_delay_s,
    )
    dp = Dispatcher(
        settings=settings,
        catalogues=catalogues,
        codec=codec,
        tables=tables,
        publisher=publisher,
        locks=TableLocks(),
        members=Members(member_lookup(bot), clock=monotonic),
    )
    context = ChatContext(tables.repo, catalogues)
    dp.message.outer_middleware(context)
    dp.callback_query.outer_middleware(context)
    dp.include_router(make_root_router())
    return dp


def commands(tr: Translator, private: bool) -> list[BotCommand]:
    items = [
        ("score", tr("Scores")),
        ("rules", tr("Rules")),
        ("help", tr("Help")),
        ("hand", tr("My cards")),
        ("language", tr("Language")),
    ]
    if not private:
        items = [("newgame", tr("New table")), *items, ("cancel", tr("Cancel table"))]
    return [BotCommand(command=c, description=d) for c, d in items]


async def register_commands(bot: Bot, catalogues: Catalogues) -> None:
    for locale in ("ru", "en"):
        tr = catalogues.tr(locale)
        for private, scope in (
            (False, BotCommandScopeAllGroupChats()),
            (True, BotCommandScopeAllPrivateChats()),
        ):
            await bot.set_my_commands(commands(tr, private), scope=scope, language_code=locale)
            if locale == catalogues.default:
                await bot.set_my_commands(commands(tr, private), scope=scope)


@dataclass(slots=True)
class RunningBot:
    bot: Bot
    dispatcher: Dispatcher
    db: Database
    task: asyncio.Task[None]


@contextlib.asynccontextmanager
async def running_bot(
    settings: Settings,
    *,
    new_game_fn: NewGame = new_game,
    seeds: Callable[[], int] | None = None,
    monotonic: Callable[[], float] = time.monotonic,
) -> AsyncIterator[RunningBot]:
    """Open and migrate the DB, resume every running table, poll in the background.

    ``seeds`` replaces the random seed of each new pulka (tests make deals reproducible);
    ``monotonic`` is the clock of the short-lived caches (tests move it on).
    """
    db = await Database.open(settings.database)
    bot = build_bot(settings)
    try:
        me = await bot.get_me()
        dp = build_dispatcher(
            settings,
            db,
            bot,
            me.username or "",
            new_game_fn=new_game_fn,
            seeds=seeds,
            monotonic=monotonic,
        )
        catalogues: Catalogues = dp["catalogues"]
        await register_commands(bot, catalogues)
        publisher: Publisher = dp["publisher"]
        tables: TableService = dp["tables"]
        for table in await tables.repo.running_tables():
            try:
                await publisher.resume(table)
            except Exception:
                logger.exception("could not resume table %s", table.id)
        task = asyncio.create_task(
            dp.start_polling(
                bot,
                handle_signals=False,
                close_bot_session=False,
                polling_timeout=settings.polling_timeout_s,
            )
        )
        try:
            yield RunningBot(bot, dp, db, task)
        finally:
            with contextlib.suppress(RuntimeError):
                await dp.stop_polling()
            with contextlib.suppress(asyncio.CancelledError):
                await task
    finally:
        await bot.session.close()
        await db.close()
