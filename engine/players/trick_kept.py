"""How ``hard`` reads the trick family's playing seats: their hands at the first trick as
``normal`` seats really hold them (:mod:`.trick_infer`).

A seat that played, and exchanged k of its five cards, holds at its first trick (its hand now
plus what it has played this deal) a hand whose :func:`feature` — its strong cards (trumps, the
two top ranks, the privileged card; :func:`.trick_model.worth_table`) and whether it holds the
privileged card — follows a distribution measured on tables of ``normal`` seats
(``bench/trick_kept_fit.py``), not the simple player's threshold: ``normal`` plays nine hands in
ten at three seats, and keeps weak cards as often as it draws strong ones. A sampled hand is
kept with the odds of :data:`.trick_kept_odds.KEPT_ODDS` (the measured share over the unweighted
sampler's, at most 1), so the kept samples deal those seats' hands as the measured tables do.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.cards import rank_index
from engine.trick.variant import VARIANTS
from engine.trick.view import TrickView

from .trick_kept_odds import KEPT_ODDS
from .trick_model import worth_table
from .trick_sample import CODE
from .trick_tables import suit_no

EXCHANGES: Final = 6
"""Rows of a table: 0 … 5 cards exchanged."""

STRONG: Final = 6
"""A feature's strong cards: 0 … 5."""

CELLS: Final = 2 * STRONG
"""Features: the strong cards, and 6 more when the hand holds the privileged card."""


def strong_table(view: TrickView) -> tuple[int, ...]:
    """Per search code: 2 the privileged card, 1 another strong card, else 0."""
    variant = VARIANTS[view.game]
    top = rank_index(variant.order)[variant.order[1]]
    trump = suit_no(view.trump) if view.trump is not None else -1
    return worth_table(CODE[view.game][variant.privileged], trump, top)


def feature(cards: Sequence[int], strong: Sequence[int]) -> int:
    """A hand's cell: its strong cards (at most 5), plus :data:`STRONG` with the privileged
    card."""
    count = sum(1 for c in cards if strong[c])
    return min(count, STRONG - 1) + (STRONG if any(strong[c] == 2 for c in cards) else 0)


def kept_odds(game: str, players: int) -> tuple[tuple[float, ...], ...] | None:
    """The odds measured for ``game`` at ``players`` seats, or None where none were measured
    (there ``hard`` reads the seats by the simple player's threshold)."""
    return KEPT_ODDS.get((game, players))


__all__ = ["CELLS", "EXCHANGES", "STRONG", "feature", "kept_odds", "strong_table"]
