"""Screens of the trick family (Мушка, Памфил, Шутиха, Мистигри): PRODUCT.md §5.2–§5.5, §6.3.

``TRICK_UI`` is the family's :class:`~bot.render.games.game_ui.GameUI` over the engine's
:class:`~engine.trick.view.TrickView`. The table message is here; the hand message is
:mod:`.trick_hand`, the ends of a deal and a pulka :mod:`.trick_results`, what a press means
:mod:`.trick_press`, the words outside the table :mod:`.trick_texts`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bot.game_names import game_name
from bot.i18n import Translator
from bot.markup import esc
from bot.render.cards import SUIT_SYMBOL, card_name
from bot.render.games.game_ui import GameUI
from bot.render.games.trick import chart as trick_chart
from bot.render.games.trick import hand as trick_hand
from bot.render.games.trick import results as trick_results
from bot.render.games.trick import texts as trick_texts
from bot.render.games.trick.events import event_lines, table_events
from bot.render.games.trick.play_lines import (
    declarations_line,
    declared,
    last_trick_line,
    status,
    trick_line,
    trump_text,
)
from bot.render.table_context import TableContext, my_cards_button, to_play_line
from bot.rendered import Rendered, keyboard
from engine.core import Line
from engine.trick.rules import TrickPhase
from engine.trick.view import TrickView


def table(ctx: TableContext, view: TrickView, tr: Translator) -> Rendered:
    """The group's table message (public view): who has what count, who declared, the trick."""
    name = game_name(ctx.game, tr.locale)
    lines = [
        tr(
            "🃏 <b>{game}</b> · «{chat}» · pulka {pulka} · deal {deal}",
            game=name,
            chat=esc(ctx.chat_title),
            pulka=ctx.match_no,
            deal=view.deal_no,
        )
    ]
    # §1.2.2, §1.2.4: the turn-up has left the table for the dealer's hand (public)
    if view.trump is not None and view.taken_up is not None:
        card = card_name(view.taken_up, tr.locale)
        head = tr("Trump: {suit} (the dealer took {card})", suit=SUIT_SYMBOL[view.trump], card=card)
    else:
        head = trump_text(view, tr)
    if view.dealer is not None:
        head += " · " + tr("dealer {name}", name=esc(ctx.names[view.dealer]))
    if view.deal_no:
        head += " · " + tr("deck {n}", n=view.deck_size)
    head += " · " + tr("stock {n}", n=view.stock_size)
    lines.append(head)
    lines.append("")
    counts = view.counts
    tricks = view.tricks_won
    exchanged = view.exchanged
    for seat, player in enumerate(ctx.names):
        dealer = " " + tr("(dlr)") if seat == view.dealer else ""
        parts = [tr("count {n}", n=counts[seat]) if seat < len(counts) else ""]
        if view.phase in (TrickPhase.PLAY, TrickPhase.OVER) and seat < len(tricks):
            parts.append(tr("tricks {n}", n=tricks[seat]))
        parts.append(tr("in play") if declared(view, seat) == "play" else status(view, seat, tr))
        n = exchanged[seat] if seat < len(exchanged) else None
        if n is not None:  # how many, never which (§14)
            parts.append(tr("exchanged: {n}", n=n))
        if seat < len(ctx.away) and ctx.away[seat]:
            parts.append(tr("🤖 the computer plays"))
        detail = " · ".join(p for p in parts if p)
        lines.append(f"{seat + 1}. {esc(player)}{dealer} — {detail}")
    lines.append("")
    declarations = declarations_line(ctx, view, tr)
    if declarations:
        lines.append(declarations)
    lines += table_events(ctx, view, tr)
    trick = trick_line(ctx, view, tr, pending=True)
    if trick:
        lines.append(trick)
    if view.phase == TrickPhase.RETRUMP:
        lines.append(tr("The dealer is choosing the trump…"))
    if view.to_act is not None:
        lines.append(to_play_line(ctx, view.to_act, tr))
    last = last_trick_line(ctx, view, tr)
    if last:
        lines.append(last)
    button = my_cards_button(ctx, tr)
    return Rendered("\n".join(lines), keyboard([[button]]))


def _ended_table(
    ctx: TableContext, before: TrickView, events: Sequence[Line], tr: Translator
) -> Rendered:
    """The deal as it ended (§4.6): the last trick complete, the declarations all made, nobody
    to act; frozen, without buttons. The engine's view is already the next deal's."""
    return Rendered(table(ctx, trick_results.ended_view(before, events), tr).text)


TRICK_UI: Final = GameUI[TrickView](
    table=table,
    ended_table=_ended_table,
    hand=trick_hand.hand,
    deal_result=trick_results.deal_result,
    match_result=trick_results.match_result,
    rules_summary=trick_texts.rules_summary,
    option_label=trick_texts.option_label,
    option_steps=trick_texts.OPTION_STEPS.get,
    match_word=lambda tr: tr("pulka"),
    events=event_lines,
    chart=trick_chart.plot,
)
"""The trick family's :class:`~bot.render.games.game_ui.GameUI`."""
