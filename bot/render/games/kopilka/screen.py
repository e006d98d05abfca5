"""Screens of Мушка-Копилка (RULES.md §2; PRODUCT.md §5.7): the bank, lay-outs, take-backs,
deal n of 4, the partia's payout from the bank.

``KOPILKA_UI`` is the family's :class:`~bot.render.games.game_ui.GameUI` over the engine's
:class:`~engine.kopilka.view.KopilkaView`. The table message is here; the hand message is
:mod:`.kopilka_hand`, what a press means :mod:`bot.presses.kopilka`, the ends of a deal and a partia
:mod:`.kopilka_results`, the words outside the table :mod:`.kopilka_texts`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bot.game_names import game_name
from bot.i18n import Translator
from bot.markup import esc
from bot.render.games.game_ui import GameUI
from bot.render.games.kopilka import chart as kopilka_chart
from bot.render.games.kopilka import hand as kopilka_hand
from bot.render.games.kopilka import results as kopilka_results
from bot.render.games.kopilka import texts as kopilka_texts
from bot.render.games.kopilka.play_lines import (
    deal_text,
    last_trick_line,
    layouts_line,
    lead_rule_line,
    takeback_line,
    trick_line,
)
from bot.render.table_context import TableContext, my_cards_button, to_play_line
from bot.rendered import Rendered, keyboard
from engine.core import Line
from engine.kopilka.view import KopilkaView


def table(ctx: TableContext, view: KopilkaView, tr: Translator) -> Rendered:
    """The group's table message (public view): the bank, each seat's cards count, tricks and
    points, the lay-outs (no cards), the trick, take-backs, whose turn it is."""
    lines = [
        tr(
            "🃏 <b>{game}</b> · «{chat}» · partia {partia} · {deal}",
            game=game_name(ctx.game, tr.locale),
            chat=esc(ctx.chat_title),
            partia=ctx.match_no,
            deal=deal_text(view, tr),
        )
    ]
    head = [tr("Bank: {n}", n=view.bank)]
    if view.dealer is not None:
        head.append(tr("dealer {name}", name=esc(ctx.names[view.dealer])))
    head.append(tr("stock {n}", n=view.stock_size))
    lines.append(" · ".join(head))
    lines.append("")
    for seat, player in enumerate(ctx.names):
        dealer = " " + tr("(dlr)") if seat == view.dealer else ""
        parts = [
            tr("cards {n}", n=_at(view.hand_sizes, seat)),
            tr("tricks {n}", n=_at(view.tricks_won, seat)),
            tr("points {n}", n=_at(view.deal_points, seat)),
            tr("partia {n}", n=_at(view.partia_points, seat)),
            tr("paid in {n}", n=_at(view.fines, seat)),
        ]
        if seat < len(ctx.away) and ctx.away[seat]:
            parts.append(tr("🤖 the computer plays"))
        lines.append(f"{seat + 1}. {esc(player)}{dealer} — {' · '.join(parts)}")
    lines.append("")
    news = (
        layouts_line(ctx, view, tr),
        takeback_line(ctx, view, tr),
        trick_line(ctx, view, tr),
        lead_rule_line(ctx, view, tr),
    )
    lines.extend(line for line in news if line)
    if view.to_act is not None:
        lines.append(to_play_line(ctx, view.to_act, tr))
    last = last_trick_line(ctx, view, tr)
    if last:
        lines.append(last)
    if lines[-1] == "":
        lines.pop()
    button = my_cards_button(ctx, tr)
    return Rendered("\n".join(lines), keyboard([[button]]))


def _at(values: Sequence[int], seat: int) -> int:
    return values[seat] if seat < len(values) else 0


def _ended_table(
    ctx: TableContext, before: KopilkaView, events: Sequence[Line], tr: Translator
) -> Rendered:
    """The deal as it ended, frozen, without buttons (the engine is already on the next)."""
    return Rendered(table(ctx, kopilka_results.ended_view(before, events), tr).text)


KOPILKA_UI: Final = GameUI[KopilkaView](
    table=table,
    ended_table=_ended_table,
    hand=kopilka_hand.hand,
    deal_result=kopilka_results.deal_result,
    match_result=kopilka_results.match_result,
    points_label=lambda n, tr: tr("partia points {n}", n=n),
    rules_summary=lambda game, tr: kopilka_texts.rules_summary(tr),
    option_label=kopilka_texts.option_label,
    option_steps=kopilka_texts.OPTION_STEPS.get,
    match_word=lambda tr: tr("partia"),
    chart=kopilka_chart.plot,
)
"""Копилка's :class:`~bot.render.games.game_ui.GameUI`."""
