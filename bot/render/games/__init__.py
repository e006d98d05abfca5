"""Each game family's screens, by the engine's ``GameSpec.family``."""

from __future__ import annotations

from typing import Any, Final

from bot.render.games.game_ui import GameUI
from bot.render.games.konchinka.screen import KONCHINKA_UI
from bot.render.games.kopilka.screen import KOPILKA_UI
from bot.render.games.lenturlu.screen import LENTURLU_UI
from bot.render.games.trick.screen import TRICK_UI
from engine.games import GAMES

FAMILIES: Final[dict[str, GameUI[Any]]] = {
    "trick": TRICK_UI,
    "kopilka": KOPILKA_UI,
    "lenturlu": LENTURLU_UI,
    "konchinka": KONCHINKA_UI,
}
"""Families the bot can seat; a new family adds its module here and nothing else changes."""


def game_ui(game: str) -> GameUI[Any] | None:
    """The screens of ``game``'s family (None: a game the bot cannot seat yet)."""
    spec = GAMES.get(game)
    return FAMILIES.get(spec.family) if spec else None
