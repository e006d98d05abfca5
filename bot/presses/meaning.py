"""What a press on a hand message means, whatever the family: an engine action
(:class:`Apply`), a change of the hand's unsent marks or mode (:class:`SetUI`, :class:`HandUI`),
or a refusal before the engine sees it (:class:`Deny`); and what every family reads alike (a
card code as written, an unknown button)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.refused import BotRefusal, Reason
from engine.cards import Card
from engine.errors import InvalidNotation


@dataclass(frozen=True, slots=True)
class HandUI:
    """A seat's unsent choices on its hand message: marked cards and a sub-mode (§6.3)."""

    marks: tuple[str, ...] = ()
    mode: str = ""  # "" | "x" exchange marking | "q" discard marking | "t:<card>" re-trump


@dataclass(frozen=True, slots=True)
class Apply:
    """The press means this typed engine action (what ``State.apply`` takes)."""

    action: object


@dataclass(frozen=True, slots=True)
class SetUI:
    """The press only changes the hand message's marks or mode."""

    ui: HandUI


@dataclass(frozen=True, slots=True)
class Deny:
    """The press is refused before the engine sees it: why (the bot's reason, or the engine's
    rule) and the parameters its words take (:mod:`bot.render.refusals`)."""

    reason: Reason
    params: dict[str, Any] = field(default_factory=dict)


Interpretation = Apply | SetUI | Deny

UNKNOWN = Deny(BotRefusal.UNKNOWN_BUTTON)
"""A press no hand of the family offers (a forged or mangled button)."""


def card_of(code: str) -> Card | None:
    """The card of a RECORD.md code exactly as written (``AS``, ``10H``); None if it is none."""
    try:
        card = Card.parse(code)
    except InvalidNotation:
        return None
    return card if str(card) == code else None
