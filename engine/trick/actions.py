"""Actions of the trick family and their RECORD.md notation (RULES.md §1.2–§1.4; RECORD.md §R4).

Every action is a frozen value whose ``str`` is its RECORD.md text. ``card X`` and ``pass`` are
the shared :class:`~engine.actions.PlayCard` and :class:`~engine.actions.Pass` (re-exported
here); the family's own are below. ``Exchange`` and ``Discard`` compare their cards as a set
(RECORD.md §R4.3: the order a player names his discards does not change the action), but keep
and print the order given; they carry that set as a bit mask (``mask``), so that comparing and
hashing them (the legal-action set of dozens of exchanges) touches no card.

>>> str(Exchange((Card.parse("7H"), Card.parse("9C")))), str(PlayCard(Card.parse("AS")))
('play 2 7H 9C', 'card AS')
>>> parse_trick_action("play 1 8S up") == Exchange((Card.parse("8S"),), up=True)
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from types import MappingProxyType
from typing import Final

from engine.actions import PASS, PLAY_CARD, Pass, PlayCard
from engine.cards import Card, Suit
from engine.errors import InvalidNotation

__all__ = [
    "ANNOUNCE",
    "PASS",
    "PLAY_CARD",
    "Announce",
    "Discard",
    "Exchange",
    "Pass",
    "PlayCard",
    "Retrump",
    "TrickAction",
    "card_mask",
    "discards_of",
    "exchanges_of",
    "parse_trick_action",
]


_BIT: Final = MappingProxyType({(c.rank, c.suit): 1 << i for i, c in enumerate(PLAY_CARD)})


def card_mask(cards: Iterable[Card]) -> int:
    """A set of cards as a bit mask: equal sets, equal masks (looked up by rank and suit, whose
    hashes are the strings' own, so no card's ``__hash__`` is called)."""
    mask = 0
    for card in cards:
        mask |= _BIT[card.rank, card.suit]
    return mask


@dataclass(frozen=True, slots=True, eq=False)
class Exchange:
    """Declare ``play`` and exchange the named cards (§1.3.4); ``up`` takes the turn-up."""

    cards: tuple[Card, ...]
    up: bool = False
    mask: int = field(init=False, repr=False)  # the cards as a set (:func:`card_mask`)

    def __post_init__(self) -> None:
        object.__setattr__(self, "mask", card_mask(self.cards))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Exchange):
            return NotImplemented
        return (
            self.mask == other.mask and self.up == other.up and len(self.cards) == len(other.cards)
        )

    def __hash__(self) -> int:
        return self.mask << 1 | self.up

    def __str__(self) -> str:
        parts = ["play", str(len(self.cards)), *map(str, self.cards)]
        if self.up:
            parts.append("up")
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class Announce:
    """Памфил: show the JC received in the deal (§1.3.7)."""

    def __str__(self) -> str:
        return "announce"


@dataclass(frozen=True, slots=True)
class Retrump:
    """Памфил: take the turned-up JC, discard a card, name the trump (§1.2.4)."""

    suit: Suit
    discard: Card

    def __str__(self) -> str:
        return f"retrump {self.suit.value} {self.discard}"


@dataclass(frozen=True, slots=True, eq=False)
class Discard:
    """Шутиха: return to five cards after the deal-out (§1.3.12)."""

    cards: tuple[Card, ...]
    mask: int = field(init=False, repr=False)  # the cards as a set (:func:`card_mask`)

    def __post_init__(self) -> None:
        object.__setattr__(self, "mask", card_mask(self.cards))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Discard):
            return NotImplemented
        return self.mask == other.mask and len(self.cards) == len(other.cards)

    def __hash__(self) -> int:
        return self.mask

    def __str__(self) -> str:
        return " ".join(["discard", *map(str, self.cards)])


def _setter(cls: type, name: str) -> Callable[[object, object], None]:
    """Set a slot of a frozen value being built (its own ``__setattr__`` refuses)."""
    setter: Callable[[object, object], None] = cls.__dict__[name].__set__
    return setter


_new = object.__new__
_EX_CARDS, _EX_UP, _EX_MASK = (_setter(Exchange, f) for f in ("cards", "up", "mask"))
_DI_CARDS, _DI_MASK = (_setter(Discard, f) for f in ("cards", "mask"))


def exchanges_of(cards: Sequence[Card], most: int, up_from: int, up_to: int) -> list[Exchange]:
    """Every exchange of distinct ``cards``, size n by size in ``combinations`` order: plain
    for n ≤ ``most``, each followed by its ``up`` twin for ``up_from`` ≤ n ≤ ``up_to``.

    Legal lists hold dozens of exchanges, so they are built here without a call per action
    (their masks summed from the cards' bits).
    """
    out: list[Exchange] = []
    bits = [card_mask((c,)) for c in cards]
    for n in range(min(len(cards), max(most, up_to)) + 1):
        kinds = [up for up in (False, True) if (up_from <= n <= up_to if up else n <= most)]
        if not kinds:
            continue
        for combo, mask in zip(
            combinations(cards, n), map(sum, combinations(bits, n)), strict=True
        ):
            for up in kinds:
                exchange = _new(Exchange)
                _EX_CARDS(exchange, combo)
                _EX_UP(exchange, up)
                _EX_MASK(exchange, mask)
                out.append(exchange)
    return out


def discards_of(cards: Sequence[Card], count: int) -> list[Discard]:
    """Every discard of ``count`` distinct ``cards``, in ``combinations`` order (built as
    :func:`exchanges_of` builds)."""
    out: list[Discard] = []
    bits = [card_mask((c,)) for c in cards]
    for combo, mask in zip(
        combinations(cards, count), map(sum, combinations(bits, count)), strict=True
    ):
        discard = _new(Discard)
        _DI_CARDS(discard, combo)
        _DI_MASK(discard, mask)
        out.append(discard)
    return out


TrickAction = Pass | Exchange | Announce | Retrump | Discard | PlayCard
"""Every action of the trick family."""

ANNOUNCE: Final = Announce()

_STRICT_CARD: Final = MappingProxyType({str(c): c for c in PLAY_CARD})
_SUITS: Final = MappingProxyType({s.value: s for s in Suit})


def _cards(tokens: list[str], text: str) -> tuple[Card, ...]:
    try:
        return tuple(_STRICT_CARD[t] for t in tokens)
    except KeyError:
        raise InvalidNotation("action", text) from None


def parse_trick_action(text: str) -> TrickAction:
    """Read a trick-family action in RECORD.md §R4.1 notation (raises ``InvalidNotation``)."""
    if not isinstance(text, str):
        raise InvalidNotation("action", str(text))
    tokens = text.split(" ")
    verb, args = tokens[0], tokens[1:]
    if verb == "pass" and not args:
        return PASS
    if verb == "announce" and not args:
        return ANNOUNCE
    if verb == "card" and len(args) == 1:
        return PLAY_CARD[_cards(args, text)[0]]
    if verb == "discard" and args:
        return Discard(_cards(args, text))
    if verb == "retrump" and len(args) == 2 and args[0] in _SUITS:
        return Retrump(_SUITS[args[0]], _cards(args[1:], text)[0])
    if verb == "play" and args:
        number, rest = args[0], args[1:]
        up = bool(rest) and rest[-1] == "up"
        if up:
            rest = rest[:-1]
        canonical_number = number == "0" or not number.startswith("0")
        if number.isascii() and number.isdigit() and canonical_number and int(number) == len(rest):
            return Exchange(_cards(rest, text), up=up)
    raise InvalidNotation("action", text)
