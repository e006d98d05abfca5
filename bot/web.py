"""The bot's own HTTP server (aiohttp): Telegram's webhook and ``GET /healthz``.

Webhook mode (``BOT_WEBHOOK_URL`` set): aiogram's :class:`SimpleRequestHandler` at the URL's
path, behind :func:`checked` — ``X-Telegram-Bot-Api-Secret-Token`` compared in constant time as
bytes (a request without it, with another, or with one not even ASCII gets 401 and reaches no
handler) — answers Telegram once the update was handled, so a 200 means done;
a redelivery is skipped by :class:`bot.middlewares.updates.OnceOnly`. A body with the right
secret that is no update — not JSON, not an object, not an Update — gets 400 and one warning
line (:class:`UpdateHandler`), on one process and on several workers alike. At start
``setWebhook`` (the secret, the update types the dispatcher handles, pending updates kept); a
clean stop leaves the webhook in place, so Telegram keeps what arrives meanwhile and delivers
it after the restart.

Polling mode: no server unless ``BOT_HEALTH_LISTEN`` is set (then only ``/healthz``).

Either way the server bounds what a client may hold (:class:`HttpLimits`): a connection that
has not sent a request's headers within ``headers_s`` (or sits idle that long between
requests) is closed; the webhook's body (read only once the secret matched) must arrive within
``body_s`` (else 408, the connection closed) and be no larger than ``max_body`` bytes (else
413); no other route reads a body (a request with one is answered and the connection closed).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Literal

from aiogram import Bot, Dispatcher
from aiogram.methods import TelegramMethod
from aiogram.types import Update
from aiogram.webhook.aiohttp_server import SimpleRequestHandler, setup_application
from aiohttp import web
from pydantic import ValidationError

from bot.config import Settings, host_port
from bot.logsafe import safe
from bot.storage.protocol import Store

if TYPE_CHECKING:  # Redis is an optional extra (several workers)
    from bot.coordination.redis_locks import UpdateGate

logger = logging.getLogger(__name__)
SECRET_HEADER: Final = "X-Telegram-Bot-Api-Secret-Token"
Handle = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass(frozen=True, slots=True)
class HttpLimits:
    """What one client may hold of the bot's HTTP server."""

    headers_s: float = 10.0  # a request's headers (and an idle keep-alive connection)
    body_s: float = 10.0  # a request's body, once its headers are in
    max_body: int = 256 * 1024  # bytes: an update is a few KiB (a long text with entities)


LIMITS: Final = web.AppKey("limits", HttpLimits)


def secret_matches(given: str | None, secret: str) -> bool:
    """The header is the secret: compared in constant time, as bytes (any header text,
    non-ASCII too — aiohttp keeps undecodable bytes as surrogates — compares, never raises)."""
    if given is None:
        return False
    return hmac.compare_digest(given.encode("utf-8", "surrogateescape"), secret.encode())


class UpdateHandler(SimpleRequestHandler):
    """aiogram's webhook handler, but a request that is no update is answered 400 with one
    warning line (aiogram's own: a 500 and a traceback for each). The body is parsed and
    validated once, then fed to the dispatcher as aiogram does."""

    async def _handle_request(self, bot: Bot, request: web.Request) -> web.Response:
        try:
            body = await request.json(loads=bot.session.json_loads)
            update = Update.model_validate(body, context={"bot": bot})
        except ValueError as error:  # not JSON (or not UTF-8), or not an Update
            return not_an_update(error)
        result: TelegramMethod[Any] | None = await self.dispatcher.feed_webhook_update(
            bot, update, **self.data
        )
        return web.Response(body=self._build_response_writer(bot=bot, result=result))


def not_an_update(error: ValueError) -> web.Response:
    """400 for a webhook body that is no update, and one line saying why (no traceback)."""
    if isinstance(error, ValidationError):
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "the body"
        why = f"not an Update ({where}: {first['msg']})"
    else:
        why = f"not JSON ({error})"
    logger.warning(
        "webhook: a request with the secret that is no update, answered 400: %s", safe(why)
    )
    return web.Response(status=400, text="not an update")


