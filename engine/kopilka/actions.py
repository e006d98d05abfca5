"""Копилка's options, actions and their notation (RULES.md §2.4, §2.7; RECORD.md §R4, §R7.2)."""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from engine.cards import Card, Rank, Suit
from engine.errors import InvalidNotation
from engine.options import bool_option, int_option

MONEY_MAX: Final = 1_000_000


@dataclass(frozen=True, slots=True)
class Options:
    """The table options of §2.7 (all money in kopecks)."""

    ante: int = int_option(20, 0, MONEY_MAX)
    point_rate: int = int_option(1, 0, MONEY_MAX)
    no_trick_fine: int = int_option(5, 0, MONEY_MAX)
    deal_fee: int = int_option(5, 0, MONEY_MAX)
    hold_pass: bool = bool_option(False)
    hold_pass_fine: int = int_option(5, 0, MONEY_MAX)


@dataclass(frozen=True, slots=True)
class KCard:
    """Lead or follow with a card (§2.4.1, §2.4.3): ``card X``."""

    card: Card

    def __str__(self) -> str:
        return f"card {self.card}"


@dataclass(frozen=True, slots=True)
class Buy:
    """Draw 1 or 2 cards from the stock while following (§2.4.5): ``buy k``."""

    k: int

    def __str__(self) -> str:
        return f"buy {self.k}"


@dataclass(frozen=True, slots=True)
class KPass:
    """Decline to play to the trick (§2.4.3): ``pass``."""

    def __str__(self) -> str:
        return "pass"


KopilkaAction = KCard | Buy | KPass

ACE_OF_SPADES: Final = Card(Rank.ACE, Suit.SPADES)

SUIT_POINTS: Final = MappingProxyType(
    {Suit.SPADES: 1, Suit.CLUBS: 2, Suit.DIAMONDS: 3, Suit.HEARTS: 4}
)
"""§2.6.1: a trick is worth its led suit's value."""

LAY_OUT_PRIORITY: Final = (Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.SPADES)
"""§2.3.2: with equal counts the higher-valued suit is laid out first."""


def parse_action(text: str) -> KopilkaAction:
    """Read a Копилка action in RECORD.md §R4 notation.

    >>> parse_action("card 10H"), parse_action("buy 2"), parse_action("pass")
    (KCard(card=Card.parse('10H')), Buy(k=2), KPass())
    """
    match text.split():
        case ["card", code]:
            return KCard(Card.parse(code))
        case ["buy", ("1" | "2") as k]:
            return Buy(int(k))
        case ["pass"]:
            return KPass()
        case _:
            raise InvalidNotation("action", text)
