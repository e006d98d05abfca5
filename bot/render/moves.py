"""Legal actions as a person names them: each action's parts (read from its RECORD.md text, so
every family's actions are handled alike), its words on the screen, the hand's order, and
which of the legal actions a typed line names.

Nothing here guesses: a line that names one legal action plays it; one that names several
asks which (:class:`Ask`); cards alone in a choice of several cards are marks, confirmed by
Enter, as the Telegram hand marks its cards (:class:`Marked`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Final

from bot.i18n import Translator
from bot.presses.meaning import card_of
from bot.render.cards import SUIT_SYMBOL, card_name, card_names, notation_words
from bot.render.words import Typed, Verb
from engine.cards import Card, Suit

SHORT: Final = 12
"""The longest list of choices shown numbered without being asked for."""


@dataclass(frozen=True, slots=True)
class Facts:
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


def facts(action: object) -> Facts:
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
    return Facts(verb, tuple(cards), number, up, suit)


def in_hand_order(legal: Sequence[object], order: Sequence[Card]) -> list[object]:
    """The legal actions in the order the hand shows its cards (the «Playable» line's): no
    card first (pass, buy), then by how many cards, then card by card; the engine's order
    breaks ties."""
    pos = {c: i for i, c in enumerate(order)}

    def key(action: object) -> tuple[int, int, tuple[int, ...]]:
        cards = facts(action).cards
        return (1 if cards else 0, len(cards), tuple(pos.get(c, len(pos)) for c in cards))

    return sorted(legal, key=key)


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


SAYINGS: Final[Mapping[Said, tuple[str, str]]] = MappingProxyType(
    {  # (the person's own move, as typed back; another seat's, as the group is told it)
        Said.PASS: ("pass", "passes"),
        Said.KEEP: ("play, keep all", "plays, keeps his cards"),
        Said.UP: (
            "play, exchange: {cards} and take the turn-up",
            "plays, exchanges {n} and takes the turn-up",
        ),
        Said.EXCHANGE: ("play, exchange: {cards}", "plays, exchanges {n}"),
        Said.ANNOUNCE: ("announce the pamfil", "announces the pamfil"),
        Said.RETRUMP: (
            "trump {suit}, discard {card}",
            "names trump {suit} and discards a card",
        ),
        Said.DISCARD: ("discard: {cards}", "discards {n}"),
        Said.RUN: ("run {cards}", "plays the run {cards}"),
        Said.BUY: ("buy {n}", "buys {n}"),
        Said.CAPTURE: ("take {card} → {cards}", "takes {cards} with {card}"),
        Said.SWEEP: ("sweep the table with {card}", "sweeps the table with {card}"),
        Said.TRAIL: ("lay out {card}", "lays out {card}"),
    }
)


def _said(f: Facts) -> Said | None:
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
    f = facts(action)
    loc = tr.locale
    if f.verb == Verb.CARD:
        return card_names(f.cards, loc)
    said = _said(f)
    if said is None:
        return str(action) if mine else notation_words(str(action), loc)
    taking = said is Said.CAPTURE  # the first card takes the others
    cards = card_names(f.cards[1:] if taking else f.cards, loc)
    card = card_name(f.cards[0], loc) if taking and f.cards else cards
    return tr(
        SAYINGS[said][0 if mine else 1],
        cards=cards,
        card=card,
        n=f.number if said is Said.BUY else len(f.cards),
        suit=SUIT_SYMBOL[f.suit] if f.suit is not None else "",
    )


def words_of(action: object, tr: Translator) -> str:
    """The person's own action as the screen says it and as it may be typed back."""
    return say(action, tr, mine=True)


def narrated(action: object, tr: Translator) -> str:
    """Another seat's action as the group would be told it."""
    return say(action, tr, mine=False)


@dataclass(frozen=True, slots=True)
class Play:
    """The line names this one action."""

    action: object


@dataclass(frozen=True, slots=True)
class Ask:
    """The line names several actions: which one? (``options`` in the hand's order)."""

    options: tuple[object, ...]


@dataclass(frozen=True, slots=True)
class Marked:
    """Cards named in a choice of several cards: the marks now, and the actions they are
    exactly (what Enter would play, or ask among)."""

    marks: tuple[Card, ...]
    exact: tuple[object, ...]


@dataclass(frozen=True, slots=True)
class Which:
    """A rank said without its suit where several cards have it: which card?"""

    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class NoMove:
    """No legal action has these cards (and this verb): ``cards`` to ask the engine why."""

    cards: tuple[Card, ...]
    verbs: frozenset[str]


@dataclass(frozen=True, slots=True)
class WhichCards:
    """«Играю» alone where cards may be exchanged: which (or none)? Never taken as none."""


Outcome = Play | Ask | Marked | Which | NoMove | WhichCards


def resolve(
    typed: Typed, legal: Sequence[object], marks: Sequence[Card], *, confirm: bool = False
) -> Outcome:
    """Which legal action(s) ``typed`` names, with the cards marked before (``confirm``: Enter,
    the marks are the whole move)."""
    table = [(a, facts(a)) for a in legal]
    named = _named_cards(typed, table)
    if isinstance(named, Which):
        return named
    chosen: tuple[Card, ...]
    if typed.verbs is None and not confirm and not typed.nothing:
        chosen = _toggled(marks, named)
    else:
        chosen = tuple(dict.fromkeys([*marks, *named]))
    cands = [(a, f) for a, f in table if _agrees(typed, f)]
    only_play = typed.verbs == frozenset({Verb.PLAY})
    if only_play and not (chosen or typed.nothing) and any(f.cards for _, f in cands):
        return WhichCards()
    want = frozenset(chosen)
    exact = tuple(a for a, f in cands if f.card_set == want)
    wider = tuple(a for a, f in cands if f.card_set >= want)
    verbs = frozenset(typed.verbs or {f.verb for _, f in cands} or {f.verb for _, f in table})
    whole = typed.verbs is not None or confirm or typed.nothing or not chosen
    if typed.verbs is not None and not typed.up and any(not facts(a).up for a in exact):
        exact = tuple(a for a in exact if not facts(a).up)  # the turn-up only when said
    if whole or (typed.suit is not None and not named):  # a suit alone completes a re-trump
        if len(exact) == 1:
            return Play(exact[0])
        if exact:
            return Ask(exact)
        if chosen and len(wider) == 1:
            return Play(wider[0])  # «взять 9♦»: the only capture with that card
        if chosen and wider:
            return Ask(wider)
        return NoMove(chosen, verbs)
    if not wider:
        return NoMove(named if named else chosen, verbs)
    if not marks and len(wider) == 1:
        return Play(wider[0])  # the cards name one move only: «7♣» in a trick
    return Marked(chosen, exact)


def _named_cards(typed: Typed, table: Sequence[tuple[object, Facts]]) -> tuple[Card, ...] | Which:
    """The typed cards, each rank said alone made the one card of that rank some legal action
    has (several: :class:`Which`)."""
    named = list(typed.cards)
    among = dict.fromkeys(c for _, f in table for c in f.cards)
    for rank in typed.ranks:
        cards = tuple(c for c in among if c.rank == rank and (typed.suit in (None, c.suit)))
        if len(cards) != 1:
            return Which(cards or tuple(c for c in among if c.rank == rank))
        named.append(cards[0])
    return tuple(dict.fromkeys(named))


def _toggled(marks: Sequence[Card], cards: Iterable[Card]) -> tuple[Card, ...]:
    out = list(marks)
    for card in cards:
        if card in out:
            out.remove(card)
        else:
            out.append(card)
    return tuple(out)


def _agrees(typed: Typed, f: Facts) -> bool:
    """The action has what the line says besides its cards: the verb, count, turn-up, suit."""
    if typed.verbs is not None and f.verb not in typed.verbs:
        return False
    if typed.number is not None and typed.number != (
        f.number if f.number is not None else len(f.cards)
    ):
        return False
    if typed.up and not f.up:
        return False
    if typed.suit is not None and f.verb == Verb.RETRUMP and f.suit != typed.suit:
        return False
    return not (typed.nothing and f.cards)


def card_order(card_codes: Iterable[str | None]) -> tuple[Card, ...]:
    """The cards of a hand's buttons (their presses' arguments) in the keyboard's order."""
    found: list[Card] = []
    for code in card_codes:
        card = card_of(code) if code else None
        if card is not None and card not in found:
            found.append(card)
    return tuple(found)


def ranks_named(cards: Iterable[Card], tr: Translator) -> str:
    return ", ".join(card_name(c, tr.locale) for c in cards)
