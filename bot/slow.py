"""Games that last a day: long turns (an hour to a day a turn) and a person's quiet hours.

A table's turn time is a group's /settings default or the table's own choice (/newgame's
``turn=12h``, the lobby's ⏱ option). A long-turn table keeps PRODUCT.md §13's timer (the
reminder when a third of the time is left, the computer's move when it runs out) and adds the
player's quiet hours: a reminder due in them waits for their end; a turn that runs out in them
still runs out (the computer moves), unannounced. Short turns are a game people sit at now, so
quiet hours hold nothing there.

Pure: every time is a wall-clock second given by the caller.
"""

from __future__ import annotations

import re
from collections.abc import MutableMapping
from datetime import datetime, timedelta
from typing import Final, Literal, get_args
from zoneinfo import ZoneInfo

from engine.errors import InvalidOption

SHORT_TURNS: Final = (30, 60, 90, 180, 300)  # PRODUCT.md §15, seconds
LONG_TURNS: Final = (3600, 21600, 43200, 86400)  # 1 h, 6 h, 12 h, 24 h
TURN_TIMES: Final = SHORT_TURNS + LONG_TURNS
TurnTime = Literal[30, 60, 90, 180, 300, 3600, 21600, 43200, 86400]
LONG_TURN_S: Final = 3600  # a turn this long or longer is a long turn: quiet hours hold it

OPTION: Final = "turn"  # /newgame mushka turn=12h
_TYPED = re.compile(r"(\d{1,5})\s*(s|m|min|h)?")
_UNIT_S: Final = {"": 1, "s": 1, "m": 60, "min": 60, "h": 3600}

QUIET_FROM: Final = 23  # quiet hours: 23:00 …
QUIET_TO: Final = 8  # … to 08:00, in the person's time zone
Zone = Literal[
    "",  # by his language: ru Moscow, en UTC
    "Europe/Kaliningrad",
    "Europe/Moscow",
    "Asia/Yekaterinburg",
    "Asia/Novosibirsk",
    "Asia/Vladivostok",
    "UTC",
    "Europe/London",
    "Europe/Berlin",
    "America/New_York",
]
ZONES: Final[tuple[Zone, ...]] = get_args(Zone)
LANGUAGE_ZONES: Final = {"ru": "Europe/Moscow", "en": "UTC"}
IDLE_TURNS: Final = 3  # a long-turn table closes after this many turns' time with no human move


def is_long(turn_time: float) -> bool:
    return turn_time >= LONG_TURN_S


def typed_turn(given: MutableMapping[str, str]) -> int | None:
    """The turn time /newgame's typed options ask for (``turn=12h``, ``turn=90``,
    ``turn=5m``), taken out of them (it is no option of the game's); None: not asked. A value
    that is not one of :data:`TURN_TIMES` raises the :class:`~engine.errors.InvalidOption` a
    game's choice would, naming what is allowed."""
    raw = given.pop(OPTION, None)
    if raw is None:
        return None
    typed = _TYPED.fullmatch(raw.strip().lower())
    seconds = int(typed[1]) * _UNIT_S[typed[2] or ""] if typed else -1
    if seconds not in TURN_TIMES:
        allowed = " ".join(turn_word(t) for t in TURN_TIMES)  # spaced, as the engine's
        raise InvalidOption("option_not_allowed", option=OPTION, value=raw, allowed=allowed)
    return seconds


def turn_word(seconds: float) -> str:
    """A turn time as /newgame types it: ``90s``, ``12h``."""
    whole = round(seconds)
    return f"{whole // 3600}h" if whole >= 3600 and whole % 3600 == 0 else f"{whole}s"


def next_turn(seconds: float) -> int:
    """The turn time after ``seconds`` in the cycle 30 s → … → 5 min → 1 h → … → 24 h → 30 s."""
    return next((t for t in TURN_TIMES if t > seconds), TURN_TIMES[0])


def idle_time(turn_time: float, idle: float) -> float:
    """How long a table waits for a human move before it closes (§13): the operator's idle
    time, and for long turns at least :data:`IDLE_TURNS` turns' time."""
    return max(idle, IDLE_TURNS * turn_time) if is_long(turn_time) else idle


def zone(name: str, locale: str) -> ZoneInfo:
    """A person's time zone: the one he picked, else his language's."""
    return ZoneInfo(name or LANGUAGE_ZONES.get(locale, "UTC"))


def quiet_until(now: float, where: ZoneInfo) -> float | None:
    """When the quiet hours ``now`` falls in end (None: ``now`` is not in them)."""
    local = datetime.fromtimestamp(now, where)
    if QUIET_TO <= local.hour < QUIET_FROM:
        return None
    day = local.date() + timedelta(days=1) if local.hour >= QUIET_FROM else local.date()
    end = datetime(day.year, day.month, day.day, QUIET_TO, tzinfo=where)
    return end.timestamp()
