"""Text lines the trick family's table and hand screens share (PRODUCT.md §5.2–§5.4).

Every function reads one :class:`~engine.trick.view.TrickView` and the table facts; none reads
the record.
"""

from __future__ import annotations

from typing import Final

from bot.i18n import Translator
from bot.markup import esc
from bot.render.cards import SUIT_SYMBOL, card_name, card_names, hand_by_suit, suit_rows
from bot.render.table_context import TableContext
from engine.cards import A_HIGH, K_HIGH, Card, RankOrder
from engine.trick.rules import TrickPhase
from engine.trick.view import TrickView

ORDERS: Final[dict[str, RankOrder]] = {
    "mushka": A_HIGH,
    "pamfil": A_HIGH,
    "shutikha": K_HIGH,
    "mistigri": K_HIGH,
}


def privileged_name(game: str, tr: Translator) -> str:
    names = {
        "mushka": tr("mushka"),
        "pamfil": tr("pamfil"),
        "shutikha": tr("shutikha"),
        "mistigri": tr("mistigri"),
    }
    return names.get(game, game)


def _pamfil_a_trump(ctx: TableContext, view: TrickView) -> bool:
    """Памфил's J♣ in the hand once the trump is named: it belongs to the trump suit and to no
    other (RULES.md §1.4.2), so the hand shows it among the trumps."""
    return ctx.game == "pamfil" and view.trump is not None and view.privileged in view.hand


def trump_rows(ctx: TableContext, view: TrickView) -> list[list[Card]]:
    """The hand's cards in rows by suit, trump first, high to low (PRODUCT.md §6.1); Памфил's
    J♣ last among the trumps (:func:`_pamfil_a_trump`)."""
    rows = suit_rows(view.hand, ORDERS.get(ctx.game, A_HIGH), view.trump)
    if not _pamfil_a_trump(ctx, view):
        return rows
    jc = view.privileged
    rows = [kept for row in rows if (kept := [c for c in row if c != jc])]
    if rows and rows[0][0].suit is view.trump:
        rows[0].append(jc)
    else:
        rows.insert(0, [jc])
    return rows


def cards_text(ctx: TableContext, view: TrickView, rows: list[list[Card]], tr: Translator) -> str:
    """``♠ Д 9 · ♥ 7 · ♣ В`` (:func:`hand_by_suit`); Памфил's J♣ named among the trumps:
    ``♦ К 8 В♣ (памфил) · ♠ Т 9``."""
    if not _pamfil_a_trump(ctx, view) or view.trump is None:
        return hand_by_suit(rows, tr.locale)
    jc = view.privileged
    mark = f"{card_name(jc, tr.locale)} ({privileged_name(ctx.game, tr)})"
    trumps, *others = [[c for c in row if c != jc] for row in rows]
    head = hand_by_suit([trumps], tr.locale) if trumps else SUIT_SYMBOL[view.trump]
    rest = [row for row in others if row]
    return " · ".join([f"{head} {mark}", *([hand_by_suit(rest, tr.locale)] if rest else [])])


def declared(view: TrickView, seat: int) -> str | None:
    """The seat's declaration this deal: "play", "pass", "walkover" or None."""
    return view.declared[seat] if seat < len(view.declared) else None


def trump_text(view: TrickView, tr: Translator) -> str:
    if view.trump is None:
        return tr("Trump: not yet named")
    symbol = SUIT_SYMBOL[view.trump]
    if view.turn_up is not None:
        turned = card_name(view.turn_up, tr.locale)
        return tr("Trump: {suit} (turned {card})", suit=symbol, card=turned)
    return tr("Trump: {suit}", suit=symbol)


def trick_line(
    ctx: TableContext, view: TrickView, tr: Translator, *, pending: bool = False
) -> str | None:
    """``Trick 4: Vera A♠ · Anya 10♠`` (+ ``· Boris …`` for the seat to play, if ``pending``)."""
    if view.phase != TrickPhase.PLAY:
        return None
    parts = [f"{esc(ctx.names[s])} {card_name(c, tr.locale)}" for s, c in view.trick]
    if pending and view.to_act is not None:
        parts.append(f"{esc(ctx.names[view.to_act])} …")
    return tr("Trick {no}: {plays}", no=view.trick_no, plays=" · ".join(parts) or "…")


def last_trick_line(ctx: TableContext, view: TrickView, tr: Translator) -> str | None:
    """``Last trick: Vera (K♥ beats Q♠ 8♠)``: the winner, his card, the others in play order."""
    last = view.last_trick or ()
    winner = view.last_winner
    if not last or winner is None:
        return None
    loc = tr.locale
    won = next((c for s, c in last if s == winner), None)
    others = [c for s, c in last if s != winner]
    if won is None or not others:
        cards = card_names((c for _, c in last), loc)
        return tr("Last trick: {name} ({cards})", name=esc(ctx.names[winner]), cards=cards)
    trump = view.trump
    led = last[0][1].suit
    verb = tr("trumps") if won.suit == trump and led != trump else tr("beats")
    return tr(
        "Last trick: {name} ({card} {verb} {others})",
        name=esc(ctx.names[winner]),
        card=card_name(won, loc),
        verb=verb,
        others=card_names(others, loc),
    )


def declarations_line(ctx: TableContext, view: TrickView, tr: Translator) -> str | None:
    """``Declarations: Vera plays · Fyodor passed · Anya …`` in declaring order."""
    declared = view.declared
    if view.phase != TrickPhase.DECLARE or view.dealer is None or not declared:
        return None
    n = len(ctx.names)
    parts = []
    for k in range(1, n + 1):
        seat = (view.dealer + k) % n
        state = declared[seat] if seat < len(declared) else None
        if state == "play":
            parts.append(f"{esc(ctx.names[seat])} {tr('plays')}")
        elif state == "pass":
            parts.append(f"{esc(ctx.names[seat])} {tr('passed')}")
        elif seat == view.to_act:
            parts.append(f"{esc(ctx.names[seat])} …")
    return tr("Declarations: {list}", list=" · ".join(parts)) if parts else None


def exchange_line(view: TrickView, tr: Translator) -> str | None:
    """The seat's own exchange this deal: what left and what came (§8: actor only)."""
    exchange = view.exchange
    if exchange is None:
        return None
    if not exchange.discarded:
        return tr("No exchange.")
    came = [*exchange.drawn, *([exchange.up] if exchange.up is not None else [])]
    loc = tr.locale
    return tr(
        "Exchanged: {out} → {came}",
        out=card_names(exchange.discarded, loc),
        came=card_names(came, loc) or "—",
    )


def status(view: TrickView, seat: int, tr: Translator) -> str:
    declared = view.declared
    state = declared[seat] if seat < len(declared) else None
    if state == "play":
        return tr("plays")
    if state == "pass":
        return tr("passed")
    if state == "walkover":
        return tr("walkover")
    if view.phase == TrickPhase.DECLARE:
        return tr("thinking…") if view.to_act == seat else tr("waiting")
    return ""
