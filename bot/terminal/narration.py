"""What the terminal says between the screens: who deals first (the draw), where each deal
begins, who took each trick, and the person's own moves told as everyone's are (third person,
his own cards named).

The group's table shows these in place (its header, its «Last trick» line); a terminal scrolls,
so each is one line where it happens.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import N_, Translator
from bot.render.action_words import Verb, action_parts, narrated
from bot.render.cards import SUIT_SYMBOL, card_name, card_names
from engine.cards import Card
from engine.core import Line
from engine.events import Deal, Seats
from engine.games import record_book
from engine.kopilka.events import KopilkaTrickWon
from engine.lines import LineKind, is_kind
from engine.trick.events import TrickWon

EXCHANGES = N_("plays, exchanges {cards}")
EXCHANGES_UP = N_("plays, exchanges {cards} and takes the turn-up")
DISCARDS = N_("discards {cards}")
RETRUMPS = N_("names trump {suit} and discards {card}")


def told(action: object, tr: Translator) -> str:
    """The person's own move as the others' are told (``plays, exchanges 7♣ A♦``), with the
    cards only he may see named."""
    f = action_parts(action)
    loc = tr.locale
    if f.verb == Verb.PLAY and f.cards:
        return tr(EXCHANGES_UP if f.up else EXCHANGES, cards=card_names(f.cards, loc))
    if f.verb == Verb.DISCARD and f.cards:
        return tr(DISCARDS, cards=card_names(f.cards, loc))
    if f.verb == Verb.RETRUMP and f.suit is not None and f.cards:
        return tr(RETRUMPS, suit=SUIT_SYMBOL[f.suit], card=card_name(f.cards[0], loc))
    return narrated(action, tr)


def seating(names: Sequence[str], lines: Sequence[Line], tr: Translator) -> list[str]:
    """The first-dealer draw, as the lobby shows it when a game starts (nothing when the
    dealer was not drawn)."""
    line = next((ln for ln in lines if is_kind(ln, LineKind.SEATS)), None)
    if line is None:
        return []
    seats = Seats.of(line)
    if not seats.draw:
        return []
    rounds = [
        " · ".join(
            f"{names[seat]} {card_name(card, tr.locale)}"
            for seat, card in enumerate(row)
            if card is not None
        )
        for row in seats.draw
    ]
    return [tr("Draw (lowest card deals): {draws}", draws=" → ".join(rounds))]


def deal_headers(names: Sequence[str], lines: Sequence[Line], tr: Translator) -> list[str]:
    """``Deal 2 · 🤖 Marfa deals`` for each deal the lines begin."""
    return [
        tr("Deal {no} · {name} deals", no=deal.no, name=names[deal.dealer])
        for deal in (Deal.of(ln) for ln in lines if is_kind(ln, LineKind.DEAL))
    ]


def tricks_taken(
    game: str, names: Sequence[str], lines: Sequence[Line], tr: Translator
) -> list[str]:
    """``→ 🤖 Marfa takes trick 3 (9♣)`` for each trick the lines complete (Копилка: with its
    points)."""
    said: list[str] = []
    for event in record_book(game).events(lines):
        if isinstance(event, KopilkaTrickWon):
            said.append(
                tr(
                    "→ {name} takes trick {no} ({card}): +{points}",
                    name=names[event.winner],
                    no=event.no,
                    card=_winning(event.plays, event.winner, tr),
                    points=event.points,
                )
            )
        elif isinstance(event, TrickWon):
            said.append(
                tr(
                    "→ {name} takes trick {no} ({card})",
                    name=names[event.winner],
                    no=event.no,
                    card=_winning(event.plays, event.winner, tr),
                )
            )
    return said


def _winning(plays: Sequence[tuple[int, Card]], winner: int, tr: Translator) -> str:
    card = next((c for s, c in plays if s == winner), None)
    return card_name(card, tr.locale) if card is not None else "…"
