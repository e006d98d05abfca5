"""Мушка-Мистигри: the KC, flushes and KC + four (RULES.md §1; seeds 000, 001)."""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType
from typing import Final

from engine.cards import K_HIGH, Card, Rank, Suit
from engine.core import Seat

from .mushka import score_held_bonus
from .options import MistigriOptions, MushkaOptions
from .rules import HAND_SIZE, KC, Flush, Privilege, Shown, Variant

SUIT_RANK: Final = MappingProxyType(
    {Suit.SPADES: 0, Suit.CLUBS: 1, Suit.DIAMONDS: 2, Suit.HEARTS: 3}
)
"""The flush ranking by suit, H > D > C > S (§1.3.10.2)."""

FLUSH_POINTS: Final = MappingProxyType(
    {
        Rank.KING: 5, Rank.QUEEN: 4, Rank.JACK: 2, Rank.ACE: 1, Rank.TEN: 10, Rank.NINE: 9,
        Rank.EIGHT: 8, Rank.SEVEN: 7, Rank.SIX: 6, Rank.FIVE: 5, Rank.FOUR: 4, Rank.THREE: 3,
        Rank.TWO: 2,
    }
)  # fmt: skip
"""Card points of a flush (§1.3.10.2)."""

NOTHING: Final = Shown()


def _is_flush(hand: Sequence[Card]) -> bool:
    """§1.3.10.1: five cards of one suit."""
    return len(hand) == HAND_SIZE and all(c.suit is hand[0].suit for c in hand)


def _is_kc_four(hand: Sequence[Card]) -> bool:
    """§1.3.11: the KC and four cards of one suit (clubs included)."""
    others = [c for c in hand if c != KC]
    return len(others) == 4 == len(hand) - 1 and len({c.suit for c in others}) == 1


def flushes_and_kc_four(hands: Sequence[tuple[Seat, Sequence[Card]]]) -> Shown:
    """§1.3.10.1, §1.3.11: every flush of the hands checked, in the order given; then the
    first KC + four among them. A seat may show a flush at each check (§1.3.10.3)."""
    flushes = tuple(
        Flush(seat, hand[0].suit, sum(FLUSH_POINTS[c.rank] for c in hand))
        for seat, hand in hands
        if _is_flush(hand)
    )
    win = next(((seat, "kc_four") for seat, hand in hands if _is_kc_four(hand)), None)
    if not flushes and win is None:
        return NOTHING
    return Shown(flushes, win)


def award_best_flush(flushes: Sequence[Flush], options: MushkaOptions) -> tuple[Seat, int]:
    """§1.3.10.2: the best flush of the deal (suit, then card points, then the earlier) and the
    bonus each other seat pays it."""
    assert isinstance(options, MistigriOptions)
    best = max(
        range(len(flushes)), key=lambda i: (SUIT_RANK[flushes[i].suit], flushes[i].points, -i)
    )
    return flushes[best].seat, options.flush_bonus


MISTIGRI: Final = Variant(
    "mistigri",
    K_HIGH,  # §1.1.3
    KC,  # §1.1.4
    MistigriOptions,
    trump=None,  # §1.2.1: the turn-up
    privilege=Privilege.UNLED,  # §1.4.4–§1.4.6: "exactly" the AS
    score=score_held_bonus,  # §1.5.4: as Мушка with the KC for the AS
    check=flushes_and_kc_four,  # §1.3.10, §1.3.11
    flush_award=award_best_flush,  # §1.3.10.2
)
"""Мушка-Мистигри (RULES.md §1)."""
