"""What a press on a Кончинка hand message means (RULES.md §4.3; PRODUCT.md §6.3).

Acts: ``c`` a card of the hand (arg its code): a sweep, the card's only capture or a trail is
applied at once, a card with several captures opens the choice (mode ``c:<code>``); ``k`` one
capture of the legal list (arg its index there: the move counter on the button keeps the list
fixed); ``z`` back to the hand; ``u`` refresh.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from bot.presses.meaning import (
    UNKNOWN,
    Apply,
    Deny,
    HandMode,
    HandUI,
    Interpretation,
    ModeKind,
    SetUI,
    card_of,
)
from bot.refused import BotRefusal
from engine.cards import Card
from engine.konchinka.actions import Capture, KonchinkaAction, Sweep, Trail
from engine.konchinka.view import KonchinkaView


class KonchinkaAct(StrEnum):
    """What a Кончинка hand button does (its wire code)."""

    CARD = "c"  # play the card (or ask which capture)
    CAPTURE = "k"  # take the capture of this index
    BACK = "z"  # back to the plain hand
    REFRESH = "u"  # draw the hand again


def moves_of(legal: Sequence[KonchinkaAction], card: Card) -> list[KonchinkaAction]:
    """The legal moves that play ``card``, in the engine's order."""
    return [a for a in legal if a.card == card]


def chosen(ui: HandUI) -> Card | None:
    """The card whose captures the hand message offers now, if any."""
    return ui.mode.card_of(ModeKind.CHOOSE)


def interpret(view: KonchinkaView, act: str, arg: str | None, ui: HandUI) -> Interpretation:
    legal = view.legal
    match act:
        case KonchinkaAct.CARD if arg is not None:
            card = card_of(arg)
            if card is None or card not in view.hand:
                return UNKNOWN
            moves = moves_of(legal, card)
            if not moves:  # §4.3.5: another card can capture, so this one may not be trailed
                return Deny(BotRefusal.MUST_CAPTURE_WITH, {"card": arg})
            if len(moves) == 1:
                return Apply(moves[0])
            return SetUI(HandUI((), HandMode(ModeKind.CHOOSE, card)))
        case KonchinkaAct.CAPTURE if arg is not None and arg.isdigit():
            index = int(arg)
            if index < len(legal) and isinstance(legal[index], Capture):
                return Apply(legal[index])
            return UNKNOWN
        case KonchinkaAct.BACK:
            return SetUI(HandUI())
        case KonchinkaAct.REFRESH:
            return SetUI(ui)
        case _:
            return UNKNOWN


def stale(last: object | None, act: str, arg: str | None) -> Deny | None:
    """A card press drawn before the presser's own last move that played this very card."""
    if (
        act == KonchinkaAct.CARD
        and isinstance(last, Capture | Sweep | Trail)
        and str(last.card) == arg
    ):
        return Deny(BotRefusal.ALREADY_PLAYED, {"card": arg})
    return None
