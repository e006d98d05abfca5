"""The trick family's private hand message (PRODUCT.md §5.3, §6.3): one seat's view only."""

from __future__ import annotations

from aiogram.types import InlineKeyboardButton

from bot.callbacks import Kind, Press, PressCodec
from bot.i18n import Translator
from bot.render.cards import SUIT_SYMBOL, card_name, hand_by_suit, suit_rows
from bot.render.common import Rendered, esc, keyboard
from bot.render.context import HandUI, TableContext, game_name
from bot.render.games.trick_lines import (
    ORDERS,
    exchange_line,
    privileged_name,
    trick_line,
    trump_text,
)
from bot.render.games.trick_press import (
    discard_count,
    discardable,
    exchange_limit,
    may_take_up,
)
from engine.cards import A_HIGH, Suit
from engine.trick.actions import Announce, Exchange, Pass, PlayCard
from engine.trick.view import TrickView


def hand(
    ctx: TableContext, view: TrickView, ui: HandUI, tr: Translator, codec: PressCodec
) -> Rendered:
    assert view.seat is not None
    seat = view.seat
    loc = tr.locale
    my_turn = view.to_act == seat
    legal = view.legal
    counts = view.counts
    tricks = view.tricks_won
    lines = [
        tr(
            "🃏 {game} · «{chat}» · deal {deal} · seat {seat}",
            game=game_name(ctx.game, loc),
            chat=esc(ctx.chat_title),
            deal=view.deal_no,
            seat=seat + 1,
        )
    ]
    head = trump_text(view, tr)
    if seat < len(counts):
        head += " · " + tr("your count {n}", n=counts[seat])
    if view.phase == "play" and seat < len(tricks):
        head += " · " + tr("tricks {n}", n=tricks[seat])
    lines.append(head)
    trick = trick_line(ctx, view, tr) if my_turn else None
    if trick:
        lines.append(trick + " → " + tr("<b>your turn</b>"))
    rows = suit_rows(view.hand, ORDERS.get(ctx.game, A_HIGH), view.trump)
    lines.append(tr("Your cards: {cards}", cards=hand_by_suit(rows, loc)))
    exchanged = exchange_line(view, tr)
    if exchanged:
        lines.append(exchanged)
    privileged = str(view.privileged)
    if any(str(c) == privileged for c in view.hand):
        lines.append(
            tr(
                "You hold the {name} ({card}).",
                name=privileged_name(ctx.game, tr),
                card=card_name(privileged, loc),
            )
        )

    def press(act: str, arg: str | None = None) -> str:
        return codec.pack(Press(Kind.HAND, ctx.table_id, seat, ctx.moves, act, arg))

    def button(text: str, act: str, arg: str | None = None) -> InlineKeyboardButton:
        return InlineKeyboardButton(text=text, callback_data=press(act, arg))

    card_act = "p"
    playable: set[str] = set()
    actions: list[InlineKeyboardButton] = []
    extra_rows: list[list[InlineKeyboardButton]] = []
    back: list[InlineKeyboardButton] = []
    marks = set(ui.marks)
    if not my_turn:
        waiting_trick = trick_line(ctx, view, tr)
        if waiting_trick and view.to_act is not None:
            lines.insert(2, waiting_trick)
        if view.to_act is not None:
            lines.append(tr("Waiting for: {name}", name=esc(ctx.names[view.to_act])))
        elif view.phase == "over":
            lines.append(tr("The pulka is over."))
    elif view.phase == "play":
        playable = {str(a.card) for a in legal if isinstance(a, PlayCard)}
        names = ", ".join(card_name(c, loc) for row in rows for c in row if str(c) in playable)
        lines.append(tr("Playable: {cards}", cards=names))
    elif view.phase == "retrump":
        if ui.mode.startswith("t:"):
            discard = ui.mode[2:]
            lines.append(tr("Discard: {card}. Trump?", card=card_name(discard, loc)))
            suits = [button(SUIT_SYMBOL[s], "t", f"{s.value}.{discard}") for s in Suit]
            extra_rows.append(suits)
            extra_rows.append([button(tr("↩️ Another discard"), "z")])
        else:
            lines.append(
                tr("The pamfil (J♣) was turned up — it's yours. Discard a card and name trump.")
            )
        card_act = "t"
    elif view.phase == "discard":
        need = discard_count(legal)
        lines.append(tr("Discard {n} card(s). Marked: {k}", n=need, k=len(marks)))
        card_act = "m"
        if len(marks) == need:  # the marks are stored: a long discard fits in 64 bytes
            actions.append(button(tr("🗑 Discard {n}", n=need), "q"))
    elif view.phase == "declare":
        card_act = "m"
        if ui.mode == "x":
            lines.append(
                tr(
                    "Mark cards to exchange (up to {n}; stock {stock}). Marked: {k}",
                    n=exchange_limit(legal),
                    stock=view.stock_size,
                    k=len(marks),
                )
            )
            arg = ".".join(str(c) for row in rows for c in row if str(c) in marks)
            if marks:
                actions.append(button(tr("🔄 Exchange {n}", n=len(marks)), "x", arg))
                if may_take_up(legal, len(marks)):
                    label = tr("🔄 Exchange {n} with the turn-up", n=len(marks))
                    actions.append(button(label, "x", arg + ".u"))
            actions.append(button(tr("Keep all"), "x", ""))
            back.append(button(tr("↩️ Back"), "z"))
        else:
            lines.append(tr("Play or pass?"))
            if any(isinstance(a, Announce) for a in legal):
                extra_rows.append([button(tr("📣 Announce pamfil"), "a")])
            if any(isinstance(a, Exchange) for a in legal):
                actions.append(button(tr("✅ Play"), "y"))
            if any(isinstance(a, Pass) for a in legal):
                actions.append(button(tr("🙅 Pass"), "n"))

    can_give = discardable(legal) if card_act == "m" and my_turn else set()
    card_rows: list[list[InlineKeyboardButton]] = []
    for row in rows:
        buttons = []
        for c in row:
            code = str(c)
            if view.phase == "retrump" and c == view.privileged:
                continue
            label = card_name(c, loc)
            if code in marks:
                label = "✓" + label
            if (my_turn and view.phase == "play" and code not in playable) or (
                card_act == "m" and my_turn and code not in can_give
            ):
                label = f"·{label}·"
            buttons.append(button(label, card_act, code))
        card_rows.append(buttons)
    tail = [*back, button(tr("🔄 Refresh"), "u")]
    return Rendered("\n".join(lines), keyboard([*card_rows, *extra_rows, actions, tail]))
