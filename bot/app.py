"""The composition root: ``build_bot``, ``build_dispatcher`` and ``running_bot``."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from aiogram import Bot, Dispatcher
from aiogram.client.default import DefaultBotProperties
from aiogram.client.telegram import TelegramAPIServer
from aiogram.types import BotCommand, BotCommandScopeAllGroupChats, BotCommandScopeAllPrivateChats

from bot.answers import Answers
from bot.book import OutboxBook
from bot.bus import Bus
from bot.caches.members import Members
from bot.caches.people import People
from bot.callbacks import PressCodec
from bot.config import Settings
from bot.coordination.locks import Leadership, Locks, TableLocks
from bot.delivery import Delivery, Presenter
from bot.drawing import Drawing
from bot.i18n import Catalogues, Translator
from bot.middlewares.chat import ChatContext
from bot.middlewares.seasons import SeasonEnd
from bot.middlewares.standing import BotStanding
from bot.middlewares.updates import OnceOnly, UpdateLog
from bot.records import RecordPosts, Records
from bot.reviews import Reviews
from bot.routers import make_root_router
from bot.routers.incoming import member_lookup
from bot.runtime.chat_commands import Resume, ResumeOwed
from bot.runtime.daily_boards import DailyBoards
from bot.runtime.handle import Runtime
from bot.runtime.seasons import Seasons
from bot.runtime.tables import NewGame
from bot.scheduling import Heartbeat, Scheduler
from bot.sending.json_session import JsonSession
from bot.sending.outage import DISPATCHER, Outage, OutageLog
from bot.sending.outbox import Outbox
from bot.sending.rates import OutboxLimits
from bot.sending.session import TelegramLimits
from bot.startup import callback_codec, check_token, open_database, probe_me, probe_polling
from bot.storage.protocol import Store
from bot.storage.rows import TableStatus
from bot.tasks import Background, ended
from bot.web import build_app, serving, set_webhook
from engine.games import new_game

if TYPE_CHECKING:  # Redis is an optional extra: pip install 'mushka-bot[redis]'
    from redis.asyncio import Redis

    from bot.coordination.redis_locks import RedisDrops, UpdateGate
    from bot.sending.redis_book import RedisBook, RedisRates

logger = logging.getLogger(__name__)


def build_bot(settings: Settings, outage: Outage | None = None) -> Bot:
    """The Bot API client; with ``outage`` (a running bot) a send, edit or delete that cannot
    reach the Bot API is retried with back-off instead of failing at once."""
    session = JsonSession(api=TelegramAPIServer.from_base(settings.api_base))
    session.middleware(TelegramLimits(outage=outage))
    return Bot(
        settings.token.get_secret_value(),
        session=session,
        default=DefaultBotProperties(parse_mode="HTML", link_preview_is_disabled=True),
    )


@dataclass(slots=True)
class Services:
    """Everything the handlers get, built once per running bot (no global state)."""

    repo: Store
    people: People
    runtime: Runtime
    outbox: Outbox
    delivery: Delivery
    scheduler: Scheduler
    heartbeat: Heartbeat
    coordination: Coordination
    drawing: Drawing  # charts off the event loop
    bus: Bus  # the scheduler's deadlines and the outbox's reports: handle, then delivery
    background: Background = field(default_factory=Background)


@dataclass(slots=True)
class Coordination:
    """What the workers share (``BOT_REDIS_URL``), or its one-process stand-ins."""

    locks: Locks
    leader: Leadership
    rates: RedisRates | None = None
    book: RedisBook | None = None
    gate: UpdateGate | None = None  # webhook mode: updates being handled, and done
    redis: Redis | None = None
    drops: RedisDrops | None = None  # membership answers dropped, for every worker

    @classmethod
    def of(cls, settings: Settings, limits: OutboxLimits) -> Coordination:
        if settings.redis_url is None:
            return cls(TableLocks(), Leadership())
        from bot.coordination.redis_locks import (
            RedisDrops,
            RedisLeader,
            RedisLocks,
            UpdateGate,
            connect,
        )
        from bot.sending.redis_book import RedisBook, RedisRates

        redis = connect(settings.redis_url)
        lease = settings.redis_lease_s
        return cls(
            RedisLocks(redis, lease=lease),
            RedisLeader(redis, lease=lease),
            RedisRates(redis, limits),
            RedisBook(redis, lease=lease),
            UpdateGate(redis, lease=lease) if settings.webhook_url is not None else None,
            redis,
            RedisDrops(redis),
        )

    async def close(self) -> None:
        if self.redis is not None:
            await self.redis.aclose()


def build_services(
    settings: Settings,
    repo: Store,
    bot: Bot,
    bot_username: str,
    catalogues: Catalogues,
    codec: PressCodec,
    *,
    new_game_fn: NewGame = new_game,
    seeds: Callable[[], int] | None = None,
    monotonic: Callable[[], float] = time.monotonic,
    clock: Callable[[], float] = time.time,
) -> Services:
    limits = OutboxLimits(
        group_ops=settings.group_per_minute,
        global_ops=settings.global_ops,
        ephemeral_ops=settings.ephemeral_per_minute,
        paid_broadcast=settings.paid_broadcast,
    ).scaled(settings.outbox_time_scale)
    shared = Coordination.of(settings, limits)
    keep = 1.0 if settings.redis_url is not None else None  # other workers change rows too
    people = People(repo, catalogues.default, keep=keep, clock=monotonic)
    members = Members(member_lookup(bot), clock=monotonic, wall=clock, drops=shared.drops)
    outbox = Outbox(bot, repo, limits, rates=shared.rates, book=shared.book)
    book = OutboxBook(outbox, codec)
    runtime = Runtime(
        repo,
        people,
        members,
        book,
        new_game_fn=new_game_fn,
        seeds=seeds,
        clock=clock,
        computer_delay=settings.computer_delay_s,
        turn_timeout=settings.turn_timeout_s,
        lobby_timeout=settings.lobby_timeout_s,
        idle_timeout=settings.idle_timeout_s,
        away_level=settings.away_level,
        ping_quiet=settings.ping_quiet_s,
        notify_delay=settings.notify_delay_s,
        notify_gap=settings.notify_gap_s,
        locks=shared.locks,
        hands_in_group=settings.hands_in_group,
        bot_id=bot.id,
    )
    presenter = Presenter(outbox, catalogues, codec, bot_username)

    def leading() -> bool:
        return scheduler.leading

    heartbeat = Heartbeat(repo, clock=clock, beating=leading)
    scheduler = Scheduler(
        clock=clock,
        leader=shared.leader,
        stored=runtime.queries.deadlines,
        on_lead=heartbeat.resume,
        lease=settings.redis_lease_s,
        look=settings.scheduler_look_s,
    )
    delivery = Delivery(presenter, scheduler, Answers(outbox, members, bot.id), book)
    background = Background()
    bus = Bus(runtime, delivery, background)
    outbox.report = bus.send  # what it can't deliver, or holds, comes back as a command
    return Services(
        repo,
        people,
        runtime,
        outbox,
        delivery,
        scheduler,
        heartbeat,
        shared,
        Drawing(catalogues),
        bus,
        background,
    )


def build_dispatcher(
    settings: Settings,
    catalogues: Catalogues,
    codec: PressCodec,
    services: Services,
    clock: Callable[[], float] = time.time,
) -> Dispatcher:
    records = Records(services.repo, services.runtime.ctx.new_game)
    seasons = Seasons(services.repo, clock)
    dp = Dispatcher(
        disable_fsm=True,  # no handler keeps FSM state: its middleware was a cost per update
        settings=settings,
        catalogues=catalogues,
        codec=codec,
        runtime=services.runtime,
        queries=services.runtime.queries,
        delivery=services.delivery,
        outbox=services.outbox,
        people=services.people,
        members=services.runtime.ctx.members,
        background=services.background,
        records=records,
        reviews=Reviews(services.repo, records),
        record_posts=RecordPosts(services.repo, clock),
        drawing=services.drawing,
        seasons=seasons,
        daily_boards=DailyBoards(services.repo, services.people, clock),
    )
    dp.update.outer_middleware(UpdateLog(codec))  # outermost: a skipped repeat is logged too
    if services.coordination.gate is None:  # several workers: the webhook's gate (bot/web.py)
        dp.update.outer_middleware(OnceOnly(services.repo, clock))
    dp.update.outer_middleware(ChatContext(services.people, catalogues))
    dp.update.outer_middleware(SeasonEnd(seasons, services.outbox))  # after ChatContext: chat_tr
    dp.message.outer_middleware(BotStanding(services.delivery.answers))
    dp.include_router(make_root_router())
    return dp


ALONE: Final = frozenset(
    {"daily", "score", "rules", "help", "hand", "notify", "language", "settings"}
)
"""The group commands declared ephemeral: what they answer concerns the asker alone (his
look at the rules or the scores, his cards, his pings, the settings pane he works in), so a
client may send them so and their answer goes to him alone. /newgame, /cancel and /kick act for
the whole group, and /record posts a game for everyone: they stay in the group's view."""


