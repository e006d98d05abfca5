"""The trick family's play valued with every hand known (the review's exact values).

Once a deal is over nothing is hidden: the record has every hand. The remaining play of a
five-card deal is small, so :func:`exact_values` solves it exactly — the same paranoid
alpha-beta as the searches' (:func:`.trick_search.solve`) with no node budget — from the
position a seat had to play in. Values are in the unit of :func:`.advice.advise` (the points the
seat writes off its count this deal, reaching zero worth the other counts; Шутиха's ``hard``
table valuing the pulka it leaves), so that the review sets them beside the search's.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import Card, Suit
from engine.trick.actions import PlayCard
from engine.trick.rules import TrickPhase
from engine.trick.view import TrickView

from .trick_budget import HARD, HARD_BY_GAME
from .trick_sample import CODE
from .trick_search import new_deal, solve, table_for

UNBOUNDED = 10**12
"""A node budget no five-card deal reaches: the search is exact."""


def exact_values(view: TrickView, hands: Sequence[Sequence[Card]]) -> dict[PlayCard, float]:
    """Each card the seat of ``view`` may play now, valued with every hand known (``hands``:
    every seat's hand now, as the finished deal's record has them). ``view`` is the seat's
    own, in the play phase (raises ``ValueError`` otherwise)."""
    me = view.seat
    if me is None or view.phase != TrickPhase.PLAY or view.to_act != me:
        raise ValueError("exact values are for a seat to play a card")
    budget = HARD_BY_GAME.get(view.game, HARD)
    table = table_for(view.game, view.trump or Suit.SPADES, view.must_trump, budget.guard)
    code = CODE[view.game]
    n, dealer = view.players, view.dealer or 0
    playing = [s for s in ((dealer + 1 + i) % n for i in range(n)) if view.declared[s] == "play"]
    played = [(s, code[c]) for t in view.tricks for s, c in t]
    played += [(s, code[c]) for s, c in view.trick]
    now = [[code[c] for c in hands[s]] if s in playing else [] for s in range(n)]
    deal = new_deal(table, n, playing, now, view.counts, view.target, None, played)
    priv = table.priv
    # §1.5.1: who held the privileged card at the first lead, played already or still in hand
    held = next((s for s, c in played if c == priv), None)
    deal.held = held if held is not None else next((s for s in playing if priv in now[s]), None)
    moves = [a for a in view.legal if isinstance(a, PlayCard)]
    values = solve(deal, me, [code[a.card] for a in moves], UNBOUNDED)
    shift = 0.0 if table.future else float(view.counts[me])
    return {a: v + shift for a, v in zip(moves, values, strict=True)}


__all__ = ["UNBOUNDED", "exact_values"]
