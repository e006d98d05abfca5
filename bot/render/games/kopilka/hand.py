"""Копилка's private hand message (RULES.md §2.4; PRODUCT.md §5.7, §6): one seat's view only.

A card tap plays it (dotted: not playable now, and the text says why); 🛒 Buy 1 / Buy 2 and
🙅 Pass appear only when legal. A card received from another player's lay-out is named here,
with the player it came from (§2.3.4) — never on the group's table.
"""

from __future__ import annotations

from bot.callbacks import PressCodec
from bot.game_names import game_name
from bot.i18n import Translator
from bot.markup import esc
from bot.presses.kopilka import KopilkaAct
from bot.presses.meaning import HandUI
from bot.render.cards import SUIT_SYMBOL, card_name, card_names, hand_by_suit, suit_rows
from bot.render.games.hand_head import hand_button, plays_own_turn
from bot.render.games.kopilka.play_lines import deal_text, takeback_line, trick_line
from bot.render.games.over import over_lines
from bot.render.table_context import TableContext
from bot.rendered import Button, Rendered, keyboard
from engine.actions import Buy, Pass, PlayCard
from engine.cards import A_HIGH, Card
from engine.kopilka.rules import ACE_OF_SPADES, KopilkaPhase
from engine.kopilka.view import KopilkaView, LayOut


def hand(
    ctx: TableContext, view: KopilkaView, ui: HandUI, tr: Translator, codec: PressCodec
) -> Rendered:
    assert view.seat is not None
    seat = view.seat
    loc = tr.locale
    my_turn = plays_own_turn(ctx, view.to_act, seat)
    legal = view.legal
    lines = [
        tr(
            "🃏 {game} · «{chat}» · {deal} · seat {seat}",
            game=game_name(ctx.game, loc),
            chat=esc(ctx.chat_title),
            deal=deal_text(view, tr),
            seat=seat + 1,
        )
    ]
    tricks = view.tricks_won[seat] if seat < len(view.tricks_won) else 0
    points = view.deal_points[seat] if seat < len(view.deal_points) else 0
    partia = view.partia_points[seat] if seat < len(view.partia_points) else 0
    lines.append(
        " · ".join(
            (
                tr("Bank: {n}", n=view.bank),
                tr("stock {n}", n=view.stock_size),
                tr("tricks {n}", n=tricks),
                tr("points {n}", n=points),
                tr("partia {n}", n=partia),
            )
        )
    )
    lines.extend(layout_news(ctx, view, tr))
    kept = [c for c in view.bought_cards if c in view.hand]  # a lay-out may have taken some
    if kept:  # §2.4.5: which cards the buy brought, to the buyer only
        lines.append(tr("🛒 You bought: {cards}", cards=card_names(kept, loc)))
    if view.to_act is not None:  # §2.5.1: a race to run out of cards
        others = [f"{esc(ctx.names[s])} {n}" for s, n in enumerate(view.hand_sizes) if s != seat]
        lines.append(tr("Cards in hand: {list}", list=" · ".join(others)))
    trick = trick_line(ctx, view, tr)
    if trick:
        lines.append(trick + (" → " + tr("<b>your turn</b>") if my_turn else ""))
    back = takeback_line(ctx, view, tr)
    if back:
        lines.append(back)
    rows = suit_rows(view.hand, A_HIGH)
    lines.append(tr("Your cards: {cards}", cards=hand_by_suit(rows, loc)))
    playable = {a.card for a in legal if isinstance(a, PlayCard)} if my_turn else set()
    buys = [a for a in legal if isinstance(a, Buy)] if my_turn else []
    may_pass = my_turn and any(isinstance(a, Pass) for a in legal)
    if my_turn:
        lines.append(_what_now(view, rows, playable, bool(buys), may_pass, tr))
    elif view.to_act is None:
        lines.extend(_over(ctx, view, tr))
    elif view.to_act != seat:  # his own turn the computer plays: no line of his
        lines.append(tr("Waiting for: {name}", name=esc(ctx.names[view.to_act])))

    button = hand_button(ctx, seat, codec)

    card_rows: list[list[Button]] = []
    for row in rows if view.to_act is not None else ():  # the partia over: nothing to tap
        buttons = []
        for c in row:
            may = not my_turn or c in playable
            buttons.append(button(card_name(c, loc), KopilkaAct.PLAY, str(c), playable=may))
        card_rows.append(buttons)
    actions = [button(tr("🛒 Buy {n}", n=b.k), KopilkaAct.BUY, str(b.k)) for b in buys]
    if may_pass:
        fine = ctx.options.get("hold_pass_fine")
        if _holds_led(view) and isinstance(fine, int) and fine:  # §2.4.3 a, §2.6.4
            actions.append(button(tr("🙅 Pass (fine {n})", n=fine), KopilkaAct.PASS))
        else:
            actions.append(button(tr("🙅 Pass"), KopilkaAct.PASS))
    tail = [button(tr("↻ Refresh"), KopilkaAct.REFRESH)]
    return Rendered("\n".join(lines), keyboard([*card_rows, actions, tail]))


