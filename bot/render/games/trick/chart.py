"""The pulka's chart: each seat's count after every deal (RECORD.md §R6.3), from
the target down towards zero; the remises, the overshoots (RULES.md §1.5.7 b: back to the
target) and an instant win (§1.6.4) marked where they happened."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import Translator
from bot.render.chart import Mark, Marker, Plot
from bot.render.games.figures import by_seat, option, per_deal
from engine.core import EndReason, Line
from engine.events import of_type
from engine.trick.events import BOOK, TrickDealEnd, TrickEnd


def plot(lines: Sequence[Line], tr: Translator) -> Plot | None:
    """The counts of a pulka's record deal by deal (None: not one deal ended)."""
    typed = BOOK.read(lines)
    ends = of_type(typed, TrickDealEnd)
    if not ends:
        return None
    markers = []
    for no, end in enumerate(ends, start=1):
        for s in by_seat(end.seats):
            if s.overshoot:
                markers.append(Marker(no, s.seat, Mark.OVERSHOOT))
            elif s.after > s.before:
                markers.append(Marker(no, s.seat, Mark.REMISE))
    settled = of_type(typed, TrickEnd)
    if settled and settled[-1].reason is EndReason.INSTANT:
        markers.append(Marker(len(ends), settled[-1].winner, Mark.INSTANT))
    target = option(typed, "target")
    return Plot(
        start=tuple(s.before for s in by_seat(ends[0].seats)),
        deals=per_deal(ends, lambda end: [s.after for s in by_seat(end.seats)]),
        markers=tuple(markers),
        target=target,
        target_words=tr("count at the start: {n}", n=target) if target is not None else "",
        match=tr("pulka"),
    )
