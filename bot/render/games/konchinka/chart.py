"""The game's chart: each seat's total after every deal (RECORD.md §R9.4), rising
from zero towards the target (RULES.md §4.4)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import Translator
from bot.render.chart import Plot
from bot.render.games.figures import from_zero, option
from engine.core import Line


def plot(lines: Sequence[Line], tr: Translator) -> Plot | None:
    """The totals of a game's record deal by deal (None: not one deal ended)."""
    start, deals = from_zero(lines, "total")
    if not deals:
        return None
    target = option(lines, "target")
    words = tr("target {n}", n=target) if target is not None else ""
    return Plot(start, deals, target=target, target_words=words, match=tr("game"))
