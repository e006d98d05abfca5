"""Actions that several games share, with their RECORD.md §R4.1 notation.

A game's own actions live in its ``actions.py``; where two games have the same move with the
same notation, both use the class here (``card X`` in the trick family and Копилка, ``buy k`` in
Копилка and Лентюрлю, ``pass`` in the trick family, Копилка and Лентюрлю).

>>> str(PlayCard(Card.parse("10H"))), str(Buy(2)), str(Pass())
('card 10H', 'buy 2', 'pass')
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import ClassVar, Final

from engine.cards import Card, Rank, Suit
from engine.errors import InvalidNotation


@dataclass(frozen=True, slots=True)
class CardAction:
    """An action that is one card and a verb: ``<verb> X`` (``card``, ``sweep``, ``trail``)."""

    VERB: ClassVar[str]
    card: Card

    def __str__(self) -> str:
        return f"{self.VERB} {self.card}"


@dataclass(frozen=True, slots=True)
class PlayCard(CardAction):
    """Play one card: a lead or a follow to the trick (§1.4, §2.4.1, §2.4.3): ``card X``."""

    VERB: ClassVar[str] = "card"


@dataclass(frozen=True, slots=True)
class Buy:
    """Draw ``k`` (1 or 2) cards from the stock (§2.4.5, §3.3.3): ``buy k``."""

    k: int

    def __str__(self) -> str:
        return f"buy {int(self.k)}"  # Buy(True) == Buy(1): write it as the record does


@dataclass(frozen=True, slots=True)
class Pass:
    """Decline: throw the hand in (§1.3.2), or not play to the trick or pile (§2.4.3, §3.3.2)."""

    def __str__(self) -> str:
        return "pass"


PASS: Final = Pass()

PLAY_CARD: Final = MappingProxyType({Card(r, s): PlayCard(Card(r, s)) for s in Suit for r in Rank})
"""One shared ``PlayCard`` per card (legal-action lists reuse them)."""

BUYS: Final = (Buy(1), Buy(2))
"""``buy 1`` and ``buy 2``, in the order legal-action lists give them."""

Shared = PlayCard | Buy | Pass


def parse_shared(text: str, allowed: tuple[type[Shared], ...]) -> Shared:
    """Read ``card X``, ``buy 1|2`` or ``pass`` — those of ``allowed`` (RECORD.md §R4.1).

    >>> parse_shared("buy 2", (Buy, Pass)), parse_shared("card 7D", (PlayCard,))
    (Buy(k=2), PlayCard(card=Card.parse('7D')))
    """
    match text.split(" ") if isinstance(text, str) else None:
        case ["card", code] if PlayCard in allowed:
            return PLAY_CARD[Card.parse(code)]
        case ["buy", ("1" | "2") as k] if Buy in allowed:
            return BUYS[int(k) - 1]
        case ["pass"] if Pass in allowed:
            return PASS
        case _:
            raise InvalidNotation("action", str(text))
