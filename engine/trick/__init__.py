"""The trick family: classic Мушка, Памфил, Шутиха, Мистигри (RULES.md §1, RECORD.md §R6).

One machine (:class:`TrickState`) with the games as parameters (:mod:`engine.trick.variant`).
"""

from __future__ import annotations

from typing import Any

from engine.chance import Chance
from engine.core import GameSpec, Seat, State

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
from .options import MistigriOptions, MushkaOptions, PamfilOptions, ShutikhaOptions
from .state import TrickState
from .variant import MISTIGRI, MUSHKA, PAMFIL, SHUTIKHA, VARIANTS, Variant
from .view import TrickView

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
    "ShutikhaOptions",
    "TrickAction",
    "TrickState",
    "TrickView",
    "Variant",
    "parse_trick_action",
]


def _starter(variant: Variant) -> Any:
    def start(
        players: int, options: Any, seed: int, chance: Chance, prev_dealer: Seat | None
    ) -> State:
        assert isinstance(options, variant.options_type)
        return TrickState(variant, players, options, seed, chance, prev_dealer)

    return start


TRICK_SPECS = tuple(
    GameSpec(v.name, "trick", (3, 4, 5, 6, 7), v.options_type, _starter(v))
    for v in (MUSHKA, PAMFIL, SHUTIKHA, MISTIGRI)
)
"""The four games of RULES.md §1, in RULES.md order."""

assert tuple(VARIANTS) == tuple(spec.name for spec in TRICK_SPECS)
