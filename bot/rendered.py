"""What a screen is: a message's text and keyboard (:class:`Rendered`), as every render function
returns it and the outbox takes it; its buttons and keyboards."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup
from pydantic_core import CoreSchema, core_schema

T = TypeVar("T")

ButtonStyle = Literal["primary", "success", "danger"]
"""A button's colour (Bot API 9.4): blue, green, red; none, the app's own."""


@dataclass(frozen=True, slots=True)
class Button:
    """One inline button: a press (``callback_data``), a link (``url``) or an inline query.

    The screens build these instead of aiogram's pydantic ``InlineKeyboardButton``: a hand of ten
    cards is ten validated models, and the outbox only ever needs their JSON (measured in
    ``bench/side_by_side.py``: building and encoding pydantic keyboards was about a fifth of
    the CPU of a press). :meth:`as_json` is exactly what the Bot API takes.

    ``style`` colours it (the main action ``success``, a destructive one ``danger``);
    ``disabled`` makes it a button that does nothing (Bot API 10.3's ``DisabledButton``, a
    kind of button of its own: it has no ``callback_data``, as a button has one kind only).
    """

    text: str
    url: str | None = None
    callback_data: str | None = None
    switch_inline_query: str | None = None
    style: ButtonStyle | None = None
    disabled: bool = False

    def as_json(self) -> dict[str, Any]:
        # The field order of aiogram's InlineKeyboardButton, so a digest stays what it was; the
        # newer fields after them and only when set, so a plain button's JSON never changes.
        out: dict[str, Any] = {"text": self.text}
        if self.url is not None:
            out["url"] = self.url
        if self.callback_data is not None:
            out["callback_data"] = self.callback_data
        if self.switch_inline_query is not None:
            out["switch_inline_query"] = self.switch_inline_query
        if self.style is not None:
            out["style"] = self.style
        if self.disabled:
            out["disabled"] = {}  # the Bot API's DisabledButton: an object holding nothing yet
        return out


@dataclass(frozen=True, slots=True)
class Keyboard:
    """An inline keyboard: rows of :class:`Button` (never an empty row)."""

    inline_keyboard: tuple[tuple[Button, ...], ...]
    _json: str | None = field(default=None, init=False, repr=False, compare=False)

    def as_json(self) -> dict[str, Any]:
        return {"inline_keyboard": [[b.as_json() for b in row] for row in self.inline_keyboard]}

    def dumps(self) -> str:
        """Compact JSON, non-ASCII as is (what pydantic's ``model_dump_json`` wrote); written
        once (the outbox's digest and the request body both want it)."""
        if self._json is None:
            text = json.dumps(self.as_json(), ensure_ascii=False, separators=(",", ":"))
            object.__setattr__(self, "_json", text)  # a cache of a frozen value
            return text
        return self._json

    def to_aiogram(self) -> InlineKeyboardMarkup:
        """aiogram's model of it, for the few places that hand a keyboard to aiogram itself
        (an inline query's result)."""
        rows = [[InlineKeyboardButton(**b.as_json()) for b in row] for row in self.inline_keyboard]
        return InlineKeyboardMarkup(inline_keyboard=rows)

    def buttons(self) -> Iterable[Button]:
        return (b for row in self.inline_keyboard for b in row)

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: Any) -> CoreSchema:
        """In a pydantic model (an aiogram method) it is checked by ``isinstance`` only and
        dumped as :meth:`as_json`: any aiogram session sends it as the Bot API expects."""
        return core_schema.is_instance_schema(
            cls, serialization=core_schema.plain_serializer_function_ser_schema(cls.as_json)
        )


@dataclass(frozen=True, slots=True)
class Rendered:
    """A message's text (Telegram HTML) and keyboard."""

    text: str
    markup: Keyboard | None = None
    _digest: str | None = field(default=None, init=False, repr=False, compare=False)

    def digest(self) -> str:
        """A short fingerprint of the text and the keyboard (what the outbox remembers a
        message shows), computed once."""
        if self._digest is None:
            markup = self.markup.dumps() if self.markup else ""
            text = f"{self.text}\0{markup}".encode()
            object.__setattr__(self, "_digest", hashlib.blake2b(text, digest_size=12).hexdigest())
        assert self._digest is not None
        return self._digest


def keyboard(rows: Iterable[Sequence[Button]]) -> Keyboard | None:
    kept = tuple(tuple(r) for r in rows if r)
    return Keyboard(kept) if kept else None


def next_in(cycle: Sequence[T], value: object) -> T:
    """The value after ``value`` in ``cycle`` (the first after the last, or for an unknown
    one): what a button that steps through a setting's values sets next."""
    return cycle[(cycle.index(value) + 1) % len(cycle)] if value in cycle else cycle[0]
