"""Лентюрлю's actions and their notation (RULES.md §3.2, §3.3; RECORD.md §R4, §R8.3).

A run is Лентюрлю's own move; ``buy k`` and ``pass`` are the shared ones (:mod:`engine.actions`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.actions import Buy, Pass
from engine.cards import Card, codes
from engine.errors import InvalidNotation


@dataclass(frozen=True, slots=True)
class Run:
    """Play consecutive ranks in ascending order as one action (§3.2.1): ``run 6D 7S 8H``.

    The notation is made once, with the run: a hand's legal runs can number thousands, and
    each is printed (buttons, records) and hashed (the legal-action set) from its text.
    """

    cards: tuple[Card, ...]
    text: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        cards = tuple(self.cards)  # a list given is kept as a tuple
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "text", " ".join(["run", *codes(cards)]))

    @classmethod
    def with_text(cls, cards: tuple[Card, ...], text: str) -> Run:
        """A run whose notation ``text`` is already known (the run enumeration builds both)."""
        run = object.__new__(cls)
        object.__setattr__(run, "cards", cards)
        object.__setattr__(run, "text", text)
        return run

    def __str__(self) -> str:
        return self.text

    def __hash__(self) -> int:
        return hash(self.text)  # equal cards, equal text


LenturluAction = Run | Buy | Pass
"""Every action of Лентюрлю."""


def parse_action(text: str) -> LenturluAction:
    """Read a Лентюрлю action in RECORD.md §R4 notation (the verb in any case).

    >>> str(parse_action("run 6d 7S 8H")), parse_action("buy 2"), parse_action("pass")
    ('run 6D 7S 8H', Buy(k=2), Pass())
    """
    if not isinstance(text, str):
        raise InvalidNotation("action", repr(text))
    words = text.split()
    match [w.lower() if i == 0 else w for i, w in enumerate(words)]:
        case ["run", *cards] if cards:
            return Run(tuple(Card.parse(c) for c in cards))
        case ["buy", ("1" | "2") as k]:
            return Buy(int(k))
        case ["pass"]:
            return Pass()
        case _:
            raise InvalidNotation("action", text)
