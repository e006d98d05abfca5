"""What one seat of a trick-family table may know (RULES.md §1)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Card, Suit
from engine.core import Seat, View

from .actions import TrickAction


@dataclass(frozen=True, slots=True, kw_only=True)
class TrickView(View[TrickAction]):
    """The base view plus the public table of the trick family.

    ``phase`` is ``retrump``, ``declare``, ``discard``, ``play`` or ``over``.
    """

    trump: Suit | None
    turn_up: Card | None  # still lying on the table
    privileged: Card
    counts: tuple[int, ...]
    target: int
    declared: tuple[str | None, ...]  # "play", "pass", "walkover" or None per seat
    tricks_won: tuple[int, ...]  # this deal
    trick: tuple[tuple[Seat, Card], ...]  # the current trick in play order
    leader: Seat | None
    last_trick: tuple[tuple[Seat, Card], ...] | None
    last_winner: Seat | None
    trick_no: int  # 1–5 during play, else 0
    stock_size: int
    side: tuple[int, ...]
    announced: Seat | None  # Памфил: who announced this deal
