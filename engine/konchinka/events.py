"""Кончинка's typed record lines (RECORD.md §R9): its events, ``deal_end`` and ``end``.

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
class TableFixed(Event):
    """§4.2.2: a card of the initial table (place 1–4) put into the stock at ``insert_at``
    (0 = top) and replaced by the stock's top card."""

    KIND: ClassVar[str] = "table_fix"
    place: int
    card: Card
    insert_at: int
    replacement: Card


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class TableLaid(Event):
    """§4.2.2: the table after the fixing, in place order."""

    KIND: ClassVar[str] = "table"
    cards: tuple[Card, ...]


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class CardDrawn(Event):
    """§4.3.7: the card drawn after a move."""

    KIND: ClassVar[str] = "draw"
    seat: Seat
    card: Card


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class LastTake(Event):
    """§4.3.8: the cards left on the table go to the last capturer (None: nobody captured)."""

    KIND: ClassVar[str] = "last_take"
    seat: Seat | None
    cards: tuple[Card, ...]


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class Certain(Event):
    """§4.4.4: the early finish: ``seat`` wins whatever is left; each seat's guaranteed and
    possible points."""

    KIND: ClassVar[str] = "certain"
    seat: Seat
    guaranteed: tuple[int, ...]
    possible: tuple[int, ...]


KonchinkaEvent = TableFixed | TableLaid | CardDrawn | LastTake | Certain
"""Any event of Кончинка."""


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class SeatHaul(LineObject):
    """One seat's deal (§R9.4, §4.4.1): cards and clubs captured, its кончинки, the deal's
    points and the total after it."""

    seat: Seat
    cards: int
    clubs: int
    konchinki: tuple[Card, ...]
    points: int
    total: int


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class KonchinkaDealEnd(DealEnd):
    """§R9.4: every seat's haul; ``early``: the deal ended by the early finish (§4.4.4)."""

    no: int
    early: bool
    seats: tuple[SeatHaul, ...]


class Payment(StrEnum):
    """How the money was settled (§R9.5 ``payment``: the table's ``payment`` option, §4.4.5)."""

    MUSHKA = "mushka"  # per point short of the target
    POT = "pot"  # the pot to the winner


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class KonchinkaEnd(End):
    """§R9.5: the winner, the totals, the deals played, how money was settled, the net."""

    REASONS: ClassVar[tuple[EndReason, ...]] = (EndReason.TARGET, EndReason.CERTAIN)
    reason: EndReason
    winner: Seat
    totals: tuple[int, ...]
    deals: int
    payment: Payment
    net: tuple[int, ...]


BOOK: Final = RecordBook.of(
    "konchinka",
    (TableFixed, TableLaid, CardDrawn, LastTake, Certain),
    KonchinkaDealEnd,
    KonchinkaEnd,
)
"""Кончинка's lines (RECORD.md §R9)."""
