"""The partia's chart: each seat's partia points after every deal (RECORD.md
§R7.4), adding up from zero."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import Translator
from bot.render.chart import Plot
from bot.render.games.figures import by_seat, from_zero
from engine.core import Line
from engine.events import of_type
from engine.kopilka.events import BOOK, KopilkaDealEnd


def plot(lines: Sequence[Line], tr: Translator) -> Plot | None:
    """The partia points of a partia's record deal by deal (None: not one deal ended)."""
    ends = of_type(BOOK.read(lines), KopilkaDealEnd)
    start, deals = from_zero(ends, lambda end: [s.partia_points for s in by_seat(end.seats)])
    return Plot(start, deals, match=tr("partia")) if deals else None
