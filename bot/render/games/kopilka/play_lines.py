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
from engine.kopilka.view import KopilkaView, LayOut


def deal_text(view: KopilkaView, tr: Translator) -> str:
    """``deal 2 of 4`` (RULES.md §2.1.2)."""
    return tr("deal {n} of {total}", n=view.deal_no, total=DEALS)


def layout_line(ctx: TableContext, lay: LayOut, tr: Translator) -> str:
    """``📤 Борис: lay-out ♥ (4) · a card each to Вера, Глеб, Аня · back 1 · drew 3``."""
    line = tr(
        "📤 Lay-out: {name} · {suit} ({n})",
        name=esc(ctx.names[lay.seat]),
        suit=SUIT_SYMBOL[lay.suit],
        n=lay.count,
    )
    if lay.takers:
        takers = ", ".join(esc(ctx.names[s]) for s in lay.takers)
        line += " · " + tr("a card each to: {list}", list=takers)
    if lay.returned:
        line += " · " + tr("back to the hand: {n}", n=lay.returned)
    line += " · " + tr("drawn from the stock: {n}", n=lay.drawn)
    return line


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
                parts.append(tr("{name} buys {n}", name=name, n=k))
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
