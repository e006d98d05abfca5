"""Outer middlewares on ``dp.update`` (polling and webhook alike): one log line per update, and
an update Telegram delivers again acts once.

Order (outermost first): :class:`UpdateLog` → :class:`OnceOnly` →
:class:`~bot.middlewares.chat.ChatContext` → the routers; aiogram's own error middleware sits
outside them all, so an exception is logged here (``outcome=error``) and then by
``bot/routers/errors.py`` with its traceback — never swallowed. A refusal
(:class:`~bot.refused.Refused`) is no error: logged here as ``outcome=refused``, it is shown
to its sender by ``bot/routers/errors.py``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from aiogram import BaseMiddleware
from aiogram.types import Chat, TelegramObject, Update, User

from bot.callbacks import PressCodec
from bot.logsafe import escaped, safe
from bot.refused import Refused

logger = logging.getLogger("bot.updates")  # the log lines' name, kept when the module moved
Handler = Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]]
KEEP_S = 86400.0  # Telegram keeps an undelivered update for 24 hours at most
PRUNE_EVERY_S = 3600.0
COMMAND_KEPT = 64  # characters of a command's word the line keeps (Telegram's: 32 and @bot)


@dataclass(slots=True)
class Trace:
    """What a handler tells the update's log line (handlers take it as ``trace``)."""

    table: int | None = None
    outcome: str = "ok"

    def refused(self, refused: Refused) -> None:
        """The runtime said no: nothing changed (the engine's rule code when it has one)."""
        self.outcome = f"refused:{refused.engine.value}" if refused.engine else "refused"


class KeyValueFormatter(logging.Formatter):
    """``ts=… level=… logger=… msg=…`` then the record's ``fields`` as ``key=value``; values
    with spaces or quotes are quoted (stdlib only). Whatever wrote the record, the line holds
    no unprintable character (escaped visibly, :mod:`bot.logsafe`); a traceback follows on
    lines of its own, each indented (a break in its exception's text too), so no line of it
    can pass for a record."""

    def format(self, record: logging.LogRecord) -> str:
        pairs: dict[str, object] = {
            "ts": self.formatTime(record, "%Y-%m-%dT%H:%M:%S"),
            "level": record.levelname,
            "logger": record.name,
        }
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            pairs.update(fields)
        else:
            pairs["msg"] = record.getMessage()
        line = " ".join(f"{key}={_value(value)}" for key, value in pairs.items())
        if record.exc_info:  # each of its lines indented: none can pass for a record's line
            trace = escaped(self.formatException(record.exc_info), keep="\n")
            line += "".join(f"\n  {part}" for part in trace.split("\n"))
        return line


def _value(value: object) -> str:
    text = "-" if value is None else str(value)
    if not text or not text.isprintable() or any(c in text for c in ' "='):
        return '"' + escaped(text.replace("\\", "\\\\").replace('"', '\\"')) + '"'
    return text


def describe(update: Update, codec: PressCodec) -> tuple[int | None, str | None]:
    """The table (when a press names one) and the action: ``/command`` (as typed: made safe
    for the line, :func:`~bot.logsafe.safe`) or ``kind:act``."""
    if update.message is not None and update.message.text:
        word = update.message.text.split(maxsplit=1)[0] if update.message.text.strip() else ""
        return None, safe(word.split("@", 1)[0], COMMAND_KEPT) if word.startswith("/") else "text"
    if update.callback_query is not None:
        press = codec.parse(update.callback_query.data or "")
        if press is None:
            return None, "unknown"
        return press.table, f"{press.kind.value}:{press.act}"
    return None, None


class UpdateLog(BaseMiddleware):
    """One INFO line per update: id, kind, chat, user, table, action, ms, outcome."""

    def __init__(self, codec: PressCodec) -> None:
        self.codec = codec

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        assert isinstance(event, Update)
        started = time.monotonic()
        trace = Trace()
        data["trace"] = trace
        table, action = describe(event, self.codec)
        outcome = "error"
        try:
            result = await handler(event, data)
            outcome = "duplicate" if data.get("duplicate") else trace.outcome
            return result
        except Refused as refused:  # answered by bot/routers/errors.py: no error
            trace.refused(refused)
            outcome = trace.outcome
            raise
        finally:
            chat: Chat | None = data.get("event_chat")
            user: User | None = data.get("event_from_user")
            fields = {
                "event": "update",
                "update": event.update_id,
                "kind": event.event_type,
                "chat": chat.id if chat else None,
                "user": user.id if user else None,
                "table": trace.table if trace.table is not None else table,
                "action": action,
                "ms": round((time.monotonic() - started) * 1000),
                "outcome": outcome,
            }
            message = " ".join(f"{k}={_value(v)}" for k, v in fields.items())
            level = logging.ERROR if outcome == "error" else logging.INFO
            logger.log(level, message, extra={"fields": fields})


class UpdateClaims(Protocol):
    async def claim_update(self, update_id: int, at: float) -> bool: ...

    async def prune_updates(self, before: float) -> None: ...


class OnceOnly(BaseMiddleware):
    """Skips an update whose id was taken before (by this process or an earlier one).

    The id is claimed *before* handling: a redelivery that arrives while the first delivery is
    still being handled (a slow answer) is skipped too; an update whose handler crashed the
    process is not retried (its sender presses again) — acting twice is the worse failure.
    """

    def __init__(self, claims: UpdateClaims, clock: Callable[[], float] = time.time) -> None:
        self.claims = claims
        self.clock = clock
        self._pruned_at = 0.0

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        assert isinstance(event, Update)
        now = self.clock()
        if now - self._pruned_at >= PRUNE_EVERY_S:
            self._pruned_at = now
            await self.claims.prune_updates(now - KEEP_S)
        if not await self.claims.claim_update(event.update_id, now):
            data["duplicate"] = True
            return None
        return await handler(event, data)
