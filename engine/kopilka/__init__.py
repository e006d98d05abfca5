"""Мушка-Копилка (RULES.md §2; RECORD.md §R7): exactly 4 players, 32 cards, the bank."""

from __future__ import annotations

from typing import Final

from engine.spec import GameSpec

from .actions import KopilkaAction, parse_action
from .events import BOOK
from .options import KopilkaOptions
from .rules import PLAYERS
from .state import KopilkaState
from .view import KopilkaView

SPEC: Final = GameSpec("kopilka", "kopilka", (PLAYERS,), KopilkaOptions, KopilkaState, BOOK)
"""Копилка in the registry (RULES.md §2)."""

__all__ = [
    "SPEC",
    "KopilkaAction",
    "KopilkaOptions",
    "KopilkaState",
    "KopilkaView",
    "parse_action",
]
