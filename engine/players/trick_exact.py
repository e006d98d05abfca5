"""The trick family's play valued with every hand known (the review's exact values).

Once a deal is over nothing is hidden: the record has every hand. The remaining play of a
five-card deal is small, so :func:`exact_values` solves it exactly from the position a seat had
to play in: the searches' paranoid game (:mod:`.trick_search`: the seat maximizes its
:func:`~.trick_search.utility`, the other playing seats minimize it) by alpha-beta with no node
budget, every position between tricks remembered with its bound (a transposition table), so
that the many orders of the same cards are searched once. Values are in the unit of
:func:`.advice.advise` (the points the seat writes off its count this deal, reaching zero worth
the other counts; Шутиха's ``hard`` table valuing the pulka it leaves), so that the review sets
them beside the search's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Final

from engine.cards import Card, Suit
from engine.core import Seat
from engine.trick.actions import PlayCard
from engine.trick.rules import HAND_SIZE, TrickPhase
from engine.trick.view import TrickView

from .trick_budget import HARD, HARD_BY_GAME
from .trick_sample import CODE
from .trick_search import KnownDeal, new_deal, playout_card, table_for, utility

INFINITY: Final = 1e18


@dataclass(frozen=True, slots=True)
class ExactPlay:
    """A card played valued with every hand known: its value, the best value, and the best
    card (the card played where it is as good as any, else the first best in legal order)."""

    taken: float
    best: float
    best_action: PlayCard


def exact_play(view: TrickView, hands: Sequence[Sequence[Card]], taken: PlayCard) -> ExactPlay:
    """The card ``taken`` by the seat of ``view`` (its own view, in the play phase, the seat to
    play) and the best card, valued with every hand known (``hands``: every seat's hand now).
    Raises ``ValueError`` when the view is not a seat's to play."""
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
    shift = 0.0 if table.future else float(view.counts[me])
    moves = [a for a in view.legal if isinstance(a, PlayCard)]
    search = _Exact(me)
    # the card played first, with the full window; the others need only beat the best so far
    value = search.after(deal, me, code[taken.card], -INFINITY, INFINITY)
    best, best_action = value, taken
    for move in moves:
        if move != taken:
            v = search.after(deal, me, code[move.card], best, INFINITY)
            if v > best:
                best, best_action = v, move
    return ExactPlay(value + shift, best + shift, best_action)


class _Bound(IntEnum):
    EXACT = 0
    LOWER = 1  # the value is at least the one kept
    UPPER = 2  # at most


@dataclass(slots=True)
class _Exact:
    """Fail-soft alpha-beta of the paranoid game for ``me``, its table keyed by the position
    between tricks (the hands left, who leads, the tricks and trick values won so far)."""

    me: Seat
    table: dict[tuple[object, ...], tuple[float, _Bound]] = field(default_factory=dict)

    def after(self, deal: KnownDeal, seat: Seat, card: int, alpha: float, beta: float) -> float:
        """The value of ``seat`` playing ``card`` in ``deal`` (left as it was)."""
        was = deal.led, deal.wkey, deal.wseat
        completed = deal.play(seat, card)
        v = self.value(deal, alpha, beta)
        deal.retract(seat, card, completed, *was)
        return v

    def value(self, deal: KnownDeal, alpha: float, beta: float) -> float:
        if deal.done == HAND_SIZE:
            return utility(deal, self.me)
        key: tuple[object, ...] | None = None
        if not deal.trick:
            key = (
                deal.leader,
                tuple(tuple(sorted(h)) for h in deal.hands),
                tuple(deal.won),
                tuple(deal.points),
            )
            kept = self.table.get(key)
            if kept is not None:
                v, bound = kept
                if (
                    bound == _Bound.EXACT
                    or (bound == _Bound.LOWER and v >= beta)
                    or (bound == _Bound.UPPER and v <= alpha)
                ):
                    return v
        start_alpha, start_beta = alpha, beta
        seat = deal.turn
        cards = deal.legal(seat)
        if len(cards) > 1:  # the playout's card first: good lines early prune the rest
            first = playout_card(deal, seat, cards)
            cards.remove(first)
            cards.insert(0, first)
        maximizing = seat == self.me
        best = -INFINITY if maximizing else INFINITY
        for card in cards:
            v = self.after(deal, seat, card, alpha, beta)
            if maximizing:
                if v > best:
                    best = v
                    alpha = max(alpha, v)
            elif v < best:
                best = v
                beta = min(beta, v)
            if alpha >= beta:
                break
        if key is not None:
            if best <= start_alpha:
                self.table[key] = (best, _Bound.UPPER)
            elif best >= start_beta:
                self.table[key] = (best, _Bound.LOWER)
            else:
                self.table[key] = (best, _Bound.EXACT)
        return best


__all__ = ["ExactPlay", "exact_play"]
