"""Cards, suits, ranks, decks and rank orders (RULES.md §0.2, §0.3; RECORD.md §R2)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Final

from engine.errors import InvalidNotation


class Suit(StrEnum):
    """A suit; the value is its RECORD.md letter."""

    SPADES = "S"
    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"


class Rank(StrEnum):
    """A rank; the value is its RECORD.md code. Order lives in rank orders, not here."""

    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "10"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    ACE = "A"


RankOrder = tuple[Rank, ...]
"""Ranks highest first, as in RULES.md §1.1.3."""

A_HIGH: Final[RankOrder] = (
    Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN, Rank.NINE, Rank.EIGHT,
    Rank.SEVEN, Rank.SIX, Rank.FIVE, Rank.FOUR, Rank.THREE, Rank.TWO,
)  # fmt: skip
K_HIGH: Final[RankOrder] = (
    Rank.KING, Rank.QUEEN, Rank.JACK, Rank.ACE, Rank.TEN, Rank.NINE, Rank.EIGHT,
    Rank.SEVEN, Rank.SIX, Rank.FIVE, Rank.FOUR, Rank.THREE, Rank.TWO,
)  # fmt: skip
ACE_LOW: Final[RankOrder] = (
    Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN, Rank.NINE, Rank.EIGHT, Rank.SEVEN,
    Rank.SIX, Rank.FIVE, Rank.FOUR, Rank.THREE, Rank.TWO, Rank.ACE,
)  # fmt: skip
"""Лентюрлю and Кончинка: K high, A low (RECORD.md §R1.8, RULES.md §0.5.2)."""

SUIT_ORDER: Final[tuple[Suit, ...]] = (Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS)
"""Canonical suit order of card sets in records (RECORD.md §R1.8)."""

RANK_VALUE: Final[Mapping[Rank, int]] = MappingProxyType(
    {
        Rank.ACE: 1, Rank.TWO: 2, Rank.THREE: 3, Rank.FOUR: 4, Rank.FIVE: 5, Rank.SIX: 6,
        Rank.SEVEN: 7, Rank.EIGHT: 8, Rank.NINE: 9, Rank.TEN: 10, Rank.JACK: 11,
        Rank.QUEEN: 12, Rank.KING: 13,
    }
)  # fmt: skip
"""Rank values with the ace low (Лентюрлю §3.1.1; Кончинка court values §4.1.2)."""


@dataclass(frozen=True, slots=True)
class Card:
    """One card. ``str`` is its RECORD.md code.

    >>> Card.parse("10h"), str(Card(Rank.ACE, Suit.SPADES))
    (Card.parse('10H'), 'AS')
    """

    rank: Rank
    suit: Suit
    _code: str = field(init=False, repr=False, compare=False)
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Cards are hashed and printed on every engine step: compute both once.
        code = f"{self.rank.value}{self.suit.value}"
        object.__setattr__(self, "_code", code)
        object.__setattr__(self, "_hash", hash(code))

    def __hash__(self) -> int:
        return self._hash

    def __str__(self) -> str:
        return self._code

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Card:
        return self  # immutable

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    @classmethod
    def parse(cls, code: str) -> Card:
        """Read one card code (``AS``, ``10H``); lower case is accepted."""
        try:
            return _BY_CODE[code.strip().upper()]
        except (KeyError, AttributeError):
            raise InvalidNotation("card", str(code)) from None


_BY_CODE: Final[Mapping[str, Card]] = MappingProxyType(
    {str(c): c for c in (Card(r, s) for s in Suit for r in Rank)}
)


def card(code: str) -> Card:
    """Shorthand for :meth:`Card.parse`."""
    return Card.parse(code)


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Read cards separated by spaces (or an iterable of codes).

    >>> parse_cards("AS 10h")
    [Card.parse('AS'), Card.parse('10H')]
    """
    codes = text.split() if isinstance(text, str) else list(text)
    return [Card.parse(c) for c in codes]


def codes(cards: Iterable[Card]) -> list[str]:
    """Cards as a list of RECORD.md codes, order kept."""
    return [str(c) for c in cards]


def make_deck(lowest: Rank) -> tuple[Card, ...]:
    """A fresh deck of every suit from ``lowest`` to the ace, in a fixed order."""
    ranks = A_HIGH[: A_HIGH.index(lowest) + 1]
    return tuple(Card(r, s) for s in SUIT_ORDER for r in reversed(ranks))


DECK_32: Final[tuple[Card, ...]] = make_deck(Rank.SEVEN)
DECK_36: Final[tuple[Card, ...]] = make_deck(Rank.SIX)
DECK_52: Final[tuple[Card, ...]] = make_deck(Rank.TWO)


def rank_index(order: RankOrder) -> Mapping[Rank, int]:
    """Strength of each rank in ``order``: higher number beats lower."""
    return MappingProxyType({r: len(order) - i for i, r in enumerate(order)})


def canonical(cards: Iterable[Card], order: RankOrder) -> list[Card]:
    """Sort a card set canonically: suits S C D H, then by ``order`` highest first (§R1.8)."""
    pos = {r: i for i, r in enumerate(order)}
    suit_pos = {s: i for i, s in enumerate(SUIT_ORDER)}
    return sorted(cards, key=lambda c: (suit_pos[c.suit], pos[c.rank]))


def canonical_codes(cards: Iterable[Card], order: RankOrder) -> list[str]:
    """:func:`canonical` as RECORD.md codes."""
    return codes(canonical(cards, order))


def same_cards(a: Sequence[Card], b: Sequence[Card]) -> bool:
    """True when two sequences hold the same multiset of cards."""
    return sorted(map(str, a)) == sorted(map(str, b))
