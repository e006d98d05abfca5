"""The trick family's ``normal`` player: Perfect-Information Monte Carlo (determinized search).

Every decision samples the unseen cards consistently with the seat's view
(:mod:`.trick_sample`) and scores each candidate action on the same samples, in the seat's own
terms: its count after the deal (§1.5.7, an overshoot sets it back to the target) and the pulka
won on reaching zero (:func:`.trick_search.utility`). The best average wins; ties go to the
earlier candidate, so the choice depends only on the view and the player's generator.

* **Trick play** (§1.4): each sample is searched by paranoid alpha-beta
  (:func:`.trick_search.solve`), exactly when the deal is small, else up to a node budget.
* **Declaration and exchange** (§1.3): ``pass`` against ``play`` with the k weakest cards
  exchanged (k = 0 … 5; the privileged card and trumps kept longest, seed 000's advice), and
  the dealer's variants taking the turn-up; each is played out on every sample: the seats yet
  to declare follow the simple player's rule, then the five tricks are played by the fast
  playout policy.
* **Шутиха's discard** (§1.3.12): the k weakest cards, by a few orders, chosen the same way.
* **Памфил's re-trump** (§1.2.4) and the announcement (§1.3.7) are direct: announcing only
  pays; the trump named is the suit the hand is longest and strongest in.

Budgets are iterations (samples and search nodes), never a clock, sized so a decision stays
well under 0.5 s on a small shared machine (README.md, "Computer players").
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.cards import SUIT_ORDER, Card, Suit, rank_index
from engine.core import Seat
from engine.trick import legal
from engine.trick.actions import (
    ANNOUNCE,
    PASS,
    Discard,
    Exchange,
    Pass,
    PlayCard,
    Retrump,
    TrickAction,
)
from engine.trick.rules import HAND_SIZE, Trick
from engine.trick.variant import VARIANTS
from engine.trick.view import TrickView

from .determinized import Work
from .trick_sample import knowledge, sample
from .trick_search import Deal, playout, solve, utility

PLAY_SAMPLES = 10
"""Deals sampled for a card to play, at most."""

PLAY_WORK = 5_000
"""Cards played (searched or played out) by one decision, after which no further deal is
sampled (but never fewer than :data:`MIN_SAMPLES`): the budget that bounds a decision's time
at the big tables."""

MIN_SAMPLES = 2
"""Deals sampled whatever the work."""

PLAY_NODES = 80
"""Search nodes per sample and candidate card before the playouts take over."""

DECLARE_SAMPLES = 32
"""Deals sampled for a declaration (each candidate is played out on every one), at most."""

DECLARE_WORK = 5_000
"""Cards played out by one declaration, after which no further deal is sampled."""

DISCARD_SAMPLES = 24
"""Deals sampled for Шутиха's discard."""

OTHERS_PLAY = 2
"""The simple player's threshold (:data:`engine.players.trick.PLAY_STRENGTH`) that the seats
yet to declare are assumed to follow."""


def normal_policy(view: TrickView, rng: random.Random) -> TrickAction:
    """Pick one of ``view.legal`` for the seat of a trick-family view."""
    legal = view.legal
    if len(legal) == 1:
        return legal[0]
    if view.phase == "play":
        return _play(view, rng)
    if view.phase == "declare":
        if ANNOUNCE in legal:
            return ANNOUNCE  # §1.3.7: the bonus only pays; the JC still may not be passed
        return _declare(view, rng)
    if view.phase == "discard":
        return _discard(view, rng)
    return _retrump(view)


# --- the shared reading of a hand --------------------------------------------------------------


def _key(view: TrickView, trump: Suit) -> dict[Card, tuple[int, int]]:
    """How much each card of the hand is worth keeping: the privileged card, then trumps, then
    the rest, each by rank (seed 000: keep trumps, exchange low non-trumps)."""
    strength = rank_index(VARIANTS[view.game].order)
    return {
        c: (2 if c == view.privileged else 1 if c.suit is trump else 0, strength[c.rank])
        for c in view.hand
    }


