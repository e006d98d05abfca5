"""The trick family's events said in words (RULES.md §1.3.7, §1.3.10, §1.3.12): what happened at
the table that no move line shows — a flush shown, a pamfil announced, the Q♠ dealt out of the
stock. Public facts only; each from one record line (``events``) or the public view."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import Translator
from bot.markup import esc
from bot.render.cards import SUIT_SYMBOL, card_names
from bot.render.table_context import TableContext
from engine.core import Line
from engine.trick.events import BOOK, DealtOut, FlushShown, PamfilBonus
from engine.trick.rules import TrickPhase
from engine.trick.view import TrickView

HAND: int = 5  # §1.1.6: five cards each


def event_lines(ctx: TableContext, events: Sequence[Line], tr: Translator) -> list[str]:
    """One sentence per public event of an action, in order."""
    names = ctx.names
    out: list[str] = []
    dealt: dict[int, int] = {}
    queen: int | None = None
    for event in BOOK.events(events):
        match event:
            case FlushShown(seat=seat, cards=cards):  # §1.3.10.1: shown at once
                out.append(
                    tr(
                        "{name} shows a flush: {cards}.",
                        name=esc(names[seat]),
                        cards=card_names(cards, tr.locale),
                    )
                )
            case PamfilBonus(seat=seat, amount=amount):  # §1.3.7
                # the move itself says the announcement (narrated): here only what it pays
                out.append(
                    tr(
                        "📣 Pamfil bonus — {name}: +{n} from each on the side ledger.",
                        name=esc(names[seat]),
                        n=amount,
                    )
                )
            case DealtOut(seat=seat):  # §1.3.12: one card at a time, until the Q♠
                dealt[seat] = dealt.get(seat, 0) + 1
                queen = seat
    if queen is not None:
        out.append(dealt_out_line(ctx, dealt, queen, tr))
    return out


def dealt_out_line(ctx: TableContext, dealt: dict[int, int], queen: int, tr: Translator) -> str:
    """§1.3.12: who received how many cards, who the Q♠; each discards as many."""
    listed = " · ".join(f"{esc(ctx.names[s])} +{n}" for s, n in sorted(dealt.items()))
    return tr(
        "The Q♠ was still in the stock: dealt out until it came ({list}); it went to {name}. "
        "Each discards as many cards as he received.",
        list=listed,
        name=esc(ctx.names[queen]),
    )


def table_events(ctx: TableContext, view: TrickView, tr: Translator) -> list[str]:
    """The table's lines for what stands in this deal: the pamfil announced (§1.3.7), the
    discards after the Q♠ was dealt out (§1.3.12)."""
    out: list[str] = []
    if view.announced is not None and view.phase != TrickPhase.OVER:
        out.append(tr("📣 Pamfil announced: {name}", name=esc(ctx.names[view.announced])))
    if view.flushes and view.phase != TrickPhase.OVER:  # §1.3.10.1: shown to the table at once
        shown = " · ".join(f"{esc(ctx.names[s])} {SUIT_SYMBOL[suit]}" for s, suit in view.flushes)
        out.append(tr("Flushes shown: {list}", list=shown))
    if view.phase == TrickPhase.DISCARD:
        extra = [
            f"{esc(ctx.names[s])} +{n - HAND}" for s, n in enumerate(view.hand_sizes) if n > HAND
        ]
        if extra:
            out.append(
                tr(
                    "The Q♠ was dealt out of the stock: {list} — discarding back to five.",
                    list=" · ".join(extra),
                )
            )
    return out