def commands(tr: Translator, private: bool) -> list[BotCommand]:
    items = [
        ("daily", tr("🗓 The day's deal")),
        ("score", tr("Scores")),
        ("record", tr("Game record")),
        ("rules", tr("Rules")),
        ("help", tr("Help")),
        ("hand", tr("My cards")),
        ("language", tr("Language")),
        ("settings", tr("Settings")),
    ]
    if private:  # a table of his own and computers, there and then
        items = [("practice", tr("🎮 Practice with the bot")), *items]
    else:
        items = [("newgame", tr("New table")), *items, ("cancel", tr("Cancel table"))]
        items.append(("kick", tr("Hand seat to computer")))  # PRODUCT.md §4.9, as a reply
        items.append(("notify", tr("Notify me of new tables")))
    return [
        BotCommand(
            command=c, description=d, is_ephemeral=True if not private and c in ALONE else None
        )
        for c, d in items
    ]


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
    db: Store  # the repository the bot opened (SQLite or PostgreSQL)
    task: asyncio.Task[None]  # polling, or (webhook mode) waiting for the server to stop
    services: Services
    listening: str | None = None  # host:port of the bot's HTTP server, if it has one


def _test_seeds(settings: Settings) -> Callable[[], int] | None:
    """``BOT_TEST_SEED``: fixed deal seeds for a bot the tests run as a subprocess."""
    if settings.test_seed is None:
        return None
    return itertools.count(settings.test_seed).__next__


