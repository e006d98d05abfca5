"""What one seat of a Кончинка table may know (RULES.md §4)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Card
from engine.core import Result, Seat, View

from .actions import KonchinkaAction
from .rules import KonchinkaPhase


@dataclass(frozen=True, slots=True, kw_only=True)
class KonchinkaView(View[KonchinkaAction, KonchinkaPhase]):
    """The base view plus the table and the hauls. ``phase``: ``play``."""

    table: tuple[Card, ...]  # place order
    captured: tuple[int, ...]  # cards captured this deal, per seat
    clubs: tuple[int, ...]  # clubs captured this deal, per seat
    konchinki: tuple[tuple[Card, ...], ...]  # кончинки captured this deal, per seat
    totals: tuple[int, ...]  # points before this deal (after the last deal once over)
    target: int
    stock: int  # cards left in the stock
    last_capturer: Seat | None
    court_values: bool
    taken: tuple[tuple[Card, ...], ...] = ()  # the cards each seat captured this deal (seen by all)
    moves: tuple[tuple[Seat, KonchinkaAction], ...] = ()  # the last round's moves, in order
    result: Result | None = None  # how the game ended (phase ``over``): winner, net per seat
    # per seat, its last trail onto a non-empty table this deal (§4.3.5: nothing in its hand
    # could capture then): the table as it lay, and the cards it has drawn since (the only ones
    # the fact does not cover); ((), 0): none
    trailed: tuple[tuple[tuple[Card, ...], int], ...] = ()
