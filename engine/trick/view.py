"""What one seat of a trick-family table may know (RULES.md §1)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Card, Suit
from engine.core import Result, Seat, View

from .actions import TrickAction
from .rules import TrickPhase


@dataclass(frozen=True, slots=True)
class SeatExchange:
    """What one seat gave up and got in its exchange this deal (§1.3.4): private to that seat."""

    discarded: tuple[Card, ...]
    drawn: tuple[Card, ...]  # from the stock, in draw order
    up: Card | None  # the turn-up, if the dealer took it (§1.2.2)


@dataclass(frozen=True, slots=True)
class SideBonus:
    """A side-ledger bonus booked in a deal (§1.3.7, §1.3.10.2): public."""

    kind: str  # "pamfil" (announced, §1.3.7) or "flush" (the best flush shown, §1.3.10.2)
    seat: Seat
    amount: int  # from each other seat


@dataclass(frozen=True, slots=True, kw_only=True)
class TrickView(View[TrickAction, TrickPhase]):
    """The base view plus the public table of the trick family.

    ``phase`` is ``retrump``, ``declare``, ``discard``, ``play`` or ``over``.
    """

    trump: Suit | None
    turn_up: Card | None  # still lying on the table
    taken_up: Card | None  # the turn-up the dealer took into his hand this deal (public)
    privileged: Card
    counts: tuple[int, ...]
    target: int
    declared: tuple[str | None, ...]  # "play", "pass", "walkover" or None per seat
    tricks_won: tuple[int, ...]  # this deal
    trick: tuple[tuple[Seat, Card], ...]  # the current trick in play order
    led: Suit | None  # the effective suit of the current trick's led card (§1.4.2), if any
    leader: Seat | None
    last_trick: tuple[tuple[Seat, Card], ...] | None
    last_winner: Seat | None
    trick_no: int  # 1–5 during play, else 0
    stock_size: int
    side: tuple[int, ...]
    announced: Seat | None  # Памфил: who announced this deal
    deck_size: int  # the cards in this table's deck (§1.1.2)
    exchanged: tuple[int | None, ...]  # per seat: how many cards it exchanged this deal, or None
    exchange: SeatExchange | None  # this seat's own exchange this deal (never in the public view)
    ended_bonuses: tuple[SideBonus, ...]  # the side-ledger bonuses of the deal that ended last
    result: Result | None  # how the pulka ended (phase ``over``): reason, winner, net per seat
    tricks: tuple[tuple[tuple[Seat, Card], ...], ...] = ()  # this deal's completed tricks, in
    # play order (public: every card played to a trick was seen by the table, §1.4.8)
    flushes: tuple[tuple[Seat, Suit], ...] = ()  # Мистигри: the flushes shown this deal, in
    # order (public: each is shown to the table at once, §1.3.10.1)
    previous_bonuses: tuple[SideBonus, ...] = ()  # those of the deal that ended before it
    # (one action may end two deals: a deal, then the next one won at once, §1.3.9, §1.3.11)
    must_trump: bool = False  # the table's option ``must_trump`` (§1.4.3 b, §1.7): public
