"""Refusal toasts (PRODUCT.md §16) and the engine's reasons, translated."""

from __future__ import annotations

import contextlib
from typing import Any, Final

from bot.i18n import Translator
from bot.markup import Html, esc
from bot.refused import Refused
from bot.render.cards import SUIT_SYMBOL, card_name
from bot.render.limits import toast
from engine.cards import Suit
from engine.errors import Refusal

REASONS: Final[dict[Refusal, str]] = {
    Refusal.GAME_OVER: "the game is over",
    Refusal.NOT_YOUR_TURN: "it is not your turn",
    Refusal.NOT_IN_HAND: "you don't hold {card}",
    Refusal.WRONG_GAME: "that move is not part of this game",
    Refusal.NOT_NOW: "that move is not possible now",
    Refusal.DUPLICATE_CARDS: "a card is named twice",
    Refusal.STOCK_TOO_SMALL: "the stock has only {stock}",
    Refusal.MUST_FOLLOW_SUIT: "you must follow {suit}",
    Refusal.ALREADY_BOUGHT: "you have already bought",
    Refusal.PRIVILEGED_MAY_NOT_PASS: "with {card} you may not pass",
    Refusal.DEALER_MUST_DEFEND: "the dealer must play against a single player",
    Refusal.PRIVILEGED_NOT_DISCARDED: "the privileged card may not be discarded",
    Refusal.WRONG_CARD_COUNT: "wrong number of cards",
    Refusal.UP_DEALER_ONLY: "only the dealer may take the turn-up",
    Refusal.TURN_UP_GONE: "the turn-up is no longer on the table",
    Refusal.UP_NEEDS_EXCHANGE: "to take the turn-up, exchange at least one card",
    Refusal.ANNOUNCE_NOT_ALLOWED: "you may not announce now",
    Refusal.RETRUMP_FIRST: "the dealer must choose the trump first",
    Refusal.MUST_TRUMP: "you must trump with {suit}",
    Refusal.LEAD_SUIT_REPEATED: "{suit} was just led; lead another suit",
    Refusal.NO_BUY_HOLDING_SUIT: "you hold {suit}, so you may not buy",
    Refusal.NO_PASS_HOLDING_SUIT: "you hold {suit}, so you may not pass",
    Refusal.OTHER_SUIT_FORBIDDEN: "you may not play another suit",
    Refusal.LEADER_MUST_LEAD: "the leader must lead",
    Refusal.NOT_A_RUN: "those cards are not a run",
    Refusal.RUN_MUST_CONTINUE: "the run must continue the pile",
    Refusal.ACE_ONLY_LEADS: "an ace may only lead",
    Refusal.MUST_BUY: "you cannot play, so you must buy",
    Refusal.MUST_PLAY: "you can play, so you must play",
    Refusal.MUST_CAPTURE: "you must capture when you can",
    Refusal.INVALID_CAPTURE: "that capture is not valid",
    Refusal.JACK_MUST_SWEEP: "the jack takes the whole table",
    Refusal.NO_SWEEP: "there is nothing to sweep",
}


def _params(params: dict[str, Any], locale: str) -> dict[str, Any]:
    out = dict(params)
    suit = out.get("suit")
    if isinstance(suit, str) and suit in Suit.__members__.values():
        out["suit"] = SUIT_SYMBOL[Suit(suit)]
    card = out.get("card")
    if isinstance(card, str):
        with contextlib.suppress(ValueError):
            out["card"] = card_name(card, locale)
    return out


def refusal_text(refused: Refused, tr: Translator) -> str:
    """The refusal as plain text (a toast): its parameters as they are, within a toast's
    length."""
    return toast(_text(refused, tr))


def refusal_html(refused: Refused, tr: Translator) -> Html:
    """The refusal as a message's HTML: its parameters (plain, a person's name) escaped."""
    return esc(_text(refused, tr))


def _text(refused: Refused, tr: Translator) -> str:
    params = _params(refused.params, tr.locale)
    if refused.engine is not None:
        reason = tr(REASONS.get(refused.engine, "that move is not possible now"), **params)
        return tr("Not allowed: {reason}.", reason=reason)
    if refused.msgid == "Not allowed: {reason}.":
        return tr(refused.msgid, reason=tr("that option value is not allowed"))
    return tr(refused.msgid, **params)
