"""Кончинка's moves and their RECORD.md notation (RULES.md §4.3; RECORD.md §R4.1, §R4.3)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.actions import CardAction
from engine.cards import Card
from engine.errors import InvalidNotation


@dataclass(frozen=True, slots=True, eq=False)
class Capture:
    """Play ``card`` and take the table cards of ``groups`` (§4.3.2, §4.3.3).

    Two captures are the same action when they play the same card and take the same set of
    cards, whatever the grouping (RECORD.md §R4.3).

    >>> str(Capture(Card.parse("8H"), ((Card.parse("8C"),), (Card.parse("3D"), Card.parse("5S")))))
    'capture 8H = 8C + 3D 5S'
    """

    card: Card
    groups: tuple[tuple[Card, ...], ...]

    @property
    def taken(self) -> frozenset[Card]:
        """The table cards this capture takes."""
        return frozenset(c for group in self.groups for c in group)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Capture):
            return NotImplemented
        return self.card == other.card and self.taken == other.taken

    def __hash__(self) -> int:
        return hash(("capture", self.card, self.taken))

    def __str__(self) -> str:
        groups = " + ".join(" ".join(str(c) for c in group) for group in self.groups)
        return f"capture {self.card} = {groups}"


@dataclass(frozen=True, slots=True)
class Sweep(CardAction):
    """The J takes the whole table (§4.3.4, standard game): ``sweep X``."""

    VERB: ClassVar[str] = "sweep"


@dataclass(frozen=True, slots=True)
class Trail(CardAction):
    """Put a card face up on the table (§4.3.5): ``trail X``."""

    VERB: ClassVar[str] = "trail"


KonchinkaAction = Capture | Sweep | Trail


def parse_action(text: str) -> KonchinkaAction:
    """Read a move in RECORD.md §R4.1 notation (grammar only; legality is the state's).

    >>> parse_action("capture KD = 7D 6D + JD 2S").groups[1]
    (Card.parse('JD'), Card.parse('2S'))
    >>> parse_action("sweep JD"), parse_action("trail 7C")
    (Sweep(card=Card.parse('JD')), Trail(card=Card.parse('7C')))
    """
    words = text.strip().split(" ")
    try:
        match words:
            case ["sweep", code]:
                return Sweep(Card.parse(code))
            case ["trail", code]:
                return Trail(Card.parse(code))
            case ["capture", code, "=", *rest] if rest:
                return Capture(Card.parse(code), _groups(rest))
            case _:
                pass
    except InvalidNotation:
        pass
    raise InvalidNotation("action", text)


def _groups(words: list[str]) -> tuple[tuple[Card, ...], ...]:
    groups: list[tuple[Card, ...]] = []
    current: list[Card] = []
    for word in [*words, "+"]:
        if word == "+":
            if not current:
                raise InvalidNotation("action", " ".join(words))
            groups.append(tuple(current))
            current = []
        else:
            current.append(Card.parse(word))
    return tuple(groups)