def layout_news(ctx: TableContext, view: KopilkaView, tr: Translator) -> list[str]:
    """§2.3 as this seat knows it since the last trick, folded: its own lay-outs on one line,
    the cards it received (and from whom) on another."""
    seat = view.seat
    mine = [_own_layout(lay, tr) for lay in view.layouts if lay.seat == seat]
    givers: dict[Card, int] = {}  # each card once, from whoever gave it last
    for lay in view.layouts:
        for taker, card in zip(lay.takers, lay.taken, strict=True):
            if taker == seat and card is not None:
                givers.pop(card, None)
                givers[card] = lay.seat
    kept = [(c, s) for c, s in givers.items() if c in view.hand]  # not those laid out since
    received = [f"{card_name(c, tr.locale)} ({esc(ctx.names[s])})" for c, s in kept]
    out = []
    if mine:
        out.append(tr("📤 You laid out: {list}", list=" · ".join(mine)))
    if received:
        out.append(
            tr.n(
                "📥 You received {n} card: {list}",
                "📥 You received {n} cards: {list}",
                len(received),
                list=" · ".join(received),
            )
        )
    return out


def _own_layout(lay: LayOut, tr: Translator) -> str:
    """``♦ ×4 (1 card back, 3 cards drawn)``: one's own lay-out, the numbers with their nouns."""
    parts = []
    if lay.returned:
        parts.append(tr.n("{n} card back", "{n} cards back", lay.returned))
    parts.append(tr.n("{n} card drawn", "{n} cards drawn", lay.drawn))
    return f"{SUIT_SYMBOL[lay.suit]} ×{lay.count} ({', '.join(parts)})"


def _over(ctx: TableContext, view: KopilkaView, tr: Translator) -> list[str]:
    """§2.6.5–§2.6.7: who won the partia, this seat's place (by net, then points) and money."""
    assert view.seat is not None
    result = view.result
    points = result.points if result is not None and result.points else view.partia_points
    net = result.net if result is not None else (0,) * len(points)
    ranks = [(n, p) for n, p in zip(net, points, strict=False)]
    stopped = tr("The partia was stopped; nothing is paid.")
    lines = over_lines(ctx, view.seat, result, ranks, tr("The partia is over"), stopped, tr)
    seat = view.seat
    if result is not None and result.winner is not None and seat < len(view.fines):
        paid = view.fines[seat]  # §2.6.6: net = payout − everything paid in
        lines.append(
            tr(
                "Partia points {points} · from the bank {payout} · paid in {paid}",
                points=points[seat],
                payout=net[seat] + paid,
                paid=paid,
            )
        )
    return lines


def _holds_led(view: KopilkaView) -> bool:
    return view.led_suit is not None and any(c.suit is view.led_suit for c in view.hand)


def _what_now(
    view: KopilkaView,
    rows: list[list[Card]],
    playable: set[Card],
    buy: bool,
    may_pass: bool,
    tr: Translator,
) -> str:
    """What this seat may do now and why the other cards are dotted (§2.4.2, §2.4.3)."""
    loc = tr.locale
    names = ", ".join(card_name(c, loc) for row in rows for c in row if c in playable)
    if view.phase == KopilkaPhase.LEAD:
        if view.forbidden_suit is not None and len(playable) < len(view.hand):
            return tr(
                "Lead a card: {cards} (not {suit}, the last trick's suit)",
                cards=names,
                suit=SUIT_SYMBOL[view.forbidden_suit],
            )
        return tr("Lead any card: tap it.")
    led = view.led_suit
    suit = SUIT_SYMBOL[led] if led is not None else ""
    if not view.hand:
        return tr("No cards left: pass.")
    if _holds_led(view):
        if may_pass:
            return tr(
                "Playable: {cards} (must follow {suit}) — or pass with a fine",
                cards=names,
                suit=suit,
            )
        return tr("Playable: {cards} (must follow {suit})", cards=names, suit=suit)
    has_as = ACE_OF_SPADES in playable
    ace = card_name(ACE_OF_SPADES, loc)
    if buy and has_as:
        return tr("No {suit}: play the {ace}, buy or pass.", suit=suit, ace=ace)
    if buy:
        return tr("No {suit}: buy or pass.", suit=suit)
    if has_as:
        return tr("No {suit}: play the {ace} or pass.", suit=suit, ace=ace)
    if view.bought:
        return tr("Still no {suit} after the buy: pass.", suit=suit)
    return tr("No {suit} and the stock is empty: pass.", suit=suit)
