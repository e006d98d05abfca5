"""Лентюрлю's typed record lines (RECORD.md §R8): its events, ``deal_end`` and ``end``.

What the lines mean is RECORD.md's; how a typed line reads and writes is :mod:`engine.events`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar, Final

from engine.cards import Card
from engine.core import Seat
from engine.events import DealEnd, End, EndReason, Event, LineObject, RecordBook, typed


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class Bought(Event):
    """§3.3.3: the cards bought from the stock."""

    KIND: ClassVar[str] = "draw"
    seat: Seat
    cards: tuple[Card, ...]


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class StakeTaken(Event):
    """§3.4.4: a Lenturlu card played takes the money on it."""

    KIND: ClassVar[str] = "stake"
    seat: Seat
    card: Card
    amount: int


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class Refilled(Event):
    """§3.4.5: every seat puts ``each`` back on the card; ``amount``: on it now."""

    KIND: ClassVar[str] = "refill"
    card: Card
    each: int
    amount: int


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class PileClosed(Event):
    """§3.4.2: a K closes the pile; ``seat`` leads next."""

    KIND: ClassVar[str] = "close"
    seat: Seat
    card: Card


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class Stopped(Event):
    """§3.4.1: nobody could follow; ``seat`` leads next."""

    KIND: ClassVar[str] = "stop"
    seat: Seat


LenturluEvent = Bought | StakeTaken | Refilled | PileClosed | Stopped
"""Any event of Лентюрлю."""


class Finish(StrEnum):
    """How the deal was won (§R8.5 ``reason``)."""

    KING = "king"  # §3.4.2 a: a covering K (Manner A)
    OUT = "out"  # §3.4.3: the winner ran out of cards


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class SeatHand(LineObject):
    """One seat at the end (§R8.5): the hand left, its size and points, what it pays."""

    seat: Seat
    hand: tuple[Card, ...]
    cards: int
    points: int
    pays: int


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class LenturluDealEnd(DealEnd):
    """§R8.5: the winner, how, the money left on the layout (theirs, §3.5.1), every hand."""

    no: int
    winner: Seat
    reason: Finish
    layout: int
    seats: tuple[SeatHand, ...]


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class LenturluEnd(End):
    """§R8.6: per seat the stake and refills paid, the stakes and layout taken, the payments,
    and the net (§3.5.4)."""

    REASONS: ClassVar[tuple[EndReason, ...]] = (EndReason.DEAL,)
    reason: EndReason
    winner: Seat
    staked: tuple[int, ...]
    refills: tuple[int, ...]
    taken: tuple[int, ...]
    layout: tuple[int, ...]
    payments: tuple[int, ...]
    net: tuple[int, ...]
    bank: int


BOOK: Final = RecordBook.of(
    "lenturlu", (Bought, StakeTaken, Refilled, PileClosed, Stopped), LenturluDealEnd, LenturluEnd
)
"""Лентюрлю's lines (RECORD.md §R8)."""
