"""The trick family's typed record lines (RECORD.md §R6): its events, ``deal_end`` and ``end``.

What the lines mean is RECORD.md's; how a typed line reads and writes is :mod:`engine.events`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar, Final

from engine.cards import Card, Suit
from engine.core import Seat
from engine.events import DealEnd, End, EndReason, Event, LineObject, RecordBook, typed


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class TrumpSet(Event):
    """§1.2: the trump of the deal: the turn-up (None in Шутиха), or the JC after a re-trump."""

    KIND: ClassVar[str] = "trump"
    card: Card | None
    suit: Suit
    retrump: bool


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class Exchanged(Event):
    """§1.3.4: after every ``play``: the cards discarded (in the action's order), drawn, and
    whether the dealer took the turn-up."""

    KIND: ClassVar[str] = "exchange"
    seat: Seat
    discarded: tuple[Card, ...]
    drawn: tuple[Card, ...]
    up: bool


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class PamfilBonus(Event):
    """§1.3.7: a pamfil announced; each other seat pays ``amount`` on the side ledger."""

    KIND: ClassVar[str] = "pamfil_bonus"
    seat: Seat
    amount: int


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class FlushShown(Event):
    """§1.3.10.1: Мистигри's flush, shown at once."""

    KIND: ClassVar[str] = "flush"
    seat: Seat
    suit: Suit
    cards: tuple[Card, ...]
    points: int


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class FlushBonus(Event):
    """§1.3.10.2: the best flush's bonus; each other seat pays ``amount``."""

    KIND: ClassVar[str] = "flush_bonus"
    seat: Seat
    amount: int


class InstantKind(StrEnum):
    """What won the pulka at the deal (§R6.2 ``instant_win``)."""

    FIVE_SPADES = "five_spades"  # §1.3.9
    KC_FOUR = "kc_four"  # §1.3.11


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class InstantWin(Event):
    """§1.3.9, §1.3.11: a hand that wins the pulka at once, shown to all."""

    KIND: ClassVar[str] = "instant_win"
    seat: Seat
    kind: InstantKind
    cards: tuple[Card, ...]


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class Walkover(Event):
    """§1.3.5: everyone passed; the dealer takes the deal alone."""

    KIND: ClassVar[str] = "walkover"
    seat: Seat


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class DealtOut(Event):
    """§1.3.12: Шутиха's Q♠ still in the stock: one card dealt out."""

    KIND: ClassVar[str] = "deal_out"
    seat: Seat
    card: Card


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class TrickWon(Event):
    """§1.4: a trick complete: its number (1–5), leader, plays in order and winner."""

    KIND: ClassVar[str] = "trick"
    no: int
    leader: Seat
    plays: tuple[tuple[Seat, Card], ...]
    winner: Seat


TrickEvent = (
    TrumpSet
    | Exchanged
    | PamfilBonus
    | FlushShown
    | FlushBonus
    | InstantWin
    | Walkover
    | DealtOut
    | TrickWon
)
"""Any event of the trick family."""


class DealEnding(StrEnum):
    """How a deal ended (§R6.3 ``result``)."""

    PLAYED = "played"
    WALKOVER = "walkover"  # §1.3.5
    INSTANT = "instant"  # §1.3.9, §1.3.11: an instant win ended the deal


class SeatStatus(StrEnum):
    """A seat's part in a deal (§R6.3 ``status``)."""

    PLAYED = "played"
    PASSED = "passed"
    WALKOVER = "walkover"  # the lone dealer


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class SeatFigures(LineObject):
    """One seat's figures of a deal (§R6.3, §1.5)."""

    seat: Seat
    status: SeatStatus
    held: bool  # §1.5.1
    tricks: int
    written_off: int
    remise: int
    before: int
    after: int
    overshoot: bool  # §1.5.7: ``after`` is the target


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class TrickDealEnd(DealEnd):
    """§R6.3: the deal's result, trump, every seat's figures and who reached zero (the winner
    first, §1.5.8)."""

    no: int
    result: DealEnding
    trump: Suit
    seats: tuple[SeatFigures, ...]
    zero: tuple[Seat, ...]


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class TrickEnd(End):
    """§R6.4: the pulka settled: counts, pulka money, side ledger, net (§1.6)."""

    REASONS: ClassVar[tuple[EndReason, ...]] = (EndReason.ZERO, EndReason.INSTANT)
    reason: EndReason
    winner: Seat
    deals: int
    counts: tuple[int, ...]
    pulka: tuple[int, ...]
    side: tuple[int, ...]
    net: tuple[int, ...]


BOOK: Final = RecordBook.of(
    "trick",
    (
        TrumpSet,
        Exchanged,
        PamfilBonus,
        FlushShown,
        FlushBonus,
        InstantWin,
        Walkover,
        DealtOut,
        TrickWon,
    ),
    TrickDealEnd,
    TrickEnd,
)
"""The trick family's lines (RECORD.md §R6)."""
