"""What every render function returns, and small shared helpers."""

from __future__ import annotations

import html
from dataclasses import dataclass

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup


@dataclass(frozen=True, slots=True)
class Rendered:
    """A message's text (Telegram HTML) and keyboard."""

    text: str
    markup: InlineKeyboardMarkup | None = None


def esc(text: str) -> str:
    return html.escape(text, quote=False)


def keyboard(rows: list[list[InlineKeyboardButton]]) -> InlineKeyboardMarkup | None:
    rows = [r for r in rows if r]
    return InlineKeyboardMarkup(inline_keyboard=rows) if rows else None


def num(value: int) -> str:
    """``5`` / ``−7`` / ``0``: a count or any figure without a plus (a real minus sign)."""
    return f"−{-value}" if value < 0 else str(value)


def signed(value: int) -> str:
    """``+27`` / ``−9`` / ``0`` (a real minus sign)."""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"−{-value}"
    return "0"
