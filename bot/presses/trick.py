"""What a press on a trick-family hand message means (PRODUCT.md §6.3, §7.2 step 7).

The screens of the family are :mod:`bot.render.games.trick.screen`; this module only reads presses,
into the engine's typed actions (:mod:`engine.trick.actions`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
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
from engine.cards import Card, Suit
from engine.trick.actions import (
    ANNOUNCE,
    PASS,
    PLAY_CARD,
    Discard,
    Exchange,
    PlayCard,
    Retrump,
    TrickAction,
)
from engine.trick.rules import TrickPhase
from engine.trick.view import TrickView


class TrickAct(StrEnum):
    """What a trick-family hand button does (its wire code)."""

    PLAY = "p"  # play the card
    PASS = "n"  # pass the deal
    ANNOUNCE = "a"  # announce pamfil
    PLAY_DEAL = "y"  # play the deal (then exchange, if any may be)
    MARK = "m"  # mark or unmark a card (exchange, discard)
    EXCHANGE = "x"  # exchange the marked cards (``u``: and take the turn-up)
    DISCARD = "q"  # discard the marked cards
    RETRUMP = "t"  # name a new trump (a discard, then a suit)
    BACK = "z"  # back to the plain hand
    REFRESH = "u"  # draw the hand again


def cards_of(codes: Iterable[str]) -> tuple[Card, ...] | None:
    """The cards of several codes (repeats dropped, order kept); None if any is no card."""
    cards = [card_of(code) for code in dict.fromkeys(codes)]
    return None if any(c is None for c in cards) else tuple(c for c in cards if c is not None)


def interpret(view: TrickView, act: str, arg: str | None, ui: HandUI) -> Interpretation:
    """What a press on a trick-family hand means (PRODUCT.md §6.3): an engine action, a new
    mark or mode on the hand message, or a refusal before the engine sees it."""
    legal = view.legal
    codes = [c for c in (arg or "").split(".") if c]
    match act:
        case TrickAct.PLAY if len(codes) == 1:
            card = card_of(codes[0])
            return Apply(PLAY_CARD[card]) if card is not None else UNKNOWN
        case TrickAct.PASS:
            return Apply(PASS)
        case TrickAct.ANNOUNCE:
            return Apply(ANNOUNCE)
        case TrickAct.PLAY_DEAL:
            if any(isinstance(a, Exchange) and a.cards for a in legal):
                return SetUI(HandUI((), HandMode(ModeKind.EXCHANGE)))
            return Apply(_legal_twin(legal, Exchange(())))
        case TrickAct.MARK if len(codes) == 1:
            return _mark(view, codes[0], ui)
        case TrickAct.EXCHANGE:
            chosen = cards_of(c for c in codes if c != "u")
            if chosen is None:
                return UNKNOWN
            return Apply(_legal_twin(legal, Exchange(chosen, up="u" in codes)))
        case TrickAct.DISCARD:
            discards = cards_of(codes or ui.marks)
            if not discards:
                return UNKNOWN
            return Apply(Discard(discards))
        case TrickAct.RETRUMP if len(codes) == 1:
            card = card_of(codes[0])
            if card is None:
                return UNKNOWN
            return SetUI(HandUI((), HandMode(ModeKind.RETRUMP, card)))
        case TrickAct.RETRUMP if len(codes) == 2:
            suit = next((s for s in Suit if s.value == codes[0]), None)
            discard = card_of(codes[1])
            if suit is None or discard is None:
                return UNKNOWN
            return Apply(Retrump(suit, discard))
        case TrickAct.BACK:
            return SetUI(HandUI())
        case TrickAct.REFRESH:
            return SetUI(ui)
        case _:
            return UNKNOWN


def _mark(view: TrickView, code: str, ui: HandUI) -> Interpretation:
    """Mark or unmark one card for an exchange (declare) or a discard (Шутиха's deal-out)."""
    marks = list(ui.marks)
    if code in marks:
        marks.remove(code)
    else:
        if code not in discardable(view.legal):
            if code == str(view.privileged):
                return _privileged_kept(view.game, view.phase == TrickPhase.DISCARD, code)
            return Deny(BotRefusal.STOCK_HAS_ONLY, {"n": 0})
        if view.phase == TrickPhase.DISCARD:
            limit = discard_count(view.legal)
            if len(marks) >= limit:
                return Deny(BotRefusal.DISCARD_ONLY, {"n": limit})
        else:
            limit = exchange_limit(view.legal)
            if len(marks) >= limit:
                return Deny(BotRefusal.STOCK_HAS_ONLY, {"n": limit})
        marks.append(code)
    kind = ModeKind.DISCARD if view.phase == TrickPhase.DISCARD else ModeKind.EXCHANGE
    return SetUI(HandUI(tuple(marks), HandMode(kind)))


def _legal_twin(legal: Sequence[TrickAction], action: Exchange) -> TrickAction:
    """The legal action equal to ``action`` (the same cards as a set), as the engine lists it;
    ``action`` itself if none is (the engine then says why not)."""
    return next((a for a in legal if a == action), action)


def _privileged_kept(game: str, discarding: bool, code: str) -> Deny:
    """The privileged card may not be given up (RULES.md §1.3.4.1), named by its game."""
    params = {"card": code}
    if game == "pamfil":
        return Deny(BotRefusal.PAMFIL_KEPT, params)
    if game == "shutikha" and discarding:
        return Deny(BotRefusal.SHUTIKHA_NOT_DISCARDED, params)
    if game == "shutikha":
        return Deny(BotRefusal.SHUTIKHA_KEPT, params)
    if game == "mistigri":
        return Deny(BotRefusal.MISTIGRI_KEPT, params)
    return Deny(BotRefusal.MUSHKA_KEPT, params)


def stale(last: object | None, act: str, arg: str | None) -> Deny | None:
    """A press drawn before the presser's own last action that repeats it: the card he played,
    or a second exchange or "no exchange" (or "play") after his own exchange, which can only
    have been this deal's (he plays a card after it before the deal can end)."""
    if (
        act == TrickAct.PLAY
        and isinstance(last, PlayCard)
        and arg is not None
        and str(last.card) == arg
    ):
        return Deny(BotRefusal.ALREADY_PLAYED, {"card": arg})
    if act in (TrickAct.EXCHANGE, TrickAct.PLAY_DEAL) and isinstance(last, Exchange):
        if last.cards:
            return Deny(BotRefusal.ALREADY_EXCHANGED)
        return Deny(BotRefusal.ALREADY_KEPT)
    return None


def discardable(legal: Sequence[TrickAction]) -> set[str]:
    """Cards some legal exchange or discard gives up (never the privileged card)."""
    return {str(c) for a in legal if isinstance(a, Exchange | Discard) for c in a.cards}


def exchange_limit(legal: Sequence[TrickAction]) -> int:
    """The most cards a legal exchange gives up (0: no exchange is legal)."""
    return max((len(a.cards) for a in legal if isinstance(a, Exchange)), default=0)


def discard_count(legal: Sequence[TrickAction]) -> int:
    """How many cards the legal discards give up (1 if none is legal)."""
    return max((len(a.cards) for a in legal if isinstance(a, Discard)), default=1)


def may_take_up(legal: Sequence[TrickAction], n: int) -> bool:
    """Whether an exchange of ``n`` cards that takes the turn-up is legal."""
    return any(isinstance(a, Exchange) and a.up and len(a.cards) == n for a in legal)