def _weakest(cards: Sequence[Card], key: dict[Card, tuple[int, int]], k: int) -> list[Card]:
    return sorted(cards, key=key.__getitem__)[:k]


def _strong(hand: Sequence[Card], view: TrickView, trump: Suit) -> int:
    """The simple player's worth of a hand (:func:`engine.players.trick._strong_cards`)."""
    order = VARIANTS[view.game].order
    strength = rank_index(order)
    top = strength[order[1]]
    worth = 0
    for c in hand:
        if c == view.privileged:
            worth += 2
        elif c.suit is trump or strength[c.rank] >= top:
            worth += 1
    return worth


def _deal(view: TrickView, hands: list[list[Card]], playing: list[Seat]) -> Deal:
    variant = VARIANTS[view.game]
    trump = view.trump or Suit.SPADES
    priv = variant.privileged
    held = next((s for s in playing if priv in hands[s]), None)
    return Deal(
        variant,
        trump,
        view.must_trump,
        rank_index(variant.order),
        view.players,
        playing,
        hands,
        view.counts,
        view.target,
        held,
        leader=playing[0],
    )


def _from_left(view: TrickView) -> list[Seat]:
    n, dealer = view.players, view.dealer or 0
    return [(dealer + 1 + i) % n for i in range(n)]


# --- trick play ----------------------------------------------------------------------------------


def _play(view: TrickView, rng: random.Random) -> TrickAction:
    assert view.seat is not None
    me = view.seat
    cards = [a.card for a in view.legal if isinstance(a, PlayCard)]
    know = knowledge(view)
    variant = VARIANTS[view.game]
    trump = view.trump or Suit.SPADES
    playing = [s for s in _from_left(view) if view.declared[s] == "play"]
    done = [_trick(no, plays, trump, view) for no, plays in enumerate(view.tricks, 1)]
    priv = variant.privileged
    # §1.5.1: a privileged card already played was held by its player at the first lead
    played = [p for t in view.tricks for p in t] + list(view.trick)
    played_priv = next((s for s, c in played if c == priv), None)
    totals = [0.0] * len(cards)
    work = Work()
    for k in range(PLAY_SAMPLES):
        if k >= MIN_SAMPLES and work.done >= PLAY_WORK:
            break
        others, _rest = sample(know, view, rng)
        hands = [list(h) for h in others]
        hands[me] = list(view.hand)
        deal = _deal(view, hands, playing)
        deal.tricks = list(done)
        deal.trick = list(view.trick)
        deal.leader = view.leader if view.leader is not None else playing[0]
        if played_priv is not None:
            deal.held = played_priv
        for i, value in enumerate(solve(deal, me, cards, PLAY_NODES, work)):
            totals[i] += value
    best = max(range(len(cards)), key=lambda i: (totals[i], -i))
    return view.legal[best]


def _trick(no: int, plays: tuple[tuple[Seat, Card], ...], trump: Suit, view: TrickView) -> Trick:
    """A completed trick of the view, its winner by the engine's rule (§1.4.5)."""
    variant = VARIANTS[view.game]
    winner = legal.trick_winner(plays, trump, variant, rank_index(variant.order))
    return Trick(no, plays[0][0], plays, winner)


# --- declaration and exchange -------------------------------------------------------------------


def _candidates(view: TrickView, trump: Suit) -> list[TrickAction]:
    """Pass, and play with the k weakest cards exchanged (and the dealer's ``up`` twins)."""
    legal = set(view.legal)
    key = _key(view, trump)
    free = [c for c in view.hand if c != view.privileged]
    out: list[TrickAction] = []
    if PASS in legal:
        out.append(PASS)
    for k in range(HAND_SIZE + 1):
        cards = tuple(_weakest(free, key, k))
        for up in (False, True):
            action = Exchange(cards, up=up)
            if action in legal and action not in out:
                out.append(action)
    return out


