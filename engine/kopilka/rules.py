"""Копилка's fixed facts: the game's size, the privileged card, suit values (RULES.md §2)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from enum import StrEnum
from types import MappingProxyType
from typing import Final

from engine.cards import Card, Rank, Suit
from engine.skeleton import PHASE_OVER, PHASE_SEATS


class KopilkaPhase(StrEnum):
    """The phases of a partia (``over`` at the end, ``seats`` before the first deal)."""

    SEATS = PHASE_SEATS  # set by the skeleton (§0.5)
    LEAD = "lead"
    FOLLOW = "follow"
    OVER = PHASE_OVER  # set by the skeleton at the end


PLAYERS: Final = 4  # §2.1.1
DEALS: Final = 4  # §2.1.2
HAND_SIZE: Final = 5  # §2.2.1
TAKERS: Final = 3  # §2.3.4: the three opponents
TAKEBACKS_TO_BLOCK: Final = 4  # §2.5.2

ACE_OF_SPADES: Final = Card(Rank.ACE, Suit.SPADES)
"""§2.4.4: the AS may be played to any trick and wins it."""

SUIT_POINTS: Final = MappingProxyType(
    {Suit.SPADES: 1, Suit.CLUBS: 2, Suit.DIAMONDS: 3, Suit.HEARTS: 4}
)
"""§2.6.1: a trick is worth its led suit's value."""

LAY_OUT_PRIORITY: Final = (Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.SPADES)
"""§2.3.2: with equal counts the higher-valued suit is laid out first."""


def lay_out_suit(hand: Sequence[Card]) -> Suit | None:
    """§2.3.1, §2.3.2: the suit of k ≥ 3 cards to lay out (more cards first, then H D C S)."""
    counts = Counter(c.suit for c in hand)
    best: Suit | None = None
    for suit in LAY_OUT_PRIORITY:
        if counts[suit] >= 3 and (best is None or counts[suit] > counts[best]):
            best = suit
    return best
