"""Мушка-Лентюрлю (RULES.md §3; RECORD.md §R8): 3–8 players, 52 cards, one record = one deal."""

from __future__ import annotations

from typing import Final

from engine.spec import GameSpec

from .actions import LenturluAction, Run, parse_action
from .events import BOOK
from .options import LenturluOptions
from .rules import SEAT_COUNTS
from .state import LenturluState
from .view import LenturluView

SPEC: Final = GameSpec("lenturlu", "lenturlu", SEAT_COUNTS, LenturluOptions, LenturluState, BOOK)
"""Лентюрлю in the registry (RULES.md §3)."""

__all__ = [
    "SPEC",
    "LenturluAction",
    "LenturluOptions",
    "LenturluState",
    "LenturluView",
    "Run",
    "parse_action",
]
