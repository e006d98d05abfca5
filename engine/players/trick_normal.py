"""The trick family's ``normal`` player: Perfect-Information Monte Carlo (determinized search).

Every decision samples the unseen cards consistently with the seat's view
(:mod:`.trick_sample`) and scores each candidate action on the same samples, in the seat's own
terms: its count after the deal (§1.5.7, an overshoot sets it back to the target) and the pulka
won on reaching zero (:func:`.trick_search.utility`). The best average wins; ties go to the
earlier candidate, so the choice depends only on the view and the player's generator.

* **Trick play** (§1.4): each sample is searched by paranoid alpha-beta
  (:func:`.trick_search.solve`), exactly when the deal is small, else up to a node budget.
* **Declaration and exchange** (§1.3): :mod:`.trick_declare` — ``pass`` against ``play`` with
  the k weakest cards exchanged, each played out on every sample.
* **Шутиха's discard** (§1.3.12): the k weakest cards, by a few orders, chosen the same way.
* **Памфил's re-trump** (§1.2.4) and the announcement (§1.3.7) are direct: announcing only
  pays; the trump named is the suit the hand is longest and strongest in.
* **Шутиха's ``hard``** (:data:`.trick_budget.HARD_BY_GAME`) deals the QS only where the rules
  leave it (:mod:`.trick_queen`), models the seats yet to declare far from zero as playing
  (:data:`.trick_budget.EAGER`), plays out with the QS and KS kept apart on leads, and values
  a deal with the pulka it leaves (:func:`.trick_search.future`), a pass played out too.

Budgets are iterations (samples and search nodes), never a clock, sized so a decision stays
well under 0.5 s on a small shared machine (docs/computers.md).
"""

from __future__ import annotations

import random

from engine.cards import SUIT_ORDER, Suit, rank_index
from engine.trick.actions import ANNOUNCE, Discard, PlayCard, Retrump, TrickAction
from engine.trick.rules import HAND_SIZE, TrickPhase
from engine.trick.variant import VARIANTS
from engine.trick.view import TrickView

from .determinized import ScoredMoves, Work
from .trick_budget import EAGER, HARD, HARD_BY_GAME, MIN_SAMPLES, NORMAL, Budget
from .trick_declare import Round, declare
from .trick_reading import from_left, sampler, sim_deal, table_of, zero_counts, zero_worth
from .trick_sample import CODE, knowledge
from .trick_search import new_deal, playout, solve, utility


def normal_policy(view: TrickView, rng: random.Random) -> TrickAction:
    """Pick one of ``view.legal`` for the seat of a trick-family view (``normal``)."""
    return search_policy(view, rng, NORMAL)


def hard_policy(view: TrickView, rng: random.Random) -> TrickAction:
    """Pick one of ``view.legal`` for the seat of a trick-family view (``hard``)."""
    return search_policy(view, rng, HARD_BY_GAME.get(view.game, HARD))


def search_policy(view: TrickView, rng: random.Random, budget: Budget) -> TrickAction:
    """The determinized search at ``budget``."""
    return search_scores(view, rng, budget).best()


def search_scores(
    view: TrickView, rng: random.Random, budget: Budget, extra: TrickAction | None = None
) -> ScoredMoves[TrickAction]:
    """The determinized search at ``budget``: every candidate with its summed value; ``extra``
    (one of ``view.legal``, the review's action taken) is searched too, last, where the
    declaration's or discard's candidates leave it out (the play searches every card)."""
    legal = view.legal
    if len(legal) == 1:
        return ScoredMoves.only(legal[0])
    if view.phase == TrickPhase.PLAY:
        return _play(view, rng, budget)
    if view.phase == TrickPhase.DECLARE:
        if ANNOUNCE in legal:  # §1.3.7: the bonus only pays; the JC still may not be passed
            return ScoredMoves.only(ANNOUNCE)
        return declare(view, rng, budget, extra)
    if view.phase == TrickPhase.DISCARD:
        return _discard(view, rng, budget, extra)
    return ScoredMoves.only(_retrump(view))


# --- trick play ----------------------------------------------------------------------------------


