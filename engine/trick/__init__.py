"""The trick family: classic Мушка, Памфил, Шутиха, Мистигри (RULES.md §1, RECORD.md §R6).

One machine (:class:`TrickState`) with the games as parameters (:mod:`engine.trick.variant`).
"""

from __future__ import annotations

from typing import Final

from engine.spec import GameSpec

from .actions import (
    Announce,
    Discard,
    Exchange,
    Pass,
    PlayCard,
    Retrump,
    TrickAction,
    parse_trick_action,
)
from .events import BOOK
from .options import MistigriOptions, MushkaOptions, PamfilOptions, ShutikhaOptions
from .rules import SEATS
from .state import TrickState
from .variant import VARIANTS, Variant
from .view import SeatExchange, SideBonus, TrickView

__all__ = [
    "TRICK_SPECS",
    "Announce",
    "Discard",
    "Exchange",
    "MistigriOptions",
    "MushkaOptions",
    "PamfilOptions",
    "Pass",
    "PlayCard",
    "Retrump",
    "SeatExchange",
    "ShutikhaOptions",
    "SideBonus",
    "TrickAction",
    "TrickState",
    "TrickView",
    "Variant",
    "parse_trick_action",
]

TRICK_SPECS: Final = tuple(
    GameSpec(v.name, "trick", SEATS, v.options_type, TrickState, BOOK) for v in VARIANTS.values()
)
"""The four games of RULES.md §1, in RULES.md order; 3–7 players each (§1.1.1)."""
