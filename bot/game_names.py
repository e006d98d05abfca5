"""The games' names as people say them: ru names, en transliterations (PRODUCT.md §11), and a
game's code from either."""

from __future__ import annotations

from typing import Final

GAME_NAMES: Final = {
    "mushka": ("Мушка", "Mushka"),
    "pamfil": ("Памфил", "Pamfil"),
    "shutikha": ("Шутиха", "Shutikha"),
    "mistigri": ("Мистигри", "Mistigri"),
    "kopilka": ("Копилка", "Kopilka"),
    "lenturlu": ("Лентюрлю", "Lenturlu"),
    "konchinka": ("Кончинка", "Konchinka"),
}
"""PRODUCT.md §11: ru names; en transliterations."""

ALIASES: Final = {ru.lower(): code for code, (ru, _) in GAME_NAMES.items()}


def game_name(game: str, locale: str) -> str:
    ru, en = GAME_NAMES.get(game, (game, game))
    return ru if locale == "ru" else en


def game_code(text: str) -> str | None:
    """A game's code from its code or ru alias, case-insensitive."""
    word = text.strip().lower()
    if word in GAME_NAMES:
        return word
    return ALIASES.get(word)
