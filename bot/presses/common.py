"""What every family's press parsing reads the same way: a card code as written, an unknown
button."""

from __future__ import annotations

from bot.refused import BotRefusal
from bot.render.games.base import Deny
from engine.cards import Card
from engine.errors import InvalidNotation

UNKNOWN = Deny(BotRefusal.UNKNOWN_BUTTON)
"""A press no hand of the family offers (a forged or mangled button)."""


def card_of(code: str) -> Card | None:
    """The card of a RECORD.md code exactly as written (``AS``, ``10H``); None if it is none."""
    try:
        card = Card.parse(code)
    except InvalidNotation:
        return None
    return card if str(card) == code else None
