"""The pulka's chart: each seat's count after every deal (RECORD.md §R6.3), from
the target down towards zero; the remises, the overshoots (RULES.md §1.5.7 b: back to the
target) and an instant win (§1.6.4) marked where they happened."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import Translator
from bot.render.chart import Mark, Marker, Plot
from bot.render.games.figures import deal_ends, option, per_deal, seats_of
from engine.core import EndReason, Line
from engine.lines import LineKind, last
from engine.trick.events import BOOK, TrickEnd


def plot(lines: Sequence[Line], tr: Translator) -> Plot | None:
    """The counts of a pulka's record deal by deal (None: not one deal ended)."""
    ends = deal_ends(lines)
    if not ends:
        return None
    markers = []
    for no, end in enumerate(ends, start=1):
        for s in seats_of(end):
            if s.get("overshoot"):
                markers.append(Marker(no, int(s["seat"]), Mark.OVERSHOOT))
            elif int(s["after"]) > int(s["before"]):
                markers.append(Marker(no, int(s["seat"]), Mark.REMISE))
    final = last(lines, LineKind.END)
    settled = BOOK.end(final) if final is not None else None
    if isinstance(settled, TrickEnd) and settled.reason is EndReason.INSTANT:
        markers.append(Marker(len(ends), settled.winner, Mark.INSTANT))
    target = option(lines, "target")
    return Plot(
        start=tuple(int(s["before"]) for s in seats_of(ends[0])),
        deals=per_deal(ends, "after"),
        markers=tuple(markers),
        target=target,
        target_words=tr("count at the start: {n}", n=target) if target is not None else "",
        match=tr("pulka"),
    )
