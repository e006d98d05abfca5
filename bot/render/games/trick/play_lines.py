"""Text lines the trick family's table and hand screens share (PRODUCT.md §5.2–§5.4).

Every function reads one :class:`~engine.trick.view.TrickView` and the table facts; none reads
the record.
"""

from __future__ import annotations

from typing import Final

from bot.i18n import Translator
from bot.markup import esc
from bot.render.cards import SUIT_SYMBOL, card_name, card_names
from bot.render.table_context import TableContext
from engine.cards import A_HIGH, K_HIGH, RankOrder
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