def checked(handle: Handle, secret: str | None, body_s: float) -> Handle:
    """``handle`` only for a request that carries the webhook's secret (401 for any other,
    its body never read), once its whole body is in: read within ``body_s`` (else 408, the
    connection closed) and no larger than the app's limit (else 413)."""

    async def check(request: web.Request) -> web.StreamResponse:
        if secret is not None and not secret_matches(request.headers.get(SECRET_HEADER), secret):
            return web.Response(status=401, text="Unauthorized")
        try:
            async with asyncio.timeout(body_s):
                await request.read()  # kept: the handler's request.json() reads it again
        except TimeoutError:
            closing = {"Connection": "close"}
            return web.Response(status=408, text="body too slow", headers=closing)
        return await handle(request)

    return check


async def health(db: Store, mode: Literal["webhook", "polling"]) -> tuple[bool, dict[str, object]]:
    """Whether the bot is fine, and the small JSON ``/healthz`` answers with."""
    try:
        reachable = await db.ping()
    except Exception:  # any failure of the database counts as unreachable
        logger.exception("healthz: the database did not answer")
        reachable = False
    return reachable, {"ok": reachable, "database": reachable, "mode": mode}


def build_app(
    settings: Settings,
    db: Store,
    bot: Bot | None = None,
    dp: Dispatcher | None = None,
    gate: UpdateGate | None = None,
    *,
    limits: HttpLimits | None = None,
) -> web.Application:
    """``/healthz``, and the webhook when ``bot`` and ``dp`` are given (``gate``: several
    workers share which updates are being handled, :func:`gated`)."""
    limits = HttpLimits() if limits is None else limits
    app = web.Application(client_max_size=limits.max_body)
    app[LIMITS] = limits

    async def healthz(request: web.Request) -> web.Response:
        ok, body = await health(db, settings.mode)
        return web.json_response(body, status=200 if ok else 503)

    app.router.add_get("/healthz", healthz)
    if bot is not None and dp is not None:
        secret = settings.webhook_secret
        # the secret is checked by checked() on every path, once; aiogram's own comparison
        # raises on a non-ASCII header (a 500 with a traceback per request)
        handler = UpdateHandler(dp, bot, handle_in_background=False)
        # not handler.register(): that closes the bot's session at shutdown, before the
        # outbox had its last say; running_bot closes it
        post = handler.handle if gate is None else gated(handler, gate)
        key = secret.get_secret_value() if secret else None
        app.router.add_post(settings.webhook_path, checked(post, key, limits.body_s))
        setup_application(app, dp, bot=bot)
    return app


def gated(handler: UpdateHandler, gate: UpdateGate) -> Handle:
    """Several workers: an update is handled by one worker at a time and acts once. A
    redelivery of a done update is answered 200 and not handled; one another worker is handling
    now gets 503 (Telegram tries again later); one whose worker died mid-way (its lease ran
    out) is handled anew — nothing a player pressed is lost to a killed worker. Behind
    :func:`checked`: only a request with the secret gets here."""
    from bot.coordination.redis_locks import kept  # Redis is an optional extra

    async def handle(request: web.Request) -> web.StreamResponse:
        try:
            update_id = int((await request.json())["update_id"])
        except (ValueError, KeyError, TypeError):
            return await handler.handle(request)  # no update: 400 (UpdateHandler)
        claim = await gate.begin(update_id)
        if claim == "done":
            logger.info("update %s: a redelivery of a handled update, skipped", update_id)
            return web.json_response({})
        if claim == "busy":
            return web.Response(status=503, text="being handled")
        done = False
        try:
            async with kept(gate.lease / 3, gate.renew(update_id)):
                response = await handler.handle(request)
            done = response.status == 200
            return response
        finally:
            await gate.end(update_id, done)

    return handle


@contextlib.asynccontextmanager
async def serving(
    app: web.Application, listen: str, *, reuse_port: bool = False
) -> AsyncIterator[str]:
    """The app listening on ``host:port``; yields the address it bound (``host:port``).
    ``reuse_port``: several worker processes listen on one port (``SO_REUSEPORT``), the kernel
    spreads the connections among them."""
    host, port = host_port(listen)
    limits = app.get(LIMITS) or HttpLimits()
    runner = web.AppRunner(
        app,
        handler_cancellation=True,
        shutdown_timeout=2.0,
        keepalive_timeout=limits.headers_s,  # aiohttp closes a connection waiting that long
        lingering_time=0,  # a request cut short (408) is not read on: the connection closes
    )
    await runner.setup()
    try:
        site = web.TCPSite(runner, host, port, reuse_port=reuse_port or None)
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
