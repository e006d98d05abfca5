"""The fake's webhook: ``setWebhook``/``deleteWebhook``/``getWebhookInfo`` and, while a webhook
is set, delivery of queued updates to it by HTTP POST — as Telegram does it.

Updates go with ``X-Telegram-Bot-Api-Secret-Token``, one at a time in order — or, with
``webhook_connections = K`` (``setWebhook``'s ``max_connections``), over K connections at once
as Telegram does, each taking the oldest update not in flight; an update counts as delivered
once the bot answers 2xx, else (another status, a reset connection: a killed worker) it is
posted again after a short pause. While a webhook is set ``getUpdates`` is refused with 409,
Telegram's words. ``hold_webhook = True`` pauses delivery (a test then posts updates itself);
``deliver_to(url)`` sends what comes next to another of several workers.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

import aiohttp

from tests.fakeapi.model import ApiError, FakeUsageError

JsonDict = dict[str, Any]

WEBHOOK_ACTIVE = (
    "Conflict: can't use getUpdates method while webhook is active; "
    "use deleteWebhook to delete the webhook first"
)
RETRY_S = 0.05


class WebhookMethods:
    """Mixed into :class:`tests.fakeapi.FakeTelegram`."""

    _queue: list[JsonDict]
    _delivered_upto: int
    _waiters: set[asyncio.Future[None]]
    _closing: bool
    _allowed: list[str] | None

    def _init_webhook(self) -> None:
        self.webhook: JsonDict | None = None  # url, secret_token, allowed_updates of setWebhook
        self.webhook_posts: list[tuple[int, int]] = []  # (update_id, HTTP status) per POST
        self.hold_webhook = False
        self.webhook_connections = 1  # concurrent deliveries (Telegram's max_connections)
        self._in_flight: set[int] = set()  # update ids being posted now
        self._deliverer: asyncio.Task[None] | None = None

    def _drop_unwanted(self) -> None:  # pragma: no cover - FakeTelegram's
        raise NotImplementedError

    def _m_setWebhook(self, params: JsonDict) -> bool:
        url = params.get("url")
        if not isinstance(url, str) or not url:
            raise ApiError(400, "Bad Request: bad webhook: an HTTPS URL must be provided")
        if params.get("drop_pending_updates"):
            self._drop_pending()
        allowed = params.get("allowed_updates")
        self.webhook = {
            "url": url,
            "secret_token": params.get("secret_token"),
            "allowed_updates": list(allowed) if isinstance(allowed, list) else None,
        }
        if isinstance(allowed, list):
            self._allowed = list(allowed) or None
        connections = params.get("max_connections")
        if isinstance(connections, int) and 1 <= connections <= 100:
            self.webhook_connections = connections
        if self._deliverer is None or self._deliverer.done():
            self._deliverer = asyncio.get_running_loop().create_task(self._deliver())
        return True

    def _m_deleteWebhook(self, params: JsonDict) -> bool:
        if params.get("drop_pending_updates"):
            self._drop_pending()
        self.webhook = None
        if self._deliverer is not None:
            self._deliverer.cancel()
            self._deliverer = None
        return True

    def deliver_to(self, url: str) -> None:
        """Post the updates from now on to ``url`` (the webhook set stays set otherwise): a
        test's choice of which of several workers gets them, where Telegram's is the kernel's."""
        if self.webhook is None:
            raise FakeUsageError("no webhook is set")
        self.webhook = {**self.webhook, "url": url}

    def _m_getWebhookInfo(self, params: JsonDict) -> JsonDict:
        info: JsonDict = {
            "url": self.webhook["url"] if self.webhook else "",
            "has_custom_certificate": False,
            "pending_update_count": len(self._queue),
        }
        if self.webhook and self.webhook["allowed_updates"] is not None:
            info["allowed_updates"] = self.webhook["allowed_updates"]
        return info

    def _refuse_polling(self) -> None:
        if self.webhook is not None:
            raise ApiError(409, WEBHOOK_ACTIVE)

    def _drop_pending(self) -> None:
        for update in self._queue:
            self._delivered_upto = max(self._delivered_upto, update["update_id"])
        self._queue.clear()

    async def _stop_webhook(self) -> None:
        if self._deliverer is not None:
            self._deliverer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._deliverer
            self._deliverer = None

    async def _deliver(self) -> None:
        async with aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=0, force_close=True)  # a new connection each
        ) as session:
            lines = [
                asyncio.create_task(self._deliver_line(session))
                for _ in range(max(1, self.webhook_connections))
            ]
            try:
                await asyncio.gather(*lines)
            finally:
                for line in lines:
                    line.cancel()
                await asyncio.gather(*lines, return_exceptions=True)
                self._in_flight.clear()

    async def _deliver_line(self, session: aiohttp.ClientSession) -> None:
        while self.webhook is not None and not self._closing:
            self._drop_unwanted()
            update = next((u for u in self._queue if u["update_id"] not in self._in_flight), None)
            if update is None or self.hold_webhook:
                await self._wait_for_updates()
                continue
            hook = self.webhook
            headers = {"Content-Type": "application/json"}
            if hook["secret_token"]:
                headers["X-Telegram-Bot-Api-Secret-Token"] = str(hook["secret_token"])
            self._in_flight.add(update["update_id"])
            try:
                async with session.post(
                    hook["url"], data=json.dumps(update), headers=headers
                ) as response:
                    await response.read()
                    status = response.status
            except aiohttp.ClientError:
                status = 0
            finally:
                self._in_flight.discard(update["update_id"])
            self.webhook_posts.append((update["update_id"], status))
            if 200 <= status < 300:
                if update in self._queue:
                    self._queue.remove(update)
                pending = [u["update_id"] for u in self._queue]
                self._delivered_upto = (
                    min(pending) - 1 if pending else max(self._delivered_upto, update["update_id"])
                )
            else:
                await asyncio.sleep(RETRY_S)

    async def _wait_for_updates(self) -> None:
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.add(waiter)
        try:
            await asyncio.wait_for(waiter, RETRY_S * 4)
        except TimeoutError:
            pass
        finally:
            self._waiters.discard(waiter)
