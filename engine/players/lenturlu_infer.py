"""Лентюрлю's worlds as the passes and the runs make them likely (RULES.md §3.3;
:mod:`engine.lenturlu.knowledge`, shown in every ``LenturluView``).

A world from :func:`~engine.players.lenturlu_sim.deal` (the unseen cards shuffled into the other
hands and the stock) is kept with probability :data:`CERTAIN` to the power of the certain facts
it breaks — a seat known to hold a value holds none, a seat known to lack one holds it — and,
for ``hard``, :data:`HABIT` to the power of the habits it breaks (a seat that passed after
buying most likely lacks the value it needed) and :data:`STOPPED` to the power of the run-ends
it breaks (a seat most likely lacks the value after its run, and before its lead). After
:data:`TRIES` draws the likeliest is kept (rejection sampling: the kept worlds follow the
posterior). Counts only, never a clock.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from engine.lenturlu.view import LenturluView

from . import lenturlu_sim as sim
from .rejection import keep_likely

CERTAIN: Final = 0.02
"""A world's chance per broken certain fact: next to none, though never zero, so that a
sample is always found."""

HABIT: Final = 0.3
"""A world's chance per broken habit (``hard`` only)."""

STOPPED: Final = 0.1
"""A world's chance per value held just outside a seat's run (``hard`` only): about the odds
measured among ``normal`` seats (:mod:`engine.lenturlu.knowledge`: 9% held after a follow, 18%
after a lead, 2% before a lead, against 56% for any other seat; ``python
bench/lenturlu_stops.py --players 6 --deals 150``, deal seeds 1000-1149, 2026-12-08, the
project's 2-core machine)."""

TRIES: Final = 12
"""Worlds drawn for one sample at most before the likeliest of them is kept."""


@dataclass(frozen=True, slots=True)
class Holdings:
    """Per other seat: the value bitmasks it holds, lacks, and most likely lacks (after a
    pass, ``unlikely``; just outside its runs, ``stopped``)."""

    seats: tuple[int, ...]
    holds: tuple[int, ...]
    lacks: tuple[int, ...]
    unlikely: tuple[int, ...]
    stopped: tuple[int, ...]

    def empty(self) -> bool:
        return not any((*self.holds, *self.lacks, *self.unlikely, *self.stopped))


def facts(view: LenturluView, *, habits: bool) -> Holdings:
    """What ``view`` tells of the other hands (the habits only if ``habits``)."""
    n = view.players
    seats = tuple(s for s in range(n) if s != view.seat)
    zero = (0,) * n

    def of(masks: tuple[int, ...]) -> tuple[int, ...]:
        masks = masks or zero
        return tuple(masks[s] for s in seats)

    none = (0,) * len(seats)
    unlikely = of(view.unlikely) if habits else none
    stopped = of(view.stopped) if habits else none
    return Holdings(seats, of(view.holds), of(view.lacks), unlikely, stopped)


def broken(g: sim.LenturluSim, known: Holdings) -> tuple[int, int, int]:
    """(certain facts, habits after passes, run-ends) the world ``g`` breaks."""
    certain = habit = stop = 0
    for i, seat in enumerate(known.seats):
        held = g.msk[seat]
        certain += (known.holds[i] & ~held).bit_count() + (known.lacks[i] & held).bit_count()
        habit += (known.unlikely[i] & held).bit_count()
        stop += (known.stopped[i] & held).bit_count()
    return certain, habit, stop


def likely_deal(
    base: sim.LenturluSim, unseen: Sequence[int], known: Holdings, rng: random.Random
) -> sim.LenturluSim:
    """A world kept as likely as the facts make it."""
    if known.empty():
        return sim.deal(base, unseen, rng)

    def odds(g: sim.LenturluSim) -> float:
        certain, habit, stop = broken(g, known)
        return float(CERTAIN**certain * HABIT**habit * STOPPED**stop)

    return keep_likely(lambda: sim.deal(base, unseen, rng), odds, rng, TRIES)


__all__ = ["CERTAIN", "HABIT", "STOPPED", "TRIES", "Holdings", "broken", "facts", "likely_deal"]
