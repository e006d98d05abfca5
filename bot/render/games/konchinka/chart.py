"""The game's chart: each seat's total after every deal (RECORD.md §R9.4), rising
from zero towards the target (RULES.md §4.4)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import Translator
from bot.render.chart import Plot
from bot.render.games.figures import by_seat, from_zero, option
from engine.core import Line
from engine.events import of_type
from engine.konchinka.events import BOOK, KonchinkaDealEnd


def plot(lines: Sequence[Line], tr: Translator) -> Plot | None:
    """The totals of a game's record deal by deal (None: not one deal ended)."""
    typed = BOOK.read(lines)
    ends = of_type(typed, KonchinkaDealEnd)
    start, deals = from_zero(ends, lambda end: [s.total for s in by_seat(end.seats)])
    if not deals:
        return None
    target = option(typed, "target")
    words = tr("target {n}", n=target) if target is not None else ""
    return Plot(start, deals, target=target, target_words=words, match=tr("game"))
