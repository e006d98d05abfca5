"""One log line when the Bot API goes, one when it is back (not two per polling attempt).

aiogram's polling (``Dispatcher._listen_updates``) retries a failed ``getUpdates`` with back-off
for ever — the bot carries on by itself — but logs an error and a warning on every attempt and
"Connection established" when one succeeds. :class:`OutageLog` is a filter on its logger that
keeps the first failure of an outage (reworded: what failed, the URL, "retrying"), drops the
rest, turns "Connection established" into "back after …", and drops the start/stop chatter
below DEBUG (the bot logs its own start line).
"""

from __future__ import annotations

import logging
from typing import Final

DISPATCHER: Final = "aiogram.dispatcher"
CHATTER: Final = ("Start polling", "Run polling", "Polling stopped")
CONFLICT: Final = (
    "getUpdates: 409 Conflict, another instance is polling with this token; retrying with back-off"
)


class OutageLog(logging.Filter):
    def __init__(self, api_base: str, *, verbose: bool = False) -> None:
        super().__init__()
        self.api_base = api_base
        self.verbose = verbose  # DEBUG: aiogram's own start/stop lines too
        self.down_since: float | None = None
        self.attempts = 0
        self.outages = 0

    def filter(self, record: logging.LogRecord) -> bool:
        text = str(record.msg)
        if text.startswith("Failed to fetch updates"):
            self.attempts += 1
            if self.down_since is not None:
                return False
            self.down_since = record.created
            self.outages += 1
            args = record.args if isinstance(record.args, tuple) else ()
            kind, error = (str(args[0]), args[1]) if len(args) >= 2 else ("", "")
            if kind == "TelegramConflictError":
                record.msg = CONFLICT
                record.args = ()
            else:
                record.msg = "lost the Bot API at %s (%s); retrying with back-off"
                record.args = (self.api_base, _reason(error))
            _level(record, logging.WARNING)
            return True
        if text.startswith("Sleep for"):
            return False
        if text.startswith("Connection established"):
            if self.down_since is None:
                return False
            record.msg = "the Bot API at %s is back after %.0f s (%d failed attempts)"
            record.args = (self.api_base, max(0.0, record.created - self.down_since), self.attempts)
            _level(record, logging.INFO)
            self.down_since = None
            self.attempts = 0
            return True
        if text.startswith(CHATTER):
            return self.verbose
        return True


def _reason(error: object) -> str:
    text = str(error).removeprefix("HTTP Client says - ")
    return text or type(error).__name__


def _level(record: logging.LogRecord, level: int) -> None:
    record.levelno = level
    record.levelname = logging.getLevelName(level)
