"""What one seat of a Копилка table may know (RULES.md §2)."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.cards import Card, Suit
from engine.core import Result, Seat, View

from .actions import KopilkaAction
from .options import KopilkaOptions
from .rules import KopilkaPhase


@dataclass(frozen=True, slots=True, kw_only=True)
class LayOut:
    """One lay-out of the same-suit rule (§2.3) as a seat may know it: who laid out which suit,
    how many cards, who took one (in order), how many came back and how many were drawn.
    ``taken`` holds, per taker, the card taken — only for the view's own seat (the receiver,
    §2.3.4); every other entry is None. The group's view has no cards at all."""

    seat: Seat
    suit: Suit
    count: int
    takers: tuple[Seat, ...]
    taken: tuple[Card | None, ...]
    returned: int
    drawn: int


@dataclass(frozen=True, slots=True, kw_only=True)
class KopilkaView(View[KopilkaAction, KopilkaPhase]):
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
    # for the screens (not in the record's state): what happened since the last trick closed
    layouts: tuple[LayOut, ...] = ()  # lay-outs since the last completed trick or take-back
    trick_log: tuple[tuple[Seat, KopilkaAction], ...] = ()  # the current trick's actions
    last_trick: tuple[tuple[Seat, Card], ...] = ()  # the last completed trick's plays
    last_winner: Seat | None = None
    last_points: int = 0
    takeback: Seat | None = None  # the leader who took the card back last (none since a trick)
    lead_passed: tuple[Seat, ...] = ()  # §2.4.2: the seats the lead passed over to ``to_act``
    lead_freed: bool = False  # §2.4.2: nobody could lead another suit; this lead is free
    gone: tuple[Card, ...] = ()  # the cards of this deal's completed tricks (seen by all)
    options: KopilkaOptions = field(default_factory=KopilkaOptions)  # the table's (§2.7)
    # what the table may infer of the hidden hands (engine/kopilka/knowledge.py), per seat:
    voids: tuple[frozenset[Suit], ...] = ()  # suits a seat is known to lack (§2.4.2, §2.4.3)
    shown: tuple[tuple[Card, ...], ...] = ()  # cards seen going back into it (§2.4.7)
    laid: tuple[Card, ...] = ()  # every card the view's own seat laid out this deal (§2.3.3)
    # per seat: the winning cards it followed below, one per suit (engine/kopilka/knowledge.py)
    ducked: tuple[tuple[Card, ...], ...] = ()
    bought_cards: tuple[Card, ...] = ()  # the cards the view's own seat bought this trick
    result: Result | None = None  # how the partia ended (phase ``over``): winner, net per seat


class LayOutLog:
    """A lay-out as it happened, kept by the state (each seat's view shows its part,
    :class:`LayOut`)."""

    __slots__ = ("drawn", "returned", "seat", "size", "suit", "takes")

    def __init__(self, seat: Seat, suit: Suit, size: int) -> None:
        self.seat = seat
        self.suit = suit
        self.size = size
        self.takes: list[tuple[Seat, Card]] = []
        self.returned = 0
        self.drawn = 0

    def seen_by(self, viewer: Seat | None) -> LayOut:
        return LayOut(
            seat=self.seat,
            suit=self.suit,
            count=self.size,
            takers=tuple(s for s, _ in self.takes),
            taken=tuple(c if s == viewer else None for s, c in self.takes),
            returned=self.returned,
            drawn=self.drawn,
        )
