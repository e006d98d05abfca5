"""What a press on a Копилка hand message means (RULES.md §2.4; PRODUCT.md §6.2).

``p`` + card: play it (a lead or a follow); ``b`` + ``1``/``2``: buy; ``n``: pass; ``u``: refresh.
Only legal actions are ever returned as :class:`Apply`; anything else is refused here with the
engine's own reason, before the engine sees it.
"""

from __future__ import annotations

from enum import StrEnum

from bot.presses.meaning import UNKNOWN, Apply, Deny, HandUI, Interpretation, SetUI, card_of
from bot.refused import BotRefusal, Param
from engine.actions import Buy, Pass, PlayCard
from engine.errors import Refusal
from engine.kopilka.rules import KopilkaPhase
from engine.kopilka.view import KopilkaView


class KopilkaAct(StrEnum):
    """What a Копилка hand button does (its wire code)."""

    PLAY = "p"  # play the card
    BUY = "b"  # buy from the stock (arg: how many)
    PASS = "n"  # pass
    REFRESH = "u"  # draw the hand again


def _refuse(code: Refusal, **params: Param) -> Deny:
    return Deny(code, dict(params))


def _holds_led(view: KopilkaView) -> bool:
    return view.led_suit is not None and any(c.suit is view.led_suit for c in view.hand)


def interpret(view: KopilkaView, act: str, arg: str | None, ui: HandUI) -> Interpretation:
    legal = view.legal
    match act:
        case KopilkaAct.REFRESH:
            return SetUI(ui)
        case KopilkaAct.PLAY:
            card = card_of(arg or "")
            if card is None:
                return UNKNOWN
            play = next((a for a in legal if isinstance(a, PlayCard) and a.card == card), None)
            if play is not None:
                return Apply(play)
            if card not in view.hand:
                return _refuse(Refusal.NOT_IN_HAND, card=str(card))
            if view.phase == KopilkaPhase.LEAD:
                banned = view.forbidden_suit or card.suit
                return _refuse(Refusal.LEAD_SUIT_REPEATED, suit=banned.value)
            led = view.led_suit
            if led is None:
                return _refuse(Refusal.NOT_NOW, action=f"card {card}")
            if _holds_led(view):
                return _refuse(Refusal.MUST_FOLLOW_SUIT, suit=led.value)
            return _refuse(Refusal.OTHER_SUIT_FORBIDDEN, suit=led.value)
        case KopilkaAct.BUY:
            if arg not in ("1", "2"):
                return UNKNOWN
            k = int(arg)
            buy = next((a for a in legal if isinstance(a, Buy) and a.k == k), None)
            if buy is not None:
                return Apply(buy)
            if view.phase == KopilkaPhase.LEAD:
                return _refuse(Refusal.LEADER_MUST_LEAD)
            led = view.led_suit
            if led is not None and _holds_led(view):
                return _refuse(Refusal.NO_BUY_HOLDING_SUIT, suit=led.value)
            if view.bought:
                return _refuse(Refusal.ALREADY_BOUGHT)
            return _refuse(Refusal.STOCK_TOO_SMALL, stock=view.stock_size)
        case KopilkaAct.PASS:
            passing = next((a for a in legal if isinstance(a, Pass)), None)
            if passing is not None:
                return Apply(passing)
            if view.phase == KopilkaPhase.LEAD:
                return _refuse(Refusal.LEADER_MUST_LEAD)
            led = view.led_suit
            return _refuse(Refusal.NO_PASS_HOLDING_SUIT, suit=led.value if led is not None else "")
        case _:
            return UNKNOWN


def stale(last: object | None, act: str, arg: str | None) -> Deny | None:
    """A press drawn before the presser's own last action that repeats it."""
    if (
        act == KopilkaAct.PLAY
        and isinstance(last, PlayCard)
        and arg is not None
        and str(last.card) == arg
    ):
        return Deny(BotRefusal.ALREADY_PLAYED, {"card": arg})
    if act == KopilkaAct.BUY and isinstance(last, Buy):
        return Deny(BotRefusal.BOUGHT_ALREADY, {"n": last.k})
    if act == KopilkaAct.PASS and isinstance(last, Pass):
        return Deny(BotRefusal.ALREADY_PASSED)
    return None
