"""What the families' charts read of a finished record: its deals' ``deal_end``
lines, one figure of every seat from each, and the game's options (RECORD.md §R5)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import Line
from engine.lines import LineKind, first, is_kind


def deal_ends(lines: Sequence[Line]) -> list[Line]:
    """Every ``deal_end`` line of the record, in order."""
    return [line for line in lines if is_kind(line, LineKind.DEAL_END)]


def seats_of(end: Line) -> list[Line]:
    """A ``deal_end`` line's per-seat objects, in seat order (RECORD.md §R1.5)."""
    seats: Sequence[Line] = end.get("seats", [])
    return sorted(seats, key=lambda s: int(s["seat"]))


def per_deal(ends: Sequence[Line], key: str) -> tuple[tuple[int, ...], ...]:
    """Each seat's figure ``key`` after every deal: one row a deal, in seat order."""
    return tuple(tuple(int(s[key]) for s in seats_of(end)) for end in ends)


def option(lines: Sequence[Line], name: str) -> int | None:
    """An integer option of the game, as its ``game`` line has it (None: none such)."""
    game = first(lines, LineKind.GAME)
    options: Line = game.get("options", {}) if game is not None else {}
    value = options.get(name)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def from_zero(
    lines: Sequence[Line], key: str
) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """Figures that start at 0 and add up deal by deal (a partia's points, a game's totals):
    the start and each deal's row of ``key``."""
    deals = per_deal(deal_ends(lines), key)
    return (tuple(0 for _ in deals[0]) if deals else ()), deals
