"""Spans of time as people read them: a long turn's time (``12 h``), what is left of it
(``3 h 20 min``), in the reader's language."""

from __future__ import annotations

from bot.i18n import Translator
from bot.slow import is_long


def span(seconds: float, tr: Translator) -> str:
    """``45 s`` under two minutes, ``25 min`` under an hour, else ``3 h 20 min`` (``12 h`` on
    the hour); rounded to the unit shown."""
    whole = max(0, round(seconds))
    if whole < 120:
        return tr("{n} s", n=whole)
    minutes = round(whole / 60)
    if minutes < 60:
        return tr("{n} min", n=minutes)
    hours, rest = divmod(minutes, 60)
    if rest == 0:
        return tr("{n} h", n=hours)
    return tr("{hours} h {minutes} min", hours=hours, minutes=rest)


def turn_time(seconds: float, tr: Translator) -> str:
    """``Turn time: 90 s`` (``Turn time: 12 h`` for a long turn)."""
    if is_long(seconds):
        return tr("Turn time: {time}", time=span(seconds, tr))
    return tr("Turn time: {seconds} s", seconds=round(seconds))
