"""The bot's own HTTP server (aiohttp): Telegram's webhook and ``GET /healthz``.

Webhook mode (``BOT_WEBHOOK_URL`` set): aiogram's :class:`SimpleRequestHandler` at the URL's
path checks ``X-Telegram-Bot-Api-Secret-Token`` (a request without it or with another gets 401
and reaches no handler) and answers Telegram once the update was handled, so a 200 means done;
a redelivery is skipped by :class:`bot.updates.OnceOnly`. At start ``setWebhook`` (the secret,
the update types the dispatcher handles, pending updates kept); a clean stop leaves the webhook
in place, so Telegram keeps what arrives meanwhile and delivers it after the restart.

Polling mode: no server unless ``BOT_HEALTH_LISTEN`` is set (then only ``/healthz``).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Literal

from aiogram import Bot, Dispatcher
from aiogram.webhook.aiohttp_server import SimpleRequestHandler, setup_application
from aiohttp import web

from bot.config import Settings, host_port
from bot.storage.protocol import Store

logger = logging.getLogger(__name__)


async def health(db: Store, mode: Literal["webhook", "polling"]) -> tuple[bool, dict[str, object]]:
    """Whether the bot is fine, and the small JSON ``/healthz`` answers with."""
    try:
        reachable = await db.ping()
    except Exception:  # any failure of the database counts as unreachable
        logger.exception("healthz: the database did not answer")
        reachable = False
    return reachable, {"ok": reachable, "database": reachable, "mode": mode}


def build_app(
    settings: Settings, db: Store, bot: Bot | None = None, dp: Dispatcher | None = None
) -> web.Application:
    """``/healthz``, and the webhook when ``bot`` and ``dp`` are given."""
    app = web.Application()

    async def healthz(request: web.Request) -> web.Response:
        ok, body = await health(db, settings.mode)
        return web.json_response(body, status=200 if ok else 503)

    app.router.add_get("/healthz", healthz)
    if bot is not None and dp is not None:
        secret = settings.webhook_secret
        handler = SimpleRequestHandler(
            dp,
            bot,
            handle_in_background=False,  # 200 only once handled; redeliveries are skipped
            secret_token=secret.get_secret_value() if secret else None,
        )
        # not handler.register(): that closes the bot's session at shutdown, before the
        # outbox had its last say; running_bot closes it
        app.router.add_post(settings.webhook_path, handler.handle)
        setup_application(app, dp, bot=bot)
    return app


@contextlib.asynccontextmanager
async def serving(app: web.Application, listen: str) -> AsyncIterator[str]:
    """The app listening on ``host:port``; yields the address it bound (``host:port``)."""
    host, port = host_port(listen)
    runner = web.AppRunner(app, handler_cancellation=True, shutdown_timeout=2.0)
    await runner.setup()
    try:
        site = web.TCPSite(runner, host, port)
        await site.start()
        server = site._server
        sockets = getattr(server, "sockets", None) or []
        bound = sockets[0].getsockname() if sockets else (host, port)
        logger.info("listening on %s:%s", bound[0], bound[1])
        yield f"{bound[0]}:{bound[1]}"
    finally:
        await runner.cleanup()


async def set_webhook(bot: Bot, dp: Dispatcher, settings: Settings) -> list[str]:
    """``setWebhook`` with the secret and the update types the dispatcher handles."""
    assert settings.webhook_url is not None and settings.webhook_secret is not None
    allowed = dp.resolve_used_update_types()
    await bot.set_webhook(
        settings.webhook_url,
        secret_token=settings.webhook_secret.get_secret_value(),
        allowed_updates=allowed,
        drop_pending_updates=False,
    )
    return allowed
