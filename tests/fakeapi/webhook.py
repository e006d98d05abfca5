"""The fake's webhook: ``setWebhook``/``deleteWebhook``/``getWebhookInfo`` and, while a webhook
is set, delivery of queued updates to it by HTTP POST — as Telegram does it.

Updates go one at a time, in order, with ``X-Telegram-Bot-Api-Secret-Token``; an update counts
as delivered once the bot answers 2xx, else it is posted again after a short pause. While a
webhook is set ``getUpdates`` is refused with 409, Telegram's words. ``hold_webhook = True``
pauses delivery (a test then posts updates itself).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

import aiohttp

from tests.fakeapi.model import ApiError

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
        async with aiohttp.ClientSession() as session:
            while self.webhook is not None and not self._closing:
                self._drop_unwanted()
                if not self._queue or self.hold_webhook:
                    await self._wait_for_updates()
                    continue
                update = self._queue[0]
                hook = self.webhook
                headers = {"Content-Type": "application/json"}
                if hook["secret_token"]:
                    headers["X-Telegram-Bot-Api-Secret-Token"] = str(hook["secret_token"])
                try:
                    async with session.post(
                        hook["url"], data=json.dumps(update), headers=headers
                    ) as response:
                        await response.read()
                        status = response.status
                except aiohttp.ClientError:
                    status = 0
                self.webhook_posts.append((update["update_id"], status))
                if 200 <= status < 300:
                    self._delivered_upto = max(self._delivered_upto, update["update_id"])
                    if self._queue and self._queue[0] is update:
                        self._queue.pop(0)
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
