"""Lines that Копилка's group table and private hand share (RULES.md §2; PRODUCT.md §5.7).

Public lines name cards only where they lie face up (the trick, the last trick); a lay-out
says who laid out which suit and who received a card, never which card (PRODUCT.md §14).
"""

from __future__ import annotations

from bot.i18n import Translator
from bot.markup import esc
from bot.render.cards import SUIT_SYMBOL, card_name
from bot.render.table_context import TableContext
from engine.actions import Buy, Pass, PlayCard
from engine.kopilka.rules import DEALS, KopilkaPhase
from engine.kopilka.view import KopilkaView


def deal_text(view: KopilkaView, tr: Translator) -> str:
    """``deal 2 of 4`` (RULES.md §2.1.2)."""
    return tr("deal {n} of {total}", n=view.deal_no, total=DEALS)


def layouts_line(ctx: TableContext, view: KopilkaView, tr: Translator) -> str:
    """``📤 Lay-outs (a card to each opponent, drawn from the stock in their place): Вера ♦ ×4 ·
    Борис ♥ ×3``: every lay-out since the last trick on one line, said while it is news —
    until the next card is played (§2.3; the cards taken are never named, PRODUCT.md §14)."""
    if not view.layouts or not _news(view):
        return ""
    parts = []
    for lay in view.layouts:
        part = f"{esc(ctx.names[lay.seat])} {SUIT_SYMBOL[lay.suit]} ×{lay.count}"
        if not lay.drawn and lay.takers:  # §2.3.6: nothing left to draw
            part += " (" + tr("the stock is empty") + ")"
        elif lay.drawn < len(lay.takers):  # the stock ran short
            part += " (" + tr.n("{n} card drawn", "{n} cards drawn", lay.drawn) + ")"
        parts.append(part)
    return tr(
        "📤 Lay-outs (a card to each opponent, drawn from the stock in their place): {list}",
        list=" · ".join(parts),
    )


def _news(view: KopilkaView) -> bool:
    """The lay-outs are news until a card is played after them: at the deal's start or a
    trick's, or right after the buy that brought one."""
    if not view.trick_log:
        return True
    return isinstance(view.trick_log[-1][1], Buy)


def buys_text(name: str, k: int, tr: Translator) -> str:
    """``Вера покупает 1 карту``: one verb for buying, the number agreeing with its noun."""
    return tr.n("{name} buys {n} card", "{name} buys {n} cards", k, name=name)


def trick_line(ctx: TableContext, view: KopilkaView, tr: Translator) -> str:
    """The trick under way, every follower's move in order (buys and passes are public)."""
    if view.phase != KopilkaPhase.FOLLOW or view.led_suit is None:
        return ""
    parts = []
    for seat, action in view.trick_log:
        name = esc(ctx.names[seat])
        match action:
            case PlayCard(card):
                parts.append(f"{name} {card_name(card, tr.locale)}")
            case Buy(k):
                parts.append(buys_text(name, k, tr))
            case Pass():
                parts.append(tr("{name} passes", name=name))
    return tr(
        "Trick {no} · led {suit}: {list}",
        no=view.trick_no + 1,
        suit=SUIT_SYMBOL[view.led_suit],
        list=" · ".join(parts),
    )


def last_trick_line(ctx: TableContext, view: KopilkaView, tr: Translator) -> str:
    """``Last trick: Аня Q♦ · Вера K♦ → Вера +3``."""
    if not view.last_trick or view.last_winner is None:
        return ""
    plays = " · ".join(f"{esc(ctx.names[s])} {card_name(c, tr.locale)}" for s, c in view.last_trick)
    return tr(
        "Last trick: {plays} → {name} +{points}",
        plays=plays,
        name=esc(ctx.names[view.last_winner]),
        points=view.last_points,
    )


def takeback_line(ctx: TableContext, view: KopilkaView, tr: Translator) -> str:
    """§2.4.7, §2.5.2: the leader took the card back; how many take-backs in a row (until the
    next card is led: under the next trick it is old news)."""
    if view.takeback is None or not view.takebacks or view.phase == KopilkaPhase.FOLLOW:
        return ""
    return tr(
        "↩️ All three pass: {name} takes the card back (take-backs in a row: {n} of 4)",
        name=esc(ctx.names[view.takeback]),
        n=view.takebacks,
    )


def lead_rule_line(ctx: TableContext, view: KopilkaView, tr: Translator) -> str:
    """§2.4.2: the suit the leader may not lead now; the lead passed on, or freed."""
    if view.phase != KopilkaPhase.LEAD or view.to_act is None:
        return ""
    last = SUIT_SYMBOL[view.last_suit] if view.last_suit is not None else ""
    if view.lead_freed:
        return tr("Nobody holds a suit but {suit}: the lead is free.", suit=last)
    if view.forbidden_suit is None:
        return ""
    line = tr(
        "Lead: any suit but {suit} (the last trick's suit)", suit=SUIT_SYMBOL[view.forbidden_suit]
    )
    if view.lead_passed:
        names = ", ".join(esc(ctx.names[s]) for s in view.lead_passed)
        line += " · " + tr("passed over, only {suit} in hand: {list}", suit=last, list=names)
    return line
