"""Plain text and Telegram HTML, kept apart by type.

A person's text (a name, a chat's title, what he typed) is *plain*: it is stored, passed around
and put in toasts, button labels and inline titles as it is. It becomes HTML only where it
enters a message's HTML, escaped there and nowhere else: :func:`esc`, or
:meth:`bot.i18n.Translator.html`, which escapes every parameter that is not :class:`Html`
already. So a value is never escaped twice (``&amp;amp;`` in a message) or not at all (a live
link, or a ``<`` that makes Telegram refuse the message), whichever way it travels.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from typing import Final

_TAG: Final = re.compile(r"<[^>]*>")


class Html(str):
    """Text that is Telegram HTML already (its ``<``, ``>``, ``&`` mean markup)."""

    __slots__ = ()


def esc(text: str) -> Html:
    """Plain text as HTML (an :class:`Html` value is returned as it is)."""
    if isinstance(text, Html):
        return text
    return Html(html.escape(text, quote=False))


def html_params(params: Mapping[str, object]) -> dict[str, object]:
    """Every plain text parameter escaped; :class:`Html` and numbers as they are."""
    return {k: esc(v) if isinstance(v, str) else v for k, v in params.items()}


def unmarked(text: str) -> str:
    """Telegram HTML as the plain text it shows: tags removed, references decoded."""
    return html.unescape(_TAG.sub("", text))
