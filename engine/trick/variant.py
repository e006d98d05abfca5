"""The four games of the trick family as parameters of one machine (RULES.md §1.1–§1.5).

Each game's :class:`~engine.trick.rules.Variant` is defined in its own module; this is their
registry, in RULES.md order.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

from .mistigri import FLUSH_POINTS, MISTIGRI, SUIT_RANK
from .mushka import MUSHKA
from .pamfil import PAMFIL
from .rules import AS, JC, KC, KS, QS, Privilege, Variant, deck_for
from .shutikha import SHUTIKHA

VARIANTS: Final = MappingProxyType({v.name: v for v in (MUSHKA, PAMFIL, SHUTIKHA, MISTIGRI)})
"""Every trick-family game by its engine name."""

__all__ = [
    "AS",
    "FLUSH_POINTS",
    "JC",
    "KC",
    "KS",
    "MISTIGRI",
    "MUSHKA",
    "PAMFIL",
    "QS",
    "SHUTIKHA",
    "SUIT_RANK",
    "VARIANTS",
    "Privilege",
    "Variant",
    "deck_for",
]
