"""What every family's hand screen starts with: its head line and its buttons' press data."""

from __future__ import annotations

from typing import Protocol

from bot.callbacks import Kind, Press, PressCodec
from bot.game_names import game_name
from bot.i18n import Translator
from bot.markup import esc
from bot.render.table_context import TableContext, turn_timer
from bot.rendered import Button, ButtonStyle


class MakeButton(Protocol):
    """What :func:`hand_button` returns: ``button(text, act, arg=None)``."""

    def __call__(
        self,
        text: str,
        act: str,
        arg: str | None = None,
        *,
        style: ButtonStyle | None = None,
        playable: bool = True,
    ) -> Button: ...


def hand_head(ctx: TableContext, deal: int, seat: int, tr: Translator) -> str:
    """``🃏 Мушка · «Пятница» · сдача 3 · место 2``."""
    return tr(
        "🃏 {game} · «{chat}» · deal {deal} · seat {seat}",
        game=game_name(ctx.game, tr.locale),
        chat=esc(ctx.chat_title),
        deal=deal,
        seat=seat + 1,
    )


def plays_own_turn(ctx: TableContext, to_act: int | None, seat: int) -> bool:
    """Whether it is the seat's turn and its person plays it himself: while the computer plays
    for him (PRODUCT.md §13) his hand never says "your turn"."""
    away = seat < len(ctx.away) and ctx.away[seat]
    return to_act == seat and not away


def waiting_for(ctx: TableContext, to_act: int | None, seat: int, tr: Translator) -> str | None:
    """``ждём: Аня``: whom the table waits for, as a waiting hand shown in the group says it
    (the hand stands in place of the table there, PRODUCT.md §5.3, §19); None when nobody is to
    act, or it is the seat's own turn."""
    if to_act is None or to_act == seat:
        return None
    waiting = tr("waiting for: {name}", name=esc(ctx.names[to_act]))
    timer = turn_timer(ctx, tr)
    return waiting if timer is None else f"{waiting} · {timer}"


def hand_button(ctx: TableContext, seat: int, codec: PressCodec) -> MakeButton:
    """``button(text, act, arg=None)``: a button of the seat's hand message, drawn at the
    table's current move (PRODUCT.md §7.1).

    ``playable=False`` (a card the seat may not play now, on his turn only): dotted,
    ``·7♣·``, and sent as a disabled button (Bot API 10.3), which does nothing when pressed:
    a button has exactly one kind, so it carries no press. The playable line still says why;
    a press of the card from an older message gets the refusal of §7. ``style``: its colour."""

    def button(
        text: str,
        act: str,
        arg: str | None = None,
        *,
        style: ButtonStyle | None = None,
        playable: bool = True,
    ) -> Button:
        if not playable:  # no press to pack
            return Button(text=f"·{text}·", style=style, disabled=True)
        press = Press(Kind.HAND, ctx.table_id, seat, ctx.moves, act, arg)
        return Button(text=text, callback_data=codec.pack(press), style=style)

    return button
