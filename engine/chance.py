"""Every random outcome goes through a ``Chance`` object (RULES.md §0.4, STYLE.md §6).

``SeededChance`` draws from the game's own ``random.Random(seed)`` (or any ``random.Random``:
the bot gives it ``secrets.SystemRandom()``); ``StackedChance`` replays outcomes given in
advance (fixed deals in tests, and the outcomes written in a record); ``ResumedChance`` replays
a stopped game's outcomes and then goes on from a live source (a table resumed mid-match).
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from engine.cards import Card
from engine.errors import InvalidRecord


class Chance(Protocol):
    """The source of shuffles (draws, deals) and random picks (Копилка's takes)."""

    def shuffled(self, cards: Sequence[Card]) -> list[Card]:
        """A shuffled copy of ``cards``, top first."""
        ...

    def choice(self, options: Sequence[Card]) -> Card:
        """One of ``options``, uniformly."""
        ...

    def ready(self) -> bool:
        """Whether a next shuffle can be given now (a replayed record may have no more decks)."""
        ...


@dataclass(slots=True)
class SeededChance:
    """Chance from one ``random.Random``: the only randomness in a game."""

    rng: random.Random

    @classmethod
    def from_seed(cls, seed: int) -> SeededChance:
        return cls(random.Random(seed))

    def shuffled(self, cards: Sequence[Card]) -> list[Card]:
        deck = list(cards)
        self.rng.shuffle(deck)
        return deck

    def choice(self, options: Sequence[Card]) -> Card:
        return self.rng.choice(options)

    def ready(self) -> bool:
        return True


@dataclass(slots=True)
class StackedChance:
    """Outcomes given in advance, consumed in order.

    Each entry of ``decks`` answers one ``shuffled`` call. An entry may list only the top cards
    (a first-dealer draw round needs no more); the rest of the deck follows in its given order.
    ``picks`` answer ``choice`` calls. Running out, or a card that is not possible, is an error
    — except that with ``spare_picks`` running out of picks gives the first option: a record
    abandoned between a Копилка lay-out and its takes (§R5.7) is replayed that way, and the lines
    past its end are withdrawn (``abandon(at=…)``). Running out of decks is not an error: the
    game waits for the next deal (:meth:`ready`).
    """

    decks: deque[list[Card]] = field(default_factory=deque)
    picks: deque[Card] = field(default_factory=deque)
    spare_picks: bool = False

    @classmethod
    def of(
        cls,
        decks: Iterable[Sequence[Card]],
        picks: Iterable[Card] = (),
        *,
        spare_picks: bool = False,
    ) -> StackedChance:
        return cls(deque(list(d) for d in decks), deque(picks), spare_picks)

    def shuffled(self, cards: Sequence[Card]) -> list[Card]:
        if not self.decks:
            raise InvalidRecord("no deck given for a shuffle")
        top = self.decks.popleft()
        pool = set(cards)
        if len(set(top)) != len(top) or not set(top) <= pool:
            raise InvalidRecord("a given deck is not drawn from the game's deck")
        if len(top) == len(cards):
            return list(top)
        given = set(top)
        return top + [c for c in cards if c not in given]

    def ready(self) -> bool:
        return bool(self.decks)

    def choice(self, options: Sequence[Card]) -> Card:
        if not self.picks:
            if self.spare_picks and options:
                return options[0]
            raise InvalidRecord("no outcome given for a random pick")
        pick = self.picks.popleft()
        if pick not in options:
            raise InvalidRecord(f"random pick {pick} is not among {[str(o) for o in options]}")
        return pick


@dataclass(slots=True)
class ResumedChance:
    """A game resumed from its stored outcomes: ``given`` answers while it has outcomes, then
    ``then`` (the live source) answers every later shuffle and pick.

    With ``shadow`` every call goes to ``then`` too, its answer dropped while ``given`` has
    one: a seeded source then stands where it stood when the game was stopped, so a resumed
    seeded game goes on with the deals it would have had (tests, the kill proof). A live
    cryptographic source needs no shadow: its next answer is unpredictable either way.
    """

    given: StackedChance
    then: Chance
    shadow: bool = False

    def shuffled(self, cards: Sequence[Card]) -> list[Card]:
        if not self.given.decks:
            return self.then.shuffled(cards)
        if self.shadow:
            self.then.shuffled(cards)
        return self.given.shuffled(cards)

    def choice(self, options: Sequence[Card]) -> Card:
        if not self.given.picks:
            return self.then.choice(options)
        if self.shadow:
            self.then.choice(options)
        return self.given.choice(options)

    def ready(self) -> bool:
        return self.given.ready() or self.then.ready()
