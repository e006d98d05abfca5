"""What one seat of a Копилка table may know (RULES.md §2)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Card, Suit
from engine.core import Seat, View

from .actions import KopilkaAction


@dataclass(frozen=True, slots=True, kw_only=True)
class KopilkaView(View[KopilkaAction]):
    """The base view plus the bank, points and the trick. ``phase``: ``lead``, ``follow``."""

    bank: int
    partia_points: tuple[int, ...]  # completed deals plus this deal's tricks
    deal_points: tuple[int, ...]
    tricks_won: tuple[int, ...]  # tricks won this deal per seat
    trick_no: int  # completed tricks this deal
    trick: tuple[tuple[Seat, Card], ...]  # the current trick's plays
    led_suit: Suit | None
    leader: Seat | None
    last_suit: Suit | None  # the led suit of the last completed trick (§2.4.2)
    forbidden_suit: Suit | None  # the suit the leader may not lead now (None: free lead)
    stock_size: int
    bought: bool  # the follower to act has bought this turn (§2.4.3 c)
    takebacks: int  # take-backs in a row (§2.5.2)
    fines: tuple[int, ...]  # paid into the bank this partia, ante included
