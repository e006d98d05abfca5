"""The deals one action ended, each with its own lines: a deal that ends, then the next one
ending at once (an instant win at the deal, RULES.md §1.3.9) are two results, in order."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.core import Line
from engine.lines import LineKind, first, is_kind


@dataclass(frozen=True, slots=True)
class EndedDeal:
    """One ``deal_end`` line, the events of its deal before it (from its ``deal`` line, or from
    the first event when the deal began before this action), and the ``deal`` line that
    followed it in the same action, if any (the next deal's dealer)."""

    end: Line
    deal: Sequence[Line]
    next_deal: Line | None
    last: bool  # the last deal that ended among the events (the view's ``ended`` figures)


def ended_deals(events: Sequence[Line]) -> list[EndedDeal]:
    """Every deal that ended among ``events``, in order."""
    ends = [i for i, ln in enumerate(events) if is_kind(ln, LineKind.DEAL_END)]
    out: list[EndedDeal] = []
    start = 0
    for n, i in enumerate(ends):
        starts = [j for j in range(start, i) if is_kind(events[j], LineKind.DEAL)]
        begin = starts[-1] + 1 if starts else start
        stop = ends[n + 1] if n + 1 < len(ends) else len(events)
        nxt = first(events[i + 1 : stop], LineKind.DEAL)
        out.append(EndedDeal(events[i], events[begin:i], nxt, n == len(ends) - 1))
        start = i + 1
    return out


def last_ended(events: Sequence[Line]) -> tuple[Line | None, Sequence[Line]]:
    """The last ``deal_end`` among ``events`` and the events of its deal before it."""
    deals = ended_deals(events)
    return (deals[-1].end, deals[-1].deal) if deals else (None, ())
