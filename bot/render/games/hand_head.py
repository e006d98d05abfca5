"""What every family's hand screen starts with: its head line and its buttons' press data."""

from __future__ import annotations

from collections.abc import Callable

from bot.callbacks import Kind, Press, PressCodec
from bot.i18n import Translator
from bot.render.common import Button, esc
from bot.render.context import TableContext, game_name

MakeButton = Callable[..., Button]


def hand_head(ctx: TableContext, deal: int, seat: int, tr: Translator) -> str:
    """``🃏 Мушка · «Пятница» · сдача 3 · место 2``."""
    return tr(
        "🃏 {game} · «{chat}» · deal {deal} · seat {seat}",
        game=game_name(ctx.game, tr.locale),
        chat=esc(ctx.chat_title),
        deal=deal,
        seat=seat + 1,
    )


def hand_button(ctx: TableContext, seat: int, codec: PressCodec) -> MakeButton:
    """``button(text, act, arg=None)``: a button of the seat's hand message, drawn at the
    table's current move (PRODUCT.md §7.1)."""

    def button(text: str, act: str, arg: str | None = None) -> Button:
        press = Press(Kind.HAND, ctx.table_id, seat, ctx.moves, act, arg)
        return Button(text=text, callback_data=codec.pack(press))

    return button
