"""What every decision of the trick family's searches reads from a view (:mod:`.trick_normal`,
:mod:`.trick_declare`): the sampler of the unseen cards, the simulator's table and deal, the
seats in turn, and what reaching zero is worth."""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.cards import Card, Suit
from engine.core import Seat
from engine.trick.view import TrickView

from .trick_budget import NORMAL, Budget
from .trick_infer import likely, sample_likely, weigher
from .trick_queen import draw_placed, queen_places
from .trick_sample import CODE, TrickKnowledge
from .trick_search import KnownDeal, TrickTable, new_deal, table_for
from .trick_tables import ZERO_BONUS_SHARE


def sampler(
    view: TrickView, know: TrickKnowledge, budget: Budget
) -> Callable[[random.Random], tuple[list[list[int]], list[int]]]:
    weigh = weigher(view, know, budget.kept) if budget.infer else None
    places = queen_places(view, know) if budget.queen else None
    if places is None:
        return lambda rng: sample_likely(know, weigh, rng)
    qs, stock = CODE[view.game][view.privileged], view.stock_size

    def draw(rng: random.Random) -> tuple[list[list[int]], list[int]]:
        if weigh is None:
            return draw_placed(places, qs, stock, rng)
        return likely(lambda: draw_placed(places, qs, stock, rng), weigh, rng)

    return draw


def known_deal(view: TrickView, hands: list[list[Card]], playing: list[Seat]) -> KnownDeal:
    """A sampled deal of cards at its first lead (:func:`sim_deal` on the cards' codes)."""
    code = CODE[view.game]
    return sim_deal(view, [[code[c] for c in h] for h in hands], playing, table_of(view))


def table_of(view: TrickView, budget: Budget = NORMAL) -> TrickTable:
    return table_for(view.game, view.trump or Suit.SPADES, view.must_trump, budget.guard)


def sim_deal(
    view: TrickView, hands: list[list[int]], playing: list[Seat], table: TrickTable
) -> KnownDeal:
    """The deal at its first lead (§1.4.1); held: who holds the privileged card (§1.5.1)."""
    priv = table.priv
    held = next((s for s in playing if priv in hands[s]), None)
    return new_deal(table, view.players, playing, hands, view.counts, view.target, held)


def from_left(view: TrickView) -> list[Seat]:
    n, dealer = view.players, view.dealer or 0
    return [(dealer + 1 + i) % n for i in range(n)]


def zero_worth(view: TrickView) -> float:
    """What bringing the count to zero is worth to the seat in the searches' terms: the other
    counts (:func:`.trick_search.utility`). Every other deal's value is below it (minus the
    count left, or a walkover's share, :func:`walkover_value`), so a world's value reaches it
    exactly when the count reached zero."""
    assert view.seat is not None
    return ZERO_BONUS_SHARE * (sum(view.counts) - view.counts[view.seat])


def zero_counts(table: TrickTable, zero: list[int]) -> tuple[int, ...]:
    """The worlds in which each candidate brought the count to zero; none kept where the table
    values the pulka it leaves instead (:func:`.trick_search.future`)."""
    return () if table.future else tuple(zero)
