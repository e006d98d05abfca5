"""Копилка's typed record lines (RECORD.md §R7): its events, ``deal_end`` and ``end``.

What the lines mean is RECORD.md's; how a typed line reads and writes is :mod:`engine.events`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar, Final

from engine.cards import Card, Suit
from engine.core import Seat
from engine.events import DealEnd, End, EndReason, Event, LineObject, RecordBook, key, typed


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class Ante(Event):
    """§2.1.3: each seat's ante into the bank, and the bank after it."""

    KIND: ClassVar[str] = "ante"
    amount: int
    bank: int


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class LaidOut(Event):
    """§2.3.3: three or more cards of one suit laid out (canonical order)."""

    KIND: ClassVar[str] = "lay_out"
    seat: Seat
    suit: Suit
    cards: tuple[Card, ...]


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class Taken(Event):
    """§2.3.4: an opponent (``seat``) takes a laid-out card of ``holder`` — a random outcome."""

    KIND: ClassVar[str] = "take"
    seat: Seat
    holder: Seat = field(metadata=key("from"))
    card: Card


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class Returned(Event):
    """§2.3.5: the laid-out cards nobody took go back to their holder."""

    KIND: ClassVar[str] = "return"
    seat: Seat
    cards: tuple[Card, ...]


class DrawWhy(StrEnum):
    """Why Копилка's stock was drawn from (§R7.3 ``draw``)."""

    BUY = "buy"  # §2.4.5
    REPLACE = "replace"  # §2.3.6: after a lay-out


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class StockDrawn(Event):
    """§2.3.6, §2.4.5: cards drawn from the stock, in order (maybe none)."""

    KIND: ClassVar[str] = "draw"
    seat: Seat
    cards: tuple[Card, ...]
    why: DrawWhy


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class LeadPassed(Event):
    """§2.4.2: the seat that could not lead (``passer``) and the one that now leads."""

    KIND: ClassVar[str] = "lead_passes"
    passer: Seat = field(metadata=key("from"))
    to: Seat


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class LeadFreed(Event):
    """§2.4.2: nobody could lead another suit: the restriction is lifted."""

    KIND: ClassVar[str] = "lead_free"
    seat: Seat


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class TookBack(Event):
    """§2.4.7: nobody followed: the leader takes the card back."""

    KIND: ClassVar[str] = "takeback"
    seat: Seat
    card: Card


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class KopilkaTrickWon(Event):
    """§2.4.6, §2.6.1: a trick complete: its number in the deal, leader, led suit, plays,
    winner, points and whether an ace doubled them."""

    KIND: ClassVar[str] = "trick"
    no: int
    leader: Seat
    suit: Suit
    plays: tuple[tuple[Seat, Card], ...]
    winner: Seat
    points: int
    double: bool


class FineKind(StrEnum):
    """What a fine is for (§R7.3 ``fine``)."""

    HOLD_PASS = "hold_pass"  # §2.6.4: passed holding the led suit
    NO_TRICK = "no_trick"  # §2.6.2
    DEAL_FEE = "deal_fee"  # §2.6.3


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class Fined(Event):
    """§2.6: a fine paid into the bank, and the bank after it."""

    KIND: ClassVar[str] = "fine"
    seat: Seat
    kind: FineKind
    amount: int
    bank: int


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class WentOut(Event):
    """§2.5.1: a player is out of cards (the first is the deal's winner)."""

    KIND: ClassVar[str] = "out"
    seat: Seat


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class Blocked(Event):
    """§2.5.2: four take-backs in a row: the fewest cards win the deal."""

    KIND: ClassVar[str] = "blocked"
    winner: Seat


KopilkaEvent = (
    Ante
    | LaidOut
    | Taken
    | Returned
    | StockDrawn
    | LeadPassed
    | LeadFreed
    | TookBack
    | KopilkaTrickWon
    | Fined
    | WentOut
    | Blocked
)
"""Any event of Копилка."""


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class SeatDeal(LineObject):
    """One seat's deal (§R7.4): each trick won (led suit, points), the deal's and the partia's
    points, the cards left, the fines paid in the deal."""

    seat: Seat
    tricks: tuple[tuple[Suit, int], ...]
    points: int
    partia_points: int
    cards_left: int
    fines: int


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class KopilkaDealEnd(DealEnd):
    """§R7.4: the deal's winner, whether take-backs blocked it, each seat, the bank after."""

    no: int
    winner: Seat
    blocked: bool
    seats: tuple[SeatDeal, ...]
    bank: int


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class KopilkaEnd(End):
    """§R7.5: the bank paid out (§2.6.5) to the points, the rest to the last deal's winner."""

    REASONS: ClassVar[tuple[EndReason, ...]] = (EndReason.PARTIA,)
    reason: EndReason
    last_winner: Seat
    points: tuple[int, ...]
    bank_before: int
    shortfall: bool
    payout: tuple[int, ...]
    paid_in: tuple[int, ...]
    net: tuple[int, ...]
    bank: int


BOOK: Final = RecordBook.of(
    "kopilka",
    (
        Ante,
        LaidOut,
        Taken,
        Returned,
        StockDrawn,
        LeadPassed,
        LeadFreed,
        TookBack,
        KopilkaTrickWon,
        Fined,
        WentOut,
        Blocked,
    ),
    KopilkaDealEnd,
    KopilkaEnd,
)
"""Копилка's lines (RECORD.md §R7)."""
