"""Which of the legal actions a typed line names (the terminal's moves).

Nothing here guesses: a line that names one legal action plays it (:class:`Named`); one that
names several asks which (:class:`Ask`); cards alone in a choice of several cards are marks,
confirmed by Enter, as the Telegram hand marks its cards (:class:`Marked`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from bot.i18n import Translator
from bot.presses.meaning import card_of  # a RECORD.md code exactly as written
from bot.render.action_words import ActionParts, Verb, action_parts
from bot.render.cards import card_name
from bot.terminal.typed_words import TypedLine
from engine.cards import Card

SHORT: Final = 12
"""The longest list of choices shown numbered without being asked for."""


def in_hand_order(legal: Sequence[object], order: Sequence[Card]) -> list[object]:
    """The legal actions in the order the hand shows its cards (the «Playable» line's): no
    card first (pass, buy), then by how many cards, then card by card; the engine's order
    breaks ties."""
    pos = {c: i for i, c in enumerate(order)}

    def key(action: object) -> tuple[int, int, tuple[int, ...]]:
        cards = action_parts(action).cards
        return (1 if cards else 0, len(cards), tuple(pos.get(c, len(pos)) for c in cards))

    return sorted(legal, key=key)


@dataclass(frozen=True, slots=True)
class Named:
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


Resolution = Named | Ask | Marked | Which | NoMove | WhichCards


def resolve(
    typed: TypedLine, legal: Sequence[object], marks: Sequence[Card], *, confirm: bool = False
) -> Resolution:
    """Which legal action(s) ``typed`` names, with the cards marked before (``confirm``: Enter,
    the marks are the whole move)."""
    table = [(a, action_parts(a)) for a in legal]
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
    if typed.verbs is not None and not typed.up and any(not action_parts(a).up for a in exact):
        exact = tuple(a for a in exact if not action_parts(a).up)  # the turn-up only when said
    if whole or (typed.suit is not None and not named):  # a suit alone completes a re-trump
        if len(exact) == 1:
            return Named(exact[0])
        if exact:
            return Ask(exact)
        if chosen and len(wider) == 1:
            return Named(wider[0])  # «взять 9♦»: the only capture with that card
        if chosen and wider:
            return Ask(wider)
        return NoMove(chosen, verbs)
    if not wider:
        return NoMove(named if named else chosen, verbs)
    if not marks and len(wider) == 1:
        return Named(wider[0])  # the cards name one move only: «7♣» in a trick
    return Marked(chosen, exact)


def _named_cards(
    typed: TypedLine, table: Sequence[tuple[object, ActionParts]]
) -> tuple[Card, ...] | Which:
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


def _agrees(typed: TypedLine, f: ActionParts) -> bool:
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
