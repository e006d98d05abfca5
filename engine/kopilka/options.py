"""Options of Копилка (RULES.md §2.7); all money in kopecks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from engine.options import bool_option, int_option

MONEY_MAX: Final = 1_000_000


@dataclass(frozen=True, slots=True)
class KopilkaOptions:
    """The table options of §2.7."""

    ante: int = int_option(20, 0, MONEY_MAX)
    point_rate: int = int_option(1, 0, MONEY_MAX)
    no_trick_fine: int = int_option(5, 0, MONEY_MAX)
    deal_fee: int = int_option(5, 0, MONEY_MAX)
    hold_pass: bool = bool_option(False)
    hold_pass_fine: int = int_option(5, 0, MONEY_MAX, when=("hold_pass", True))
