"""Where a live table's deals come from, and how a restart gets them back (STYLE.md §6).

A match at a live table draws every shuffle (the first-dealer draw, each deal) and every Копилка
take from the operating system's cryptographic source, ``secrets.SystemRandom``: there is no
seed and no generator state that a search could recover from the cards a player sees. Each
random outcome is stored with what drew it — the match's start, or the action whose consequences
drew it — as the record's own lines (RECORD.md §R3.2), and a table that is loaded again (a
restart, another worker) replays them through a ``StackedChance``; only deals not drawn yet come
from the live source.

The record's ``seed`` of such a match is a label of its own, 53 bits from ``secrets``, drawn
apart from every deck: it seeds the computer players (``f"{seed}:{seat}:{ply}"``, STYLE.md §6)
and nothing else, so no one can re-derive a deck from it. Tests and the proofs inject seeds
(``SeededDeals``): their matches are seeded ``random.Random``s as before, resumed from the
stored outcomes too, with the generator brought along to where it stood.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.storage.rows import MatchRow
from engine.chance import Chance, ResumedChance, SeededChance, StackedChance
from engine.core import Line
from engine.record import chance_of, is_chance_line

LABEL_BITS = 53  # a record seed every JSON reader keeps exact (and either backend's integers)


def crypto_chance() -> SeededChance:
    """Chance over ``secrets.SystemRandom``: the OS's cryptographic source, no state to find."""
    return SeededChance(secrets.SystemRandom())


class Deals(Protocol):
    """Where a runtime's matches draw their chance from."""

    def fresh(self) -> tuple[int, Chance]:
        """A new match: its record seed and its chance."""
        ...

    def resumed(self, seed: int, given: StackedChance) -> Chance:
        """A match loaded again: its stored outcomes first, then more from the same source."""
        ...


@dataclass(frozen=True, slots=True)
class LiveDeals:
    """The bot's deals: cryptographic; the seed is an independent label."""

    def fresh(self) -> tuple[int, Chance]:
        return secrets.randbits(LABEL_BITS), crypto_chance()

    def resumed(self, seed: int, given: StackedChance) -> Chance:
        return ResumedChance(given, crypto_chance())


@dataclass(frozen=True, slots=True)
class SeededDeals:
    """Reproducible deals for tests: ``seeds`` gives each new match's ``random.Random`` seed."""

    seeds: Callable[[], int]

    def fresh(self) -> tuple[int, Chance]:
        seed = self.seeds()
        return seed, SeededChance.from_seed(seed)

    def resumed(self, seed: int, given: StackedChance) -> Chance:
        return ResumedChance(given, SeededChance.from_seed(seed), shadow=True)


def deals_of(seeds: Callable[[], int] | None) -> Deals:
    """Seeded deals when a test gives seeds; the cryptographic source otherwise."""
    return LiveDeals() if seeds is None else SeededDeals(seeds)


def drawn(lines: Sequence[Line]) -> str | None:
    """The lines among ``lines`` that write out a random outcome, as stored (None: none)."""
    kept = [line for line in lines if is_chance_line(line)]
    return json.dumps(kept, separators=(",", ":")) if kept else None


def stored_chance(
    match: MatchRow, draws: Iterable[tuple[int, str]], end: int | None = None
) -> StackedChance | None:
    """The outcomes stored with the match: its start's, then those of its actions (``draws``
    of the table, ``Reads.draws``; the match's are those before ``end``, the next
    match's first action). None: a match stored before outcomes were; its seed's decks."""
    if match.drawn is None:
        return None
    mine = (d for seq, d in draws if match.first_seq <= seq and (end is None or seq < end))
    return chance_of([line for text in (match.drawn, *mine) for line in json.loads(text)])
