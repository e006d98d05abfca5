"""The deals one action ended, each with its own lines: a deal that ends, then the next one
ending at once (an instant win at the deal, RULES.md §1.3.9) are two results, in order."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from engine.events import Deal, DealEnd, RecordLine, first_of

D = TypeVar("D", bound=DealEnd)


@dataclass(frozen=True, slots=True)
class EndedDeal(Generic[D]):
    """One ``deal_end`` line, the lines of its deal before it (from its ``deal`` line, or from
    the first line when the deal began before this action), and the ``deal`` line that
    followed it in the same action, if any (the next deal's dealer)."""

    end: D
    deal: Sequence[RecordLine]
    next_deal: Deal | None
    last: bool  # the last deal that ended among the events (the view's ``ended`` figures)


def ended_deals(events: Sequence[RecordLine], kind: type[D]) -> list[EndedDeal[D]]:
    """Every deal that ended among ``events`` (typed by the family's book), in order; ``kind``:
    the family's ``deal_end``."""
    ends = [i for i, ln in enumerate(events) if isinstance(ln, kind)]
    out: list[EndedDeal[D]] = []
    start = 0
    for n, i in enumerate(ends):
        starts = [j for j in range(start, i) if isinstance(events[j], Deal)]
        begin = starts[-1] + 1 if starts else start
        stop = ends[n + 1] if n + 1 < len(ends) else len(events)
        end = events[i]
        assert isinstance(end, kind)
        nxt = first_of(events[i + 1 : stop], Deal)
        out.append(EndedDeal(end, events[begin:i], nxt, n == len(ends) - 1))
        start = i + 1
    return out


def last_ended(events: Sequence[RecordLine], kind: type[D]) -> EndedDeal[D] | None:
    """The last deal that ended among ``events`` (None: none did)."""
    deals = ended_deals(events, kind)
    return deals[-1] if deals else None
