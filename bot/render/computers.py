"""Computer seats in the lobby: their levels in words (PRODUCT.md §4.2 "Add computer", §5.1);
their names are :mod:`bot.computer_names`'."""

from __future__ import annotations

from typing import Final

LEVEL_WORDS: Final[dict[str, str]] = {"easy": "easy", "normal": "normal", "hard": "hard"}
"""A level's msgid on the seating line ("🤖 Фёдор (лёгкий)")."""

LEVEL_BUTTONS: Final[dict[str, str]] = {
    "easy": "🤖 Easy",
    "normal": "🤖 Normal",
    "hard": "🤖 Hard",
}
"""A level's msgid on the button that seats a computer of it."""
