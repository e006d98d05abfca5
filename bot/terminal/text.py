"""Telegram HTML as plain text, and the RULES.md clause an engine refusal code stands for."""

from __future__ import annotations

import functools
import html
import inspect
import re
from collections.abc import Mapping
from typing import Final

from bot.i18n import Translator
from bot.render.cards import SUIT_SYMBOL, card_name, card_names, notation_words
from bot.render.moves import facts
from bot.render.words import Verb
from engine import errors
from engine.errors import Refusal

_TAG: Final = re.compile(r"<[^>]+>")
_CLAUSE: Final = re.compile(r'^\s*[A-Z_]+ = "(?P<code>[a-z_]+)"\s*#\s*(?P<clause>§[^#]*?)\s*$')


def plain(text: str) -> str:
    """A render function's Telegram HTML without its tags and entities."""
    return html.unescape(_TAG.sub("", text))


@functools.cache
def _clauses() -> Mapping[str, str]:
    """``code -> "§1.4.3 b"`` from the comments on ``Refusal``'s members (engine/errors.py is
    where each refusal names its clause; read, never copied)."""
    found: dict[str, str] = {}
    for line in inspect.getsource(errors).splitlines():
        if (match := _CLAUSE.match(line)) is not None:
            found[match.group("code")] = match.group("clause")
    return found


def rule_of(code: Refusal) -> str:
    """``must_follow_suit, §1.4.3 a`` — the engine's code and, where it names one, its clause."""
    clause = _clauses().get(code.value)
    return f"{code.value}, {clause}" if clause else code.value


def narrated(action: object, tr: Translator) -> str:
    """Another seat's action in the reader's words, as the group would tell it: every card
    played face up named, an exchange's or a discard's cards only counted (never shown)."""
    f = facts(action)
    cards = card_names(f.cards, tr.locale)
    match f.verb:
        case Verb.PASS:
            return tr("passes")
        case Verb.PLAY if not f.cards:
            return tr("plays, keeps his cards")
        case Verb.PLAY if f.up:
            return tr("plays, exchanges {n} and takes the turn-up", n=len(f.cards))
        case Verb.PLAY:
            return tr("plays, exchanges {n}", n=len(f.cards))
        case Verb.ANNOUNCE:
            return tr("announces the pamfil")
        case Verb.RETRUMP if f.suit is not None:
            return tr("names trump {suit} and discards a card", suit=SUIT_SYMBOL[f.suit])
        case Verb.DISCARD:
            return tr("discards {n}", n=len(f.cards))
        case Verb.CARD:
            return cards
        case Verb.RUN:
            return tr("plays the run {cards}", cards=cards)
        case Verb.BUY:
            return tr("buys {n}", n=f.number)
        case Verb.CAPTURE:
            taken = card_names(f.cards[1:], tr.locale)
            return tr(
                "takes {cards} with {card}", card=card_name(f.cards[0], tr.locale), cards=taken
            )
        case Verb.SWEEP:
            return tr("sweeps the table with {card}", card=cards)
        case Verb.TRAIL:
            return tr("lays out {card}", card=cards)
        case _:
            return notation_words(str(action), tr.locale)
