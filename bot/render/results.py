"""The tail every family's final result shares (a family's own result screens are its GameUI's
``match_result``)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.callbacks import EndAct, Kind, Press, PressCodec
from bot.game_names import game_name
from bot.i18n import Translator
from bot.markup import esc
from bot.numbers import rating, signed
from bot.render.table_context import TableContext
from bot.rendered import Button, ButtonStyle, Rendered, keyboard
from bot.runtime.scoreboard import Rated, Standings


def signed_list(names: Sequence[str], values: Sequence[int]) -> str:
    """``Аня +5 · Борис −5``: one signed figure per seat, in seat order (settlements)."""
    return " · ".join(f"{esc(n)} {signed(v)}" for n, v in zip(names, values, strict=False))


def match_tail(
    ctx: TableContext,
    lines: list[str],
    standings: Standings,
    generation: int,
    again: str,
    tr: Translator,
    codec: PressCodec,
    *,
    chart: bool = False,
) -> Rendered:
    """The end every game's final result shares: each seat's rating and its change, the
    chat's all-time line for the game, and the buttons to play another (``again``, the family's
    label) or finish (PRODUCT.md §4.7); ``chart``: and 📈, the game's chart (a finished
    game of a family that has one). A practice or teaching table's says it was unrated."""
    if ctx.practice:
        lines.append(tr("Practice game: unrated."))
    if ctx.teaching:
        lines.append(tr("Teaching game: unrated."))
    if standings.rated:

        def rated(r: Rated) -> str:
            if r.computer:  # its play lifts nobody's rating (bot.rating.Book._stood_in)
                said = tr("the computer played the seat")
                return f"{esc(r.name)} {rating(r.rating)} ({signed(r.change)}; {said})"
            return f"{esc(r.name)} {rating(r.rating)} ({signed(r.change)})"

        lines.append(tr("Rating: {list}", list=" · ".join(map(rated, standings.rated))))
    if standings.ledger:
        lines.append(
            tr(
                "All-time in this chat ({game}): {list}",
                game=game_name(ctx.game, tr.locale),
                list=" · ".join(f"{esc(r.name)} {signed(r.balance)}" for r in standings.ledger),
            )
        )

    def button(text: str, act: EndAct, style: ButtonStyle | None = None) -> Button:
        press = Press(Kind.END, ctx.table_id, None, generation, act)
        return Button(text=text, callback_data=codec.pack(press), style=style)

    another = button(again, EndAct.ANOTHER, style="success")  # the main action: play on
    charted = [button(tr("📈 Chart"), EndAct.CHART)] if chart else []
    markup = keyboard([[another, button(tr("🏁 Finish"), EndAct.FINISH)], charted])
    return Rendered("\n".join(lines), markup)
