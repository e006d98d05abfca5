"""Telegram HTML as plain text, and the RULES.md clause an engine refusal code stands for."""

from __future__ import annotations

import dataclasses
import functools
import html
import inspect
import re
from collections.abc import Mapping
from typing import Final

from bot.render.cards import notation_word
from engine import errors
from engine.cards import Card
from engine.errors import InvalidNotation, Refusal

_TAG: Final = re.compile(r"<[^>]+>")
_CLAUSE: Final = re.compile(r'^\s*[A-Z_]+ = "(?P<code>[a-z_]+)"\s*#\s*(?P<clause>§[^#]*?)\s*$')


def plain(text: str) -> str:
    """A render function's Telegram HTML without its tags and entities."""
    return html.unescape(_TAG.sub("", text))


@functools.cache
def _clauses() -> Mapping[str, str]:
    """``code -> "§1.4.3 b"`` from the comments on ``Refusal``'s members (engine/errors.py is
    where each refusal names its clause; read, never copied)."""
    found: dict[str, str] = {}
    for line in inspect.getsource(errors).splitlines():
        if (match := _CLAUSE.match(line)) is not None:
            found[match.group("code")] = match.group("clause")
    return found


def rule_of(code: Refusal) -> str:
    """``must_follow_suit, §1.4.3 a`` — the engine's code and, where it names one, its clause."""
    clause = _clauses().get(code.value)
    return f"{code.value}, {clause}" if clause else code.value


def public_cards(view: object, depth: int = 6) -> frozenset[Card]:
    """Every card a public view shows, wherever in it (tricks, piles, the table, captures)."""
    found: set[Card] = set()

    def walk(value: object, left: int) -> None:
        if isinstance(value, Card):
            found.add(value)
        elif left <= 0 or isinstance(value, str | bytes | int | float | bool | None):
            return
        elif dataclasses.is_dataclass(value) and not isinstance(value, type):
            for f in dataclasses.fields(value):
                walk(getattr(value, f.name), left - 1)
        elif isinstance(value, Mapping):
            for item in value.values():
                walk(item, left - 1)
        elif isinstance(value, tuple | list | set | frozenset):
            for item in value:
                walk(item, left - 1)

    walk(view, depth)
    return frozenset(found)


def narrated(notation: str, shown: frozenset[Card], locale: str) -> str:
    """Another seat's action in words, with the cards the public never sees as 🂠 (an exchange's
    discards): the group's screens do not show them either."""
    words = []
    for word in notation.split():
        try:
            card = Card.parse(word)
        except InvalidNotation:
            words.append(word)
            continue
        words.append(notation_word(word, locale) if card in shown else "🂠")
    return " ".join(words)