async def resume(services: Services) -> None:
    """After a start: what the chats are still owed, then every open table's screens as the
    database has them, each a command through the runtime's ``handle``."""
    runtime = services.runtime
    try:
        services.delivery(await runtime.handle(ResumeOwed()))
    except Exception:
        logger.exception("could not draw again what the chats are owed")
    for table_id, reminded in await runtime.queries.resumes():
        try:
            services.delivery(await runtime.handle(Resume(table_id, reminded)))
        except Exception:
            logger.exception("could not resume table %s", table_id)


@contextlib.asynccontextmanager
async def running_bot(
    settings: Settings,
    *,
    new_game_fn: NewGame = new_game,
    seeds: Callable[[], int] | None = None,
    monotonic: Callable[[], float] = time.monotonic,
    clock: Callable[[], float] = time.time,
) -> AsyncIterator[RunningBot]:
    """Open and migrate the DB, bring every open table's screens up to date, start the
    scheduler, poll in the background — or, with ``BOT_WEBHOOK_URL``, serve the webhook and
    call ``setWebhook`` (``bot/web.py``).

    ``seeds`` makes each new match a seeded one (tests make deals reproducible; without it the
    deals are cryptographic, ``bot.runtime.deals``);
    ``monotonic`` is the clock of the short-lived caches, ``clock`` the wall clock of
    deadlines (tests move them on).
    """
    check_token(settings)
    db = await open_database(settings)
    outage = Outage(settings.api_base)
    bot = build_bot(settings, outage)
    services: Services | None = None
    outages = OutageLog(outage, verbose=settings.log_level == "DEBUG")
    logging.getLogger(DISPATCHER).addFilter(outages)
    try:
        me = await probe_me(bot, settings)
        if settings.webhook_url is None:
            await probe_polling(bot, settings)  # no webhook set, nobody else polling
        catalogues = Catalogues.load(settings.locales, settings.default_language)
        codec = await callback_codec(settings, db)
        services = build_services(
            settings,
            db,
            bot,
            me.username or "",
            catalogues,
            codec,
            new_game_fn=new_game_fn,
            seeds=seeds or _test_seeds(settings),
            monotonic=monotonic,
            clock=clock,
        )
        dp = build_dispatcher(settings, catalogues, codec, services, clock)
        await register_commands(bot, catalogues)
        await services.outbox.load()
        await resume(services)
        heartbeat = services.heartbeat
        if not services.coordination.leader.shared:  # several workers: when one leads
            await heartbeat.resume()  # the downtime is not counted against anyone's turn
        services.scheduler.start(await services.runtime.queries.deadlines(), services.bus.fire)
        heartbeat.start()
        try:
            async with contextlib.AsyncExitStack() as stack:
                task, listening = await _take_updates(
                    settings, bot, dp, db, stack, services.coordination.gate
                )
                tables = await services.repo.open_tables()
                running = sum(1 for row in tables if row.status == TableStatus.RUNNING)
                logger.info(
                    "started: @%s, %s, database %s, %d running table(s) resumed",
                    me.username,
                    "polling"
                    if settings.webhook_url is None
                    else f"webhook {settings.webhook_url}",
                    settings.database,
                    running,
                )
                try:
                    yield RunningBot(bot, dp, db, task, services, listening)
                finally:
                    await stopping("taking updates", _stop_updates(dp, task))
            # the HTTP server (if any) has stopped: no update comes in while the outbox drains
        finally:
            await stopping("the heartbeat", heartbeat.stop())  # its last beat while leading
            await stopping("the scheduler", services.scheduler.stop())
            services.background.cancel()
            drained = services.outbox.drain_for(settings.drain_s)
            await stopping("the outbox", drained, settings.drain_s + STOP_S)
            await stopping("the outbox's workers", services.outbox.close())
            await stopping("Redis", services.coordination.close())
    finally:
        logging.getLogger(DISPATCHER).removeFilter(outages)
        await stopping("the Bot API session", bot.session.close())
        await stopping("the database", db.close())


