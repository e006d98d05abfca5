"""The buttons every hand message has whatever the game (PRODUCT.md §5.3, §13): ``⋯`` opens a
small menu in place (🤖 Let the computer play, 💬 To private where the hand is in the group,
↻ Refresh, ↩️ back); while the computer holds
the seat the message offers only 🙋 I'm back. Pure: a family's rendered hand in, dressed out."""

from __future__ import annotations

from bot.callbacks import REFRESH, Kind, Press, PressCodec, SeatAct
from bot.i18n import Translator
from bot.render.table_context import TableContext
from bot.rendered import Button, ButtonStyle, Rendered, keyboard

MOST_IN_ROW = 8


def dress(
    rendered: Rendered,
    ctx: TableContext,
    seat: int,
    tr: Translator,
    codec: PressCodec,
    *,
    away: bool,
    menu: bool,
    in_group: bool = False,
    waiting: bool = False,
    hint: bool = False,
) -> Rendered:
    def button(text: str, act: str, style: ButtonStyle | None = None) -> Button:
        press = Press(Kind.HAND, ctx.table_id, seat, ctx.moves, act)
        return Button(text=text, callback_data=codec.pack(press), style=style)

    if away:
        text = f"{rendered.text}\n\n{tr('🤖 The computer is playing for you.')}"
        back = button(tr("🙋 I'm back"), SeatAct.BACK, style="success")
        return Rendered(text, keyboard([[back]]))
    if menu:
        rows = [
            [button(tr("🤖 Let the computer play"), SeatAct.HAND_OVER)],
            [button(tr("↻ Refresh"), REFRESH), button(tr("↩️ Back"), SeatAct.MENU_BACK)],
        ]
        if in_group:  # the hand is an ephemeral message: it may go to the private chat
            rows.insert(1, [button(tr("💬 To private"), SeatAct.TO_PRIVATE)])
        return Rendered(rendered.text, keyboard(rows))
    more = (
        [button("💡", SeatAct.HINT), button("⋯", SeatAct.MENU)]
        if hint
        else [button("⋯", SeatAct.MENU)]
    )
    rows = [list(r) for r in rendered.markup.inline_keyboard] if rendered.markup else []
    if rows and len(rows[-1]) + len(more) <= MOST_IN_ROW:
        rows[-1].extend(more)
    else:
        rows.append(more)
    if in_group and waiting:  # it may stand in place of the table for him: the way back
        rows.append([button(tr("↩️ To the table"), SeatAct.TO_TABLE)])
    return Rendered(rendered.text, keyboard(rows))
