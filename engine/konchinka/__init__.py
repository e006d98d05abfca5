"""Кончинка (RULES.md §4; RECORD.md §R9): capture by rank and sums, 2–4 players, 52 cards."""

from __future__ import annotations

from typing import Final

from engine.spec import GameSpec

from .actions import Capture, KonchinkaAction, Sweep, Trail, parse_action
from .events import BOOK
from .options import KonchinkaOptions
from .state import KonchinkaState
from .view import KonchinkaView

SPEC: Final = GameSpec("konchinka", "konchinka", (2, 3, 4), KonchinkaOptions, KonchinkaState, BOOK)
"""Кончинка in the registry (RULES.md §4.1.1)."""

__all__ = [
    "SPEC",
    "Capture",
    "KonchinkaAction",
    "KonchinkaOptions",
    "KonchinkaState",
    "KonchinkaView",
    "Sweep",
    "Trail",
    "parse_action",
]
