"""Legal actions in words: each action's parts, read from its RECORD.md text so every family's
actions are handled alike (:func:`action_parts`), and what the screens say of it — a person's own
move as he may type it back, another seat's as the group is told it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Final

from bot.i18n import Translator
from bot.presses.meaning import card_of  # a RECORD.md code exactly as written
from bot.render.cards import SUIT_SYMBOL, card_name, card_names, notation_words
from engine.cards import Card, Suit


class Verb(StrEnum):
    """The first word of an action's RECORD.md notation (every family's verbs)."""

    PASS = "pass"
    PLAY = "play"
    ANNOUNCE = "announce"
    RETRUMP = "retrump"
    DISCARD = "discard"
    CARD = "card"
    RUN = "run"
    BUY = "buy"
    CAPTURE = "capture"
    SWEEP = "sweep"
    TRAIL = "trail"


@dataclass(frozen=True, slots=True)
class ActionParts:
    """One action's parts: the verb, its cards (in the notation's order), the count it
    states (``play 2 …``, ``buy 1``), the turn-up, the suit named (a re-trump)."""

    verb: str
    cards: tuple[Card, ...]
    number: int | None = None
    up: bool = False
    suit: Suit | None = None

    @property
    def card_set(self) -> frozenset[Card]:
        return frozenset(self.cards)


def action_parts(action: object) -> ActionParts:
    """The parts of ``action`` from its notation (``play 2 7S 8C up``, ``capture 8H = 8C``)."""
    verb, *rest = str(action).split()
    cards: list[Card] = []
    number: int | None = None
    up = False
    suit: Suit | None = None
    for word in rest:
        if word == "up":
            up = True
        elif word.isdigit():
            number = int(word)
        elif word in {s.value for s in Suit} and verb == Verb.RETRUMP:
            suit = Suit(word)
        elif (card := card_of(word)) is not None:
            cards.append(card)
    return ActionParts(verb, tuple(cards), number, up, suit)


class Said(StrEnum):
    """What an action says, by the shape of its notation (the verbs, a play split three ways)."""

    PASS = "pass"
    KEEP = "keep"  # play, no exchange
    UP = "up"  # play, an exchange and the turn-up
    EXCHANGE = "exchange"
    ANNOUNCE = "announce"
    RETRUMP = "retrump"
    DISCARD = "discard"
    RUN = "run"
    BUY = "buy"
    CAPTURE = "capture"
    SWEEP = "sweep"
    TRAIL = "trail"


@dataclass(frozen=True, slots=True)
class Saying:
    """What an action says: the person's own move, as typed back (``mine``); another seat's, as
    the group is told it (``theirs``; with ``plural``, the singular of a count of cards, and the
    catalogue gives the form the number takes: «меняет 1 карту», «меняет 4 карты»)."""

    mine: str
    theirs: str
    plural: str = ""


SAYINGS: Final[Mapping[Said, Saying]] = MappingProxyType(
    {
        Said.PASS: Saying("pass", "passes"),
        Said.KEEP: Saying("play, keep all", "plays, keeps his cards"),
        Said.UP: Saying(
            "play, exchange: {cards} and take the turn-up",
            "plays, exchanges {n} card and takes the turn-up",
            "plays, exchanges {n} cards and takes the turn-up",
        ),
        Said.EXCHANGE: Saying(
            "play, exchange: {cards}", "plays, exchanges {n} card", "plays, exchanges {n} cards"
        ),
        Said.ANNOUNCE: Saying("announce the pamfil", "announces the pamfil"),
        Said.RETRUMP: Saying(
            "trump {suit}, discard {card}",
            "names trump {suit} and discards a card",
        ),
        Said.DISCARD: Saying("discard: {cards}", "discards {n} card", "discards {n} cards"),
        Said.RUN: Saying("run {cards}", "plays the run {cards}"),
        Said.BUY: Saying("buy {n}", "buys {n} card", "buys {n} cards"),
        Said.CAPTURE: Saying("take {card} → {cards}", "takes {cards} with {card}"),
        Said.SWEEP: Saying("sweep the table with {card}", "sweeps the table with {card}"),
        Said.TRAIL: Saying("lay out {card}", "lays out {card}"),
    }
)


def _said(f: ActionParts) -> Said | None:
    if f.verb == Verb.PLAY:
        return Said.KEEP if not f.cards else Said.UP if f.up else Said.EXCHANGE
    if f.verb == Verb.RETRUMP and f.suit is None:
        return None
    try:
        return Said(f.verb)
    except ValueError:
        return None


def say(action: object, tr: Translator, *, mine: bool) -> str:
    """The action in the reader's words: ``mine``, the person's own (as the screen says it,
    and as it may be typed back: ``пас``, ``играю, сменить: 7♣ 7♦``); else another seat's, as
    the group would be told it (every card played face up named, an exchange's or a
    discard's cards only counted, never shown)."""
    f = action_parts(action)
    loc = tr.locale
    if f.verb == Verb.CARD:
        return card_names(f.cards, loc)
    said = _said(f)
    if said is None:
        return str(action) if mine else notation_words(str(action), loc)
    if not mine and said is Said.BUY and f.number is not None:  # «покупает 1 карту»
        return tr.n("buys {n} card", "buys {n} cards", f.number)
    if not mine and said is Said.RUN and len(f.cards) == 1:  # one card is no run
        return tr("plays {card}", card=card_names(f.cards, loc))
    taking = said is Said.CAPTURE  # the first card takes the others
    cards = card_names(f.cards[1:] if taking else f.cards, loc)
    card = card_name(f.cards[0], loc) if taking and f.cards else cards
    saying = SAYINGS[said]
    n = f.number if said is Said.BUY and f.number is not None else len(f.cards)
    suit = SUIT_SYMBOL[f.suit] if f.suit is not None else ""
    if mine:
        return tr(saying.mine, cards=cards, card=card, n=n, suit=suit)
    if saying.plural:
        return tr.n(saying.theirs, saying.plural, n, cards=cards, card=card, suit=suit)
    return tr(saying.theirs, cards=cards, card=card, n=n, suit=suit)


def words_of(action: object, tr: Translator) -> str:
    """The person's own action as the screen says it and as it may be typed back."""
    return say(action, tr, mine=True)


def narrated(action: object, tr: Translator) -> str:
    """Another seat's action as the group would be told it."""
    return say(action, tr, mine=False)
