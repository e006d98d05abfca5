"""One log line when the Bot API goes, one when it is back (not two per attempt).

Two parts notice a lost Bot API and share one :class:`Outage`, so an outage is logged once
whoever sees it first:

* aiogram's polling (``Dispatcher._listen_updates``) retries a failed ``getUpdates`` with
  back-off for ever but logs an error and a warning on every attempt and "Connection
  established" when one succeeds: :class:`OutageLog`, a filter on its logger, keeps the first
  failure of an outage (reworded: the URL, "retrying"), drops the rest, turns "Connection
  established" into "back after …", and drops its start/stop chatter below DEBUG (the bot logs
  its own start line). A 409 Conflict (another instance polling) is said once the same way.
* the request middleware (``bot/sending/session.py``) retries a send, edit or delete that
  could not reach the Bot API with back-off, so what the outbox sends during an outage goes
  out when it is back.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Final

DISPATCHER: Final = "aiogram.dispatcher"
CHATTER: Final = ("Start polling", "Run polling", "Polling stopped")
CONFLICT: Final = (
    "getUpdates: 409 Conflict, another instance is polling with this token; retrying with back-off"
)


class Downtime:
    """When something went away and how often it failed since: an outage's first failure and
    its end are each told once (``fail``/``end``), whoever notices them (the Bot API here, Redis
    in :mod:`bot.sending.patience`)."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.down_since: float | None = None
        self.attempts = 0  # failed attempts in this outage
        self.outages = 0

    def fail(self) -> bool:
        """A failed attempt; True if an outage starts with it."""
        self.attempts += 1
        if self.down_since is not None:
            return False
        self.down_since = self.clock()
        self.outages += 1
        return True

    def end(self) -> tuple[float, int] | None:
        """A working attempt: how long the outage it ends lasted and its failed attempts (None:
        there was none)."""
        if self.down_since is None:
            return None
        took = (max(0.0, self.clock() - self.down_since), self.attempts)
        self.down_since = None
        self.attempts = 0
        return took


class Outage:
    """Whether the Bot API is reachable now, and the two lines an outage gets."""

    def __init__(self, api_base: str, clock: Callable[[], float] = time.time) -> None:
        self.api_base = api_base
        self.downtime = Downtime(clock)

    @property
    def outages(self) -> int:
        """How many outages began (figures for tests)."""
        return self.downtime.outages

    def failed(self, error: object) -> str | None:
        """A failed attempt: the line to log if the outage starts with it (else None)."""
        if not self.downtime.fail():
            return None
        return f"lost the Bot API at {self.api_base} ({reason(error)}); retrying with back-off"

    def succeeded(self) -> str | None:
        """A call got through: the line to log if that ends an outage (else None)."""
        ended = self.downtime.end()
        if ended is None:
            return None
        took, attempts = ended
        return (
            f"the Bot API at {self.api_base} is back after {took:.0f} s "
            f"({attempts} failed attempts)"
        )


class OutageLog(logging.Filter):
    """A filter on aiogram's dispatcher logger (see the module's docstring)."""

    def __init__(self, outage: Outage, *, verbose: bool = False) -> None:
        super().__init__()
        self.outage = outage
        self.verbose = verbose  # DEBUG: aiogram's own start/stop lines too
        self.conflict = False

    def filter(self, record: logging.LogRecord) -> bool:
        text = str(record.msg)
        if text.startswith("Failed to fetch updates"):
            args = record.args if isinstance(record.args, tuple) else ()
            kind, error = (str(args[0]), args[1]) if len(args) >= 2 else ("", "")
            if kind == "TelegramConflictError":
                line: str | None = None if self.conflict else CONFLICT
                self.conflict = True
            else:
                line = self.outage.failed(error)
            return _reworded(record, line, logging.WARNING)
        if text.startswith("Sleep for"):
            return False
        if text.startswith("Connection established"):
            self.conflict = False
            return _reworded(record, self.outage.succeeded(), logging.INFO)
        if text.startswith(CHATTER):
            return self.verbose
        return True


def reason(error: object) -> str:
    """aiogram's words for a failed connection, without its "HTTP Client says - " prefix."""
    text = str(getattr(error, "message", error)).removeprefix("HTTP Client says - ")
    return text or type(error).__name__


def _reworded(record: logging.LogRecord, line: str | None, level: int) -> bool:
    if line is None:
        return False
    record.msg, record.args = line, ()
    record.levelno = level
    record.levelname = logging.getLevelName(level)
    return True
