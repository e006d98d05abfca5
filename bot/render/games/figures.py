"""What the families' charts read of a finished record, typed once by the family's book: its
deals' ``deal_end`` lines, one figure of every seat from each, and the game's options
(RECORD.md §R5)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Protocol, TypeVar

from engine.core import Seat
from engine.events import DealEnd, Game, RecordLine, first_of


class _SeatObject(Protocol):
    """A ``deal_end`` line's per-seat object (every family's has its seat)."""

    @property
    def seat(self) -> Seat: ...


S = TypeVar("S", bound=_SeatObject)
D = TypeVar("D", bound=DealEnd)


def by_seat(seats: Iterable[S]) -> list[S]:
    """A ``deal_end`` line's per-seat objects, in seat order (RECORD.md §R1.5)."""
    return sorted(seats, key=lambda s: s.seat)


def per_deal(
    ends: Sequence[D], figure: Callable[[D], Sequence[int]]
) -> tuple[tuple[int, ...], ...]:
    """Each seat's ``figure`` after every deal: one row a deal, in seat order."""
    return tuple(tuple(figure(end)) for end in ends)


def option(lines: Sequence[RecordLine], name: str) -> int | None:
    """An integer option of the game, as its ``game`` line has it (None: none such)."""
    game = first_of(lines, Game)
    value = dict(game.options).get(name) if game is not None else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def from_zero(
    ends: Sequence[D], figure: Callable[[D], Sequence[int]]
) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """Figures that start at 0 and add up deal by deal (a partia's points, a game's totals):
    the start and each deal's row of ``figure``."""
    deals = per_deal(ends, figure)
    return (tuple(0 for _ in deals[0]) if deals else ()), deals
