"""Options of Лентюрлю (RULES.md §3.6); all money in kopecks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from engine.options import enum_option, int_option

MONEY_MAX: Final = 1_000_000
REFILL_UNITS_MAX: Final = 1000


@dataclass(frozen=True, slots=True)
class LenturluOptions:
    """The table options of §3.6."""

    manner: str = enum_option("king", "king", "out")  # §3.4.2 a / b
    payment: str = enum_option("points", "fixed", "cards", "points")  # §3.5.2
    rate: int = int_option(1, 0, MONEY_MAX)
    unit: int = int_option(1, 1, MONEY_MAX)  # §3.1.3
    refill_units: int = int_option(1, 0, REFILL_UNITS_MAX)  # §3.4.5
