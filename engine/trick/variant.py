"""The four games of the trick family as parameters of one machine (RULES.md §1.1–§1.5)."""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from engine.cards import A_HIGH, DECK_32, DECK_36, DECK_52, K_HIGH, Card, Rank, RankOrder, Suit

from .options import MistigriOptions, MushkaOptions, PamfilOptions, ShutikhaOptions


@dataclass(frozen=True, slots=True)
class Variant:
    """What sets one game of the family apart from the others."""

    name: str
    order: RankOrder  # §1.1.3, also the first-dealer draw order
    privileged: Card  # §1.1.4
    turn_up: bool  # §1.1.7, §1.2.1 (Шутиха: spades always trump, no turn-up)
    options_type: type[MushkaOptions]

    @property
    def privileged_suit(self) -> Suit:
        return self.privileged.suit


AS = Card(Rank.ACE, Suit.SPADES)
JC = Card(Rank.JACK, Suit.CLUBS)
QS = Card(Rank.QUEEN, Suit.SPADES)
KS = Card(Rank.KING, Suit.SPADES)
KC = Card(Rank.KING, Suit.CLUBS)

MUSHKA: Final = Variant("mushka", A_HIGH, AS, True, MushkaOptions)
PAMFIL: Final = Variant("pamfil", A_HIGH, JC, True, PamfilOptions)
SHUTIKHA: Final = Variant("shutikha", K_HIGH, QS, False, ShutikhaOptions)
MISTIGRI: Final = Variant("mistigri", K_HIGH, KC, True, MistigriOptions)

VARIANTS: Final = MappingProxyType({v.name: v for v in (MUSHKA, PAMFIL, SHUTIKHA, MISTIGRI)})


def deck_for(players: int) -> tuple[Card, ...]:
    """The deck by player count (§1.1.2)."""
    if players == 3:
        return DECK_32
    if players == 4:
        return DECK_36
    return DECK_52


SUIT_RANK: Final = MappingProxyType(
    {Suit.SPADES: 0, Suit.CLUBS: 1, Suit.DIAMONDS: 2, Suit.HEARTS: 3}
)
"""Мистигри's flush ranking by suit, H > D > C > S (§1.3.10.2)."""

FLUSH_POINTS: Final = MappingProxyType(
    {
        Rank.KING: 5, Rank.QUEEN: 4, Rank.JACK: 2, Rank.ACE: 1, Rank.TEN: 10, Rank.NINE: 9,
        Rank.EIGHT: 8, Rank.SEVEN: 7, Rank.SIX: 6, Rank.FIVE: 5, Rank.FOUR: 4, Rank.THREE: 3,
        Rank.TWO: 2,
    }
)  # fmt: skip
"""Card points of a flush (§1.3.10.2)."""
