"""What one seat of a Лентюрлю table may know (RULES.md §3)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Card
from engine.core import Result, Seat, View

from .actions import LenturluAction
from .rules import LenturluPhase


@dataclass(frozen=True, slots=True, kw_only=True)
class LenturluView(View[LenturluAction, LenturluPhase]):
    """The base view plus the layout and the pile. ``phase``: ``lead``, ``follow``."""

    layout: tuple[tuple[Card, int], ...]  # money on each Lenturlu card now, in layout order
    pile: tuple[Card, ...]  # the current pile, bottom first
    top: Card | None  # the pile's top card (None when a lead is due)
    pile_leader: Seat | None  # who led the current pile
    leading: bool  # the seat to act leads a new pile
    passes: int  # passes in a row since the last run
    stock: int  # cards left in the stock
    bought: bool  # the seat to act has bought this turn
    set_aside: int  # cards in stopped or closed piles
    manner: str
    payment: str
    pile_end: str = ""  # the last pile ended by a "stop" (§3.4.1) or a "close" (a K, §3.4.2),
    # made by the seat now leading; "" once a run is played on the new pile (or before the first)
    money: tuple[
        int, ...
    ] = ()  # each seat's money so far: taken − staked − refills; the net once over
    out: tuple[Card, ...] = ()  # the cards of the stopped and closed piles (seen by all)
    rate: int = 1  # the table's options (§3.6), public
    unit: int = 1
    refill_units: int = 1
    as_stake_open: bool = True  # a lead of the AS would take its stake now (§3.4.6)
    runs: tuple[tuple[Seat, tuple[Card, ...]], ...] = ()  # the current pile's runs, by seat
    turns: tuple[tuple[Seat, LenturluAction], ...] = ()  # buys and passes since the last run
    takes: tuple[tuple[Seat, Card, int], ...] = ()  # every stake taken this deal (§3.4.4)
    result: Result | None = None  # how the deal ended (phase ``over``): winner, net per seat
    # what the table may infer of the hands (engine/lenturlu/knowledge.py), per seat, as
    # bitmasks of rank values (bit v: value v, A 1 … K 13): held for certain, lacked for
    # certain, most likely lacked (a pass after a buy; ``stopped``: just outside its runs)
    holds: tuple[int, ...] = ()
    lacks: tuple[int, ...] = ()
    unlikely: tuple[int, ...] = ()
    stopped: tuple[int, ...] = ()
