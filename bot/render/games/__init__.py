"""Each game family's screens, by the engine's ``GameSpec.family``."""

from __future__ import annotations

from typing import Final

from bot.render.games.base import GameUI
from bot.render.games.trick import _Shim

FAMILIES: Final[dict[str, GameUI]] = {"trick": _Shim()}
"""Families the bot can seat; a new family adds its module here and nothing else changes."""