def _declare(view: TrickView, rng: random.Random) -> TrickAction:
    assert view.seat is not None
    me = view.seat
    trump = view.trump or Suit.SPADES
    candidates = _candidates(view, trump)
    if len(candidates) == 1:
        return candidates[0]
    know = knowledge(view)
    totals = [0.0] * len(candidates)
    work = Work()
    for k in range(DECLARE_SAMPLES):
        if k >= MIN_SAMPLES and work.done >= DECLARE_WORK:
            break
        others, rest = sample(know, view, rng)
        stock = rest[: view.stock_size]
        for i, action in enumerate(candidates):
            if isinstance(action, Pass):
                totals[i] += -float(view.counts[me])
                continue
            assert isinstance(action, Exchange)
            totals[i] += _exchange_value(view, others, stock, action, work)
    best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
    return candidates[best]


def _exchange_value(
    view: TrickView, others: list[list[Card]], stock: list[Card], action: Exchange, work: Work
) -> float:
    """Play ``action`` out on one sample: the later declarers, the deal-out, the tricks."""
    assert view.seat is not None
    me = view.seat
    trump = view.trump or Suit.SPADES
    variant = VARIANTS[view.game]
    hands = [list(h) for h in others]
    stock = list(stock)
    mine = [c for c in view.hand if c not in action.cards]
    draw = len(action.cards) - action.up
    mine.extend(stock[:draw])
    del stock[:draw]
    if action.up and view.turn_up is not None:
        mine.append(view.turn_up)
    hands[me] = mine
    declared = list(view.declared)
    declared[me] = "play"
    order = _from_left(view)
    for seat in order[order.index(me) + 1 :]:
        hand = hands[seat]
        plays = declared.count("play")
        dealer_defends = seat == view.dealer and plays == 1
        keep = variant.privileged in hand or dealer_defends
        if keep or _strong(hand, view, trump) >= OTHERS_PLAY + plays:
            declared[seat] = "play"
            weak = [c for c in hand if c != variant.privileged and c.suit is not trump]
            weak = weak[: len(stock)]
            for card in weak:
                hand.remove(card)
            hand.extend(stock[: len(weak)])
            del stock[: len(weak)]
        else:
            declared[seat] = "pass"
            hands[seat] = []
    playing = [s for s in order if declared[s] == "play"]
    if variant.deal_out is not None:
        _deal_out(view, hands, stock, playing, trump)
    deal = _deal(view, hands, playing)
    return utility(playout(deal, work), me)


def _deal_out(
    view: TrickView, hands: list[list[Card]], stock: list[Card], playing: list[Seat], trump: Suit
) -> None:
    """§1.3.12 on a sample: the engine's own deal-out, then each receiver drops its weakest."""
    variant = VARIANTS[view.game]
    assert variant.deal_out is not None
    strength = rank_index(variant.order)
    for seat, card in variant.deal_out(stock, playing):
        hands[seat].append(card)
    for seat in playing:
        hand = hands[seat]
        extra = len(hand) - HAND_SIZE
        if extra > 0:
            hand.sort(key=lambda c: (c == variant.privileged, c.suit is trump, strength[c.rank]))
            del hand[:extra]


# --- Шутиха's discard, Памфил's re-trump --------------------------------------------------------


def _discard(view: TrickView, rng: random.Random) -> TrickAction:
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
    if not candidates:
        return view.legal[0]
    if len(candidates) == 1:
        return candidates[0]
    know = knowledge(view)
    playing = [s for s in _from_left(view) if view.declared[s] == "play"]
    totals = [0.0] * len(candidates)
    for _ in range(DISCARD_SAMPLES):
        others, _rest = sample(know, view, rng)
        for i, action in enumerate(candidates):
            hands = [list(h) for h in others]
            hands[me] = [c for c in view.hand if c not in action.cards]
            for seat in playing:
                extra = len(hands[seat]) - HAND_SIZE
                if seat != me and extra > 0:
                    del hands[seat][:extra]
            totals[i] += utility(playout(_deal(view, hands, playing)), me)
    best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
    return candidates[best]


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


__all__ = ["normal_policy"]
