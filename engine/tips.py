"""What kind of decision a seat faces now, for a newcomer's one-line tip (RULES.md §1–§4).

:func:`tip_kind` reads one seat's view — its phase and its legal actions — and names the
decision. Where an action is missing from the legal ones, the family's own refusal code says why
(:func:`engine.trick.legal.pass_refusal`, :func:`engine.trick.legal.obligation`), so the tip
follows the same knowledge as the refusal a press would get. Pure: no I/O, no clock.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from engine.actions import Buy, Pass
from engine.core import View
from engine.errors import Refusal
from engine.konchinka.actions import Capture, Sweep, Trail
from engine.konchinka.view import KonchinkaView
from engine.kopilka.rules import KopilkaPhase
from engine.kopilka.view import KopilkaView
from engine.lenturlu.actions import Run
from engine.lenturlu.rules import LenturluPhase
from engine.lenturlu.view import LenturluView
from engine.trick import legal
from engine.trick.actions import Announce, Exchange
from engine.trick.rules import TrickPhase
from engine.trick.variant import VARIANTS
from engine.trick.view import TrickView


class TipKind(StrEnum):
    """A decision a seat can face; each names one rule a newcomer needs then."""

    # the trick family (§1)
    RETRUMP = "retrump"  # §1.2.4 Памфил: the turned-up JC taken, a trump named
    ANNOUNCE = "announce"  # §1.3.7 Памфил: the JC received in the deal may be shown
    DECLARE = "declare"  # §1.3.1–§1.3.4: play (with an exchange) or pass
    MAY_PASS_SAFE = "may_pass_safe"  # §1.3.3 a, §1.5.5 Шутиха: the QS holder may pass
    MAY_NOT_PASS = "may_not_pass"  # §1.3.3 a: the privileged card's holder plays
    MUST_DEFEND = "must_defend"  # §1.3.3 b: the dealer against a lone player
    DISCARD = "discard"  # §1.3.12 Шутиха: back to five cards
    LEAD = "lead"  # §1.4.1, §2.4.1–2, §3.2.3: the seat leads
    FOLLOW_SUIT = "follow_suit"  # §1.4.3 a, §2.4.3 a: the led suit must be followed
    MUST_TRUMP = "must_trump"  # §1.4.3 b: void, with option must_trump
    ANY_CARD = "any_card"  # §1.4.3 c: void, any card
    # Копилка (§2)
    BUY_OR_PASS = "buy_or_pass"  # §2.4.3 b: void in the led suit, a stock to buy from
    ACE_OR_PASS = "ace_or_pass"  # §2.4.3 b–c: void, nothing (more) to buy
    # Лентюрлю (§3)
    CONTINUE = "continue"  # §3.3.2: able, with a stock: run, buy or pass
    CONTINUE_OR_PASS = "continue_or_pass"  # §3.3.2: able, already bought: run or pass
    MUST_PLAY = "must_play"  # §3.3.2: able, the stock empty: a run only
    MUST_BUY = "must_buy"  # §3.3.2: unable, a stock: buy only
    # Кончинка (§4)
    MUST_CAPTURE = "must_capture"  # §4.3.5: a capture is possible, so one must be made
    SWEEP = "sweep"  # §4.3.4: a J sweeps the table (and a capture is a must)
    TRAIL = "trail"  # §4.3.5: nothing captures: a card is laid on the table
    EMPTY_TABLE = "empty_table"  # §4.3.5: on an empty table the only move is a trail


def tip_kind(view: View[Any, Any]) -> TipKind | None:
    """The decision ``view``'s seat faces now, or None: not his turn, or nothing to decide
    (a single legal action, or a phase with no tip)."""
    if view.seat is None or view.to_act != view.seat or len(view.legal) < 2:
        return None
    match view:
        case TrickView():
            return _trick(view)
        case KopilkaView():
            return _kopilka(view)
        case LenturluView():
            return _lenturlu(view)
        case KonchinkaView():
            return _konchinka(view)
    return None


def _trick(view: TrickView) -> TipKind | None:
    variant = VARIANTS[view.game]
    match view.phase:
        case TrickPhase.RETRUMP:
            return TipKind.RETRUMP
        case TrickPhase.DISCARD:
            return TipKind.DISCARD
        case TrickPhase.DECLARE:
            if any(isinstance(a, Announce) for a in view.legal):
                return TipKind.ANNOUNCE
            if not any(isinstance(a, Pass) for a in view.legal):
                refusal = legal.pass_refusal(view.hand, variant).code
                if refusal is Refusal.PRIVILEGED_MAY_NOT_PASS:
                    return TipKind.MAY_NOT_PASS
                return TipKind.MUST_DEFEND
            if variant.holder_may_pass and variant.privileged in view.hand:
                return TipKind.MAY_PASS_SAFE
            if any(isinstance(a, Exchange) for a in view.legal):
                return TipKind.DECLARE
            return None
        case TrickPhase.PLAY:
            if not view.trick or view.led is None or view.trump is None:
                return TipKind.LEAD
            _, why = legal.obligation(view.hand, view.led, view.trump, variant, view.must_trump)
            if why == legal.SUIT:
                return TipKind.FOLLOW_SUIT
            if why == legal.TRUMP:
                return TipKind.MUST_TRUMP
            return TipKind.ANY_CARD
    return None


def _kopilka(view: KopilkaView) -> TipKind | None:
    if view.phase == KopilkaPhase.LEAD:
        return TipKind.LEAD
    if view.phase != KopilkaPhase.FOLLOW or view.led_suit is None:
        return None
    if any(isinstance(a, Buy) for a in view.legal):
        return TipKind.BUY_OR_PASS
    if any(c.suit is view.led_suit for c in view.hand):
        return TipKind.FOLLOW_SUIT
    return TipKind.ACE_OR_PASS


def _lenturlu(view: LenturluView) -> TipKind | None:
    if view.phase == LenturluPhase.LEAD:
        return TipKind.LEAD
    if view.phase != LenturluPhase.FOLLOW:
        return None
    runs = any(isinstance(a, Run) for a in view.legal)
    buys = any(isinstance(a, Buy) for a in view.legal)
    passes = any(isinstance(a, Pass) for a in view.legal)
    if runs and buys:
        return TipKind.CONTINUE
    if runs and passes:
        return TipKind.CONTINUE_OR_PASS
    if runs:
        return TipKind.MUST_PLAY
    return TipKind.MUST_BUY if buys else None


def _konchinka(view: KonchinkaView) -> TipKind | None:
    if any(isinstance(a, Sweep) for a in view.legal):
        return TipKind.SWEEP
    if any(isinstance(a, Capture) for a in view.legal):
        return TipKind.MUST_CAPTURE
    if any(isinstance(a, Trail) for a in view.legal):
        return TipKind.TRAIL if view.table else TipKind.EMPTY_TABLE
    return None
