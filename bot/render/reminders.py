"""A turn's reminder (PRODUCT.md §13): ⅓ of the time left, in private and as a mention in the
group. A long turn's time left (an hour or more, or what a held reminder finds left) is said
in hours and minutes."""

from __future__ import annotations

from typing import Final

from bot.i18n import Translator
from bot.markup import Html, esc
from bot.render.durations import span

IN_SECONDS_UNDER: Final = 120  # what is left is said in seconds under this (the short turns)


def private(seconds: int, chat: str, tr: Translator) -> str:
    """``⏳ 30 s left — your move in «Friday»`` (``⏳ 4 h left — …``), HTML."""
    if seconds < IN_SECONDS_UNDER:
        return tr.html("⏳ {seconds} s left — your move in «{chat}»", seconds=seconds, chat=chat)
    return tr.html("⏳ {time} left — your move in «{chat}»", time=span(seconds, tr), chat=chat)


def mention(user_id: int, name: str, seconds: int, tr: Translator) -> str:
    """``⏳ @boris, your move (30 s)`` in the group (``… (4 h left)``), HTML."""
    who = Html(f'<a href="tg://user?id={user_id}">{esc(name)}</a>')
    if seconds < IN_SECONDS_UNDER:
        return tr.html("⏳ {name}, your move ({seconds} s)", name=who, seconds=seconds)
    return tr.html("⏳ {name}, your move ({time} left)", name=who, time=span(seconds, tr))
