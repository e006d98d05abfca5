"""Options of Кончинка (RULES.md §4.5)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.options import bool_option, enum_option, int_option


@dataclass(frozen=True, slots=True)
class KonchinkaOptions:
    """The table's options; every one is written in the record's ``game`` line."""

    target: int = int_option(15, 5, 100)
    court_values: bool = bool_option(False)
    payment: str = enum_option("mushka", "mushka", "pot")
    point_value: int = int_option(1, 0, 1_000_000, when=("payment", "mushka"))
    stake: int = int_option(10, 0, 1_000_000, when=("payment", "pot"))