def _play(view: TrickView, rng: random.Random, budget: Budget) -> ScoredMoves[TrickAction]:
    assert view.seat is not None
    me = view.seat
    code = CODE[view.game]
    moves = tuple(a for a in view.legal if isinstance(a, PlayCard))
    cards = [code[a.card] for a in moves]
    know = knowledge(view)
    draw = sampler(view, know, budget)
    table = table_of(view, budget)
    priv = table.priv
    playing = [s for s in from_left(view) if view.declared[s] == "play"]
    # the deal so far, replayed on the simulator from the first lead: only the hands differ
    played = [(s, code[c]) for t in view.tricks for s, c in t] + [
        (s, code[c]) for s, c in view.trick
    ]
    hands: list[list[int]] = [[] for _ in range(view.players)]
    hands[me] = [code[c] for c in view.hand]
    base = new_deal(table, view.players, playing, hands, view.counts, view.target, None, played)
    # §1.5.1: a privileged card already played was held by its player at the first lead
    played_priv = next((s for s, c in played if c == priv), None)
    totals = [0.0] * len(cards)
    zero = [0] * len(cards)
    worth = zero_worth(view)
    work = Work()
    samples = 0
    for k in range(budget.play_samples):
        if k >= MIN_SAMPLES and work.done >= budget.play_work:
            break
        samples += 1
        others, _rest = draw(rng)
        deal = base.copy()
        for s in playing:
            if s != me:
                deal.hands[s] = others[s]
        deal.held = played_priv
        if played_priv is None:
            deal.held = next((s for s in playing if priv in deal.hands[s]), None)
        for i, value in enumerate(solve(deal, me, cards, budget.play_nodes, work)):
            totals[i] += value
            zero[i] += value >= worth
    return ScoredMoves(moves, tuple(totals), samples, zero_counts(table, zero))


# --- Шутиха's discard, Памфил's re-trump --------------------------------------------------------


def _discard(
    view: TrickView, rng: random.Random, budget: Budget, also: TrickAction | None
) -> ScoredMoves[TrickAction]:
    """§1.3.12: among the k weakest cards by a few readings, the best on sampled deals."""
    assert view.seat is not None
    me = view.seat
    trump = view.trump or Suit.SPADES
    legal = set(view.legal)
    k = len(view.hand) - HAND_SIZE
    free = [c for c in view.hand if c != view.privileged]
    strength = rank_index(VARIANTS[view.game].order)
    readings = (
        lambda c: (c.suit is trump, strength[c.rank]),
        lambda c: (strength[c.rank], c.suit is trump),
        lambda c: (c.suit is trump, -sum(1 for d in view.hand if d.suit is c.suit)),
    )
    candidates: list[Discard] = []
    for reading in readings:
        action = Discard(tuple(sorted(free, key=reading)[:k]))
        if action in legal and action not in candidates:
            candidates.append(action)
    if isinstance(also, Discard) and also not in candidates:
        candidates.append(also)
    if not candidates:
        return ScoredMoves.only(view.legal[0])
    if len(candidates) == 1:
        return ScoredMoves.only(candidates[0])
    draw = sampler(view, knowledge(view), budget)
    table = table_of(view, budget)
    drop = Round.of(view).drop
    code = CODE[view.game]
    kept = [[code[c] for c in view.hand if c not in a.cards] for a in candidates]
    playing = [s for s in from_left(view) if view.declared[s] == "play"]
    totals = [0.0] * len(candidates)
    zero = [0] * len(candidates)
    worth = zero_worth(view)
    work = Work()
    for _ in range(budget.discard_samples):
        others, _rest = draw(rng)
        for i, mine in enumerate(kept):
            hands = [h[:] for h in others]
            hands[me] = mine[:]
            work.done += 1  # the candidate; then the other receivers' discards
            for seat in playing:
                extra = len(hands[seat]) - HAND_SIZE
                if seat != me and extra > 0:
                    if budget.queen:  # the weakest, never the QS (§1.3.4.1)
                        hands[seat].sort(key=drop.__getitem__)
                    del hands[seat][:extra]
                    work.done += 1
            value = utility(playout(sim_deal(view, hands, playing, table), work), me)
            totals[i] += value
            zero[i] += value >= worth
    samples = budget.discard_samples
    return ScoredMoves(tuple(candidates), tuple(totals), samples, zero_counts(table, zero))


def _retrump(view: TrickView) -> TrickAction:
    """§1.2.4: trump the suit the hand (with the JC) is longest and strongest in; discard the
    weakest card of the others."""
    strength = rank_index(VARIANTS[view.game].order)
    free = [c for c in view.hand if c != view.privileged]

    def suit_worth(suit: Suit) -> tuple[int, int]:
        mine = [c for c in free if c.suit is suit]
        return len(mine), sum(strength[c.rank] for c in mine)

    suit = max(SUIT_ORDER, key=lambda s: (suit_worth(s), -SUIT_ORDER.index(s)))
    discard = min(free, key=lambda c: (c.suit is suit, strength[c.rank]))
    action = Retrump(suit, discard)
    return action if action in view.legal else view.legal[0]


__all__ = [
    "EAGER",
    "HARD",
    "HARD_BY_GAME",
    "NORMAL",
    "Budget",
    "hard_policy",
    "normal_policy",
    "search_policy",
    "search_scores",
    "zero_worth",
]
