"""A finished game's chart from its record: the family's plot (its
:class:`~bot.render.games.game_ui.GameUI`'s ``chart``), titled «Пятница» · Мушка · пулька 2 and
drawn as a PNG (:mod:`bot.render.chart`). Pure, as every screen: the record and words in, bytes
out."""

from __future__ import annotations

from collections.abc import Sequence

from bot.game_names import game_name
from bot.i18n import Translator
from bot.render.chart import Mark, Series, Words, draw
from bot.render.games import game_ui
from engine.core import Line


def has_chart(game: str) -> bool:
    """Whether games of ``game`` have a chart (a family of one deal a game has none)."""
    ui = game_ui(game)
    return ui is not None and ui.chart is not None


def series(
    game: str, chat_title: str, no: int, names: Sequence[str], lines: Sequence[Line], tr: Translator
) -> Series | None:
    """What the chart of game ``no`` of a table in chat ``chat_title`` shows, from its record
    (None: the game has no chart, or not one deal ended)."""
    ui = game_ui(game)
    plot = ui.chart(lines, tr) if ui is not None and ui.chart is not None else None
    if plot is None:
        return None
    name = game_name(game, tr.locale)
    if chat_title:
        title = tr(
            "«{chat}» · {game} · {match} {no}", chat=chat_title, game=name, match=plot.match, no=no
        )
    else:
        title = tr("{game} · {match} {no}", game=name, match=plot.match, no=no)
    marks = {
        Mark.REMISE: tr("remise"),
        Mark.OVERSHOOT: tr("overshoot"),
        Mark.INSTANT: tr("instant win"),
    }
    return Series(title, tuple(names), plot, Words(tr("Deal"), marks))


def chart(
    game: str, chat_title: str, no: int, names: Sequence[str], lines: Sequence[Line], tr: Translator
) -> bytes | None:
    """The chart of a finished game as PNG bytes (None: it has none)."""
    shown = series(game, chat_title, no, names, lines, tr)
    return draw(shown) if shown is not None else None
