"""The question to close a table that is playing: who must agree and who has, what
a close then means for the game, and its buttons — ✅ agree, ↩️ no, ✖️ an admin's close now."""

from __future__ import annotations

from collections.abc import Sequence

from bot.callbacks import Kind, LobbyAct, Press, PressCodec
from bot.i18n import Translator
from bot.markup import Html, esc
from bot.rendered import Button, ButtonStyle, Rendered, keyboard
from bot.runtime.outcome import QuestionEnd
from bot.storage.rows import SeatRow, TableRow


def close_question(
    table: TableRow,
    seats: Sequence[SeatRow],
    asked: Sequence[int],
    rated: bool,
    tr: Translator,
    codec: PressCodec,
    *,
    end: QuestionEnd | None = None,
    by: str = "",
) -> Rendered:
    """The question as it stands (``end``: it went without closing the table, and why)."""
    marked = [
        esc(seats[i].name) + (" ✅" if seats[i].agreed else "") for i in asked if i < len(seats)
    ]
    lines = [
        tr.html(
            "Close the table? The game is in play, so everyone playing must agree: {names}.",
            names=Html(", ".join(marked) or "—"),
        ),
        tr.html(
            "If it closes, the game is rated as it stands: places by the money of the deals played."
        )
        if rated
        else tr.html("If it closes now, nothing is paid and nothing is rated."),
    ]
    if end is QuestionEnd.NO:
        lines.append(tr.html("{name} said no — the game goes on.", name=by))
    elif end is QuestionEnd.LAPSED:
        lines.append(tr.html("No answer in time — the game goes on."))
    if end is not None:
        return Rendered("\n".join(lines))

    def button(text: str, act: LobbyAct, style: ButtonStyle | None = None) -> Button:
        press = Press(Kind.LOBBY, table.id, None, table.generation, act)
        return Button(text=text, callback_data=codec.pack(press), style=style)

    rows = [
        [button(tr("✅ I agree"), LobbyAct.AGREE, "success"), button(tr("↩️ No"), LobbyAct.WAIT)],
        [button(tr("✖️ Close now (admins)"), LobbyAct.CANCEL, "danger")],
    ]
    return Rendered("\n".join(lines), keyboard(rows))
