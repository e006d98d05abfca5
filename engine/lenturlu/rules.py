"""Лентюрлю's fixed facts: seat counts, the Lenturlu cards, the deal table, runs (RULES.md §3)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from enum import StrEnum
from types import MappingProxyType
from typing import Final

from engine.cards import DECK_52, RANK_VALUE, SUIT_ORDER, Card, Rank
from engine.skeleton import PHASE_OVER, PHASE_SEATS

from .actions import Run


class LenturluPhase(StrEnum):
    """The phases of a deal (``over`` at the end, ``seats`` before the deal)."""

    SEATS = PHASE_SEATS  # set by the skeleton (§0.5)
    LEAD = "lead"  # §3.2.3: the seat to act starts a new pile
    FOLLOW = "follow"  # §3.2.4, §3.3: the seat to act may continue the pile
    OVER = PHASE_OVER  # set by the skeleton at the end


SEAT_COUNTS: Final = (3, 4, 5, 6, 7, 8)  # §3.1.1

LENTURLU_CARDS: Final[tuple[Card, ...]] = tuple(
    Card.parse(code) for code in ("7D", "KH", "JC", "AS", "QS")
)
"""The five Lenturlu cards in layout order (§3.1.2); stakes n+2 … n−2 units (§3.1.3)."""

ACE_OF_SPADES: Final = LENTURLU_CARDS[3]
"""§3.4.6: in Manner A (``manner=king``) its stake goes only with the deal's first lead."""

LAYOUT_OFFSETS: Final[tuple[int, ...]] = (2, 1, 0, -1, -2)
"""§3.1.3: units on 7D KH JC AS QS are n + these."""

STAKE_UNITS_EACH: Final = 5
"""§3.1.3: each player pays 5 × ``unit`` onto the layout."""

DEAL_TABLE: Final[Mapping[int, int]] = MappingProxyType({3: 15, 4: 12, 5: 9, 6: 8, 7: 7, 8: 6})
"""Cards dealt to each player by player count (§3.1.4); the rest is the stock."""

KING_VALUE: Final = RANK_VALUE[Rank.KING]
"""§3.1.1: K 13, the highest; a run ending on it closes the pile (§3.2.2, §3.4.2)."""


def layout_units(players: int) -> tuple[int, ...]:
    """Units on 7D KH JC AS QS at the start of the deal (§3.1.3)."""
    return tuple(players + offset for offset in LAYOUT_OFFSETS)


def follow_value(top: Card) -> int:
    """§3.2.4: with the top at rank r, a follow starts at rank r + 1."""
    return RANK_VALUE[top.rank] + 1


def able(hand: Iterable[Card], need: int) -> bool:
    """§3.3.1: the follower is able if he holds a card of rank value ``need`` (r + 1)."""
    return any(RANK_VALUE[c.rank] == need for c in hand)


_SORT: Final[dict[Card, int]] = {
    c: 4 * RANK_VALUE[c.rank] + SUIT_ORDER.index(c.suit) for c in DECK_52
}
"""Rank value, then suits S C D H: the order runs are listed in."""
_CODE: Final[dict[Card, str]] = {c: str(c) for c in DECK_52}


def runs(hand: Iterable[Card], start: int | None) -> Iterator[Run]:
    """Every run in ``hand`` (§3.2.1), starting at rank value ``start`` (a follow, §3.2.4) or
    anywhere (a lead, §3.2.3: an ace only first, as nothing lies below it).

    Order: start value ascending, then length, then suits S C D H per rank (deterministic): the
    runs of one length are those of the length before, each extended by every card of the next
    rank in turn.
    """
    by_value: dict[int, list[tuple[Card, str]]] = {}
    for c in sorted(hand, key=_SORT.__getitem__):
        by_value.setdefault(RANK_VALUE[c.rank], []).append((c, _CODE[c]))
    for first in by_value if start is None else [start]:  # keys ascend: the hand was sorted
        level: list[tuple[tuple[Card, ...], str]] = [((), "run")]
        value = first
        while value in by_value:
            level = [
                ((*cards, c), f"{text} {code}")
                for cards, text in level
                for c, code in by_value[value]
            ]
            for cards, text in level:
                yield Run.with_text(cards, text)
            value += 1