STOP_S = 15.0  # each step of a stop has this long (the outbox's drain: its own time, then more)


async def stopping(what: str, step: Awaitable[object], seconds: float | None = None) -> None:
    """One step of a stop, given ``seconds`` (:data:`STOP_S`): a step that hangs (an await that
    never returns) is logged and left behind, so the process still stops and every later step
    still runs (the database is closed last, whatever came before)."""
    limit = STOP_S if seconds is None else seconds
    try:
        async with asyncio.timeout(limit):
            await step
    except TimeoutError:
        logger.error("stop: %s did not stop within %.0f s; going on without it", what, limit)


async def _stop_updates(dp: Dispatcher, task: asyncio.Task[None]) -> None:
    try:
        await dp.stop_polling()
    except RuntimeError:  # webhook mode, or polling had not started yet
        task.cancel()
    await ended(task)


async def _until_cancelled() -> None:
    await asyncio.Event().wait()


async def _take_updates(
    settings: Settings,
    bot: Bot,
    dp: Dispatcher,
    db: Store,
    stack: contextlib.AsyncExitStack,
    gate: UpdateGate | None,
) -> tuple[asyncio.Task[None], str | None]:
    """Webhook mode: serve the webhook (and ``/healthz``), then ``setWebhook``; the task only
    waits. Polling: ``/healthz`` if ``BOT_HEALTH_LISTEN`` is set, then poll in the task."""
    if settings.webhook_url is not None:
        served = await stack.enter_async_context(
            serving(
                build_app(settings, db, bot, dp, gate),
                settings.webhook_listen,
                reuse_port=settings.redis_url is not None,
            )
        )
        if settings.worker_index in (None, 0):  # several workers: only the first one
            allowed = await set_webhook(bot, dp, settings)
            logger.debug("webhook update types %s", ",".join(allowed))
        return asyncio.create_task(_until_cancelled()), served
    listening: str | None = None
    if settings.health_listen is not None:
        listening = await stack.enter_async_context(
            serving(build_app(settings, db), settings.health_listen)
        )
    # a webhook left set was refused at start (bot/startup.py): never deleted for the operator
    task = asyncio.create_task(
        dp.start_polling(
            bot,
            handle_signals=False,
            close_bot_session=False,
            polling_timeout=settings.polling_timeout_s,
        )
    )
    return task, listening
