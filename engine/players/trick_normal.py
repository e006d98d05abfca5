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
* **Шутиха's ``hard``** (:data:`.trick_budget.HARD_BY_GAME`) deals the QS only where the rules
  leave it (:mod:`.trick_queen`), models the seats yet to declare far from zero as playing
  (:data:`.trick_budget.EAGER`), plays out with the QS and KS kept apart on leads, and values
  a deal with the pulka it leaves (:func:`.trick_search.future`), a pass played out too.

Budgets are iterations (samples and search nodes), never a clock, sized so a decision stays
well under 0.5 s on a small shared machine (docs/computers.md).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from engine.cards import SUIT_ORDER, Card, Suit, rank_index
from engine.core import Seat
from engine.trick.actions import (
    ANNOUNCE,
    PASS,
    Discard,
    Exchange,
    PlayCard,
    Retrump,
    TrickAction,
)
from engine.trick.rules import HAND_SIZE, TrickPhase
from engine.trick.variant import VARIANTS
from engine.trick.view import TrickView

from .determinized import ScoredMoves, Work
from .trick_budget import (
    EAGER,
    HARD,
    HARD_BY_GAME,
    MIN_SAMPLES,
    NORMAL,
    OTHERS_PLAY,
    Budget,
)
from .trick_infer import likely, sample_likely, weigher
from .trick_model import worth_table
from .trick_queen import draw_placed, queen_places
from .trick_sample import CODE, TrickKnowledge, knowledge
from .trick_search import KnownDeal, TrickTable, new_deal, playout, solve, table_for, utility
from .trick_tables import ZERO_BONUS_SHARE


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
        return _declare(view, rng, budget, extra)
    if view.phase == TrickPhase.DISCARD:
        return _discard(view, rng, budget, extra)
    return ScoredMoves.only(_retrump(view))


def _sampler(
    view: TrickView, know: TrickKnowledge, budget: Budget
) -> Callable[[random.Random], tuple[list[list[int]], list[int]]]:
    weigh = weigher(view, know) if budget.infer else None
    places = queen_places(view, know) if budget.queen else None
    if places is None:
        return lambda rng: sample_likely(know, weigh, rng)
    qs, stock = CODE[view.game][view.privileged], view.stock_size

    def draw(rng: random.Random) -> tuple[list[list[int]], list[int]]:
        if weigh is None:
            return draw_placed(places, qs, stock, rng)
        return likely(lambda: draw_placed(places, qs, stock, rng), weigh, rng)

    return draw


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


def _deal(view: TrickView, hands: list[list[Card]], playing: list[Seat]) -> KnownDeal:
    """A sampled deal of cards at its first lead (:func:`_sim_deal` on the cards' codes)."""
    code = CODE[view.game]
    return _sim_deal(view, [[code[c] for c in h] for h in hands], playing, _table(view))


def _table(view: TrickView, budget: Budget = NORMAL) -> TrickTable:
    return table_for(view.game, view.trump or Suit.SPADES, view.must_trump, budget.guard)


def _sim_deal(
    view: TrickView, hands: list[list[int]], playing: list[Seat], table: TrickTable
) -> KnownDeal:
    """The deal at its first lead (§1.4.1); held: who holds the privileged card (§1.5.1)."""
    priv = table.priv
    held = next((s for s in playing if priv in hands[s]), None)
    return new_deal(table, view.players, playing, hands, view.counts, view.target, held)


def _from_left(view: TrickView) -> list[Seat]:
    n, dealer = view.players, view.dealer or 0
    return [(dealer + 1 + i) % n for i in range(n)]


# --- trick play ----------------------------------------------------------------------------------


def _play(view: TrickView, rng: random.Random, budget: Budget) -> ScoredMoves[TrickAction]:
    assert view.seat is not None
    me = view.seat
    code = CODE[view.game]
    moves = tuple(a for a in view.legal if isinstance(a, PlayCard))
    cards = [code[a.card] for a in moves]
    know = knowledge(view)
    draw = _sampler(view, know, budget)
    table = _table(view, budget)
    priv = table.priv
    playing = [s for s in _from_left(view) if view.declared[s] == "play"]
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
    return ScoredMoves(moves, tuple(totals), samples, _zero(table, zero))


# --- declaration and exchange -------------------------------------------------------------------


def _with(candidates: list[TrickAction], extra: TrickAction | None) -> list[TrickAction]:
    """The candidates, and ``extra`` last if they leave it out."""
    if extra is None or extra in candidates:
        return candidates
    return [*candidates, extra]


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


@dataclass(frozen=True, slots=True)
class _Round:
    """What a decision before the tricks reads once: the seat, the table and the codes."""

    view: TrickView
    me: Seat
    table: TrickTable
    code: Mapping[Card, int]
    worth: tuple[int, ...]  # per code: a card's worth (:func:`engine.players.trick._strong_cards`)
    later: tuple[Seat, ...]  # the seats declaring after ``me``, in turn
    drop: tuple[int, ...]  # per code: the order a receiver drops its extra cards in
    bound: int  # the code of a privileged card whose holder may not pass (§1.3.3 a), or -1
    eager: int | None  # a later seat above this count plays whatever its hand (:data:`EAGER`)

    @staticmethod
    def of(view: TrickView, budget: Budget = NORMAL) -> _Round:
        assert view.seat is not None
        me = view.seat
        eager = budget.eager
        table = _table(view, budget)
        order = VARIANTS[view.game].order
        top = rank_index(order)[order[1]]
        trump, priv = table.trump, table.priv
        worth = worth_table(priv, trump, top)
        drop = tuple((100 if c == priv else 0) + table.policy_key[c] for c in range(64))
        seats = _from_left(view)
        later = tuple(seats[seats.index(me) + 1 :])
        bound = -1 if VARIANTS[view.game].holder_may_pass else priv
        return _Round(view, me, table, CODE[view.game], worth, later, drop, bound, eager)

    def plays(self, seat: Seat, hand: list[int], plays: int) -> bool:
        """Whether a seat yet to declare is modelled to play ``hand`` (codes), ``plays`` seats
        being in: the simple player's threshold, the bound privileged card and the defending
        dealer (§1.3.3), and with :attr:`eager` a count far from zero."""
        view = self.view
        if self.bound in hand or (seat == view.dealer and plays == 1):  # §1.3.3 a, b
            return True
        if self.eager is not None and view.counts[seat] > self.eager:
            return True
        worth = self.worth
        return sum(worth[c] for c in hand) >= OTHERS_PLAY + plays


def _declare(
    view: TrickView, rng: random.Random, budget: Budget, extra: TrickAction | None
) -> ScoredMoves[TrickAction]:
    assert view.seat is not None
    me = view.seat
    trump = view.trump or Suit.SPADES
    candidates = _with(_candidates(view, trump), extra)
    if len(candidates) == 1:
        return ScoredMoves.only(candidates[0])
    draw = _sampler(view, knowledge(view), budget)
    ctx = _Round.of(view, budget)
    code = ctx.code
    up_card = code[view.turn_up] if view.turn_up is not None else None
    plans: list[tuple[list[int], int, int | None] | None] = []
    for action in candidates:
        if isinstance(action, Exchange):  # kept cards, cards drawn, the turn-up taken
            kept = [code[c] for c in view.hand if c not in action.cards]
            plans.append((kept, len(action.cards) - action.up, up_card if action.up else None))
        else:
            plans.append(None)
    totals = [0.0] * len(candidates)
    zero = [0] * len(candidates)
    worth = zero_worth(view)
    work = Work()
    samples = 0
    for k in range(budget.declare_samples):
        if k >= MIN_SAMPLES and work.done >= budget.declare_work:
            break
        samples += 1
        others, rest = draw(rng)
        stock = rest[: view.stock_size]
        for i, plan in enumerate(plans):
            if plan is None and not ctx.table.future:  # pass: the count stands (§1.5.2)
                totals[i] += -float(view.counts[me])
                continue
            value = _exchange_value(ctx, others, stock, plan, work)
            totals[i] += value
            zero[i] += value >= worth
    return ScoredMoves(tuple(candidates), tuple(totals), samples, _zero(ctx.table, zero))


def _exchange_value(
    ctx: _Round,
    others: list[list[int]],
    stock: list[int],
    plan: tuple[list[int], int, int | None] | None,
    work: Work,
) -> float:
    """Play an exchange (``plan``; None: a pass, §1.3.2) out on one sample: the later
    declarers (each an action simulated, as the exchange is), the deal-out, the tricks; a
    walkover if no one else plays (§1.3.5)."""
    view, me, table = ctx.view, ctx.me, ctx.table
    hands = [h[:] for h in others]
    top = 0
    if plan is not None:
        kept, top, up = plan
        hands[me] = kept + stock[:top]  # §1.3.4: drawn from the top
        if up is not None:
            hands[me].append(up)  # §1.2.2
    else:
        hands[me] = []
    declared = [d == "play" for d in view.declared]
    declared[me] = plan is not None
    plays = sum(declared)
    trump, priv = table.trump, table.priv
    work.done += 1 + len(ctx.later)
    for seat in ctx.later:
        hand = hands[seat]
        if ctx.plays(seat, hand, plays):
            declared[seat] = True
            plays += 1
            weak = [c for c in hand if c != priv and c >> 4 != trump][: len(stock) - top]
            if weak:
                hand = [c for c in hand if c not in weak]
                hand.extend(stock[top : top + len(weak)])
                top += len(weak)
                hands[seat] = hand
        else:
            hands[seat] = []
    playing = [s for s in _from_left(view) if declared[s]]
    if not any(s != view.dealer for s in playing):  # §1.3.5: the dealer's walkover
        return _walkover_value(ctx)
    if VARIANTS[view.game].deal_out is not None:
        work.done += _deal_out(ctx, hands, stock[top:], playing)
    deal = _sim_deal(view, hands, playing, table)
    return utility(playout(deal, work), me)


def _walkover_value(ctx: _Round) -> float:
    """§1.3.5, §1.5.6: the dealer writes off five (never past zero); every other count stands."""
    view = ctx.view
    dealer = view.dealer or 0
    counts = list(view.counts)
    counts[dealer] = max(0, counts[dealer] - HAND_SIZE)
    me = ctx.me
    if counts[me] == 0:  # the seat is the dealer
        return ZERO_BONUS_SHARE * (sum(view.counts) - view.counts[me])
    if counts[dealer] == 0:
        return -float(counts[me])
    n = view.players
    return (sum(counts) - n * counts[me]) / n


def _dealt(priv: int, stock: list[int], playing: list[Seat]) -> list[tuple[Seat, int]]:
    """§1.3.12: if the QS is in the stock, its cards from the top one at a time to the playing
    seats in turn (from the dealer's left) until the QS is dealt."""
    if priv not in stock:
        return []
    return [(playing[k % len(playing)], c) for k, c in enumerate(stock[: stock.index(priv) + 1])]


def _deal_out(ctx: _Round, hands: list[list[int]], stock: list[int], playing: list[Seat]) -> int:
    """§1.3.12 on a sample: the deal-out, then each receiver drops its weakest cards back to
    five. The discards made (actions simulated)."""
    dealt = _dealt(ctx.table.priv, stock, playing)
    for seat, card in dealt:
        hands[seat].append(card)
    receivers = {seat for seat, _ in dealt}
    for seat in receivers:
        hand = hands[seat]
        hand.sort(key=ctx.drop.__getitem__)
        del hand[: len(hand) - HAND_SIZE]
    return len(receivers)


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
    draw = _sampler(view, knowledge(view), budget)
    table = _table(view, budget)
    drop = _Round.of(view).drop
    code = CODE[view.game]
    kept = [[code[c] for c in view.hand if c not in a.cards] for a in candidates]
    playing = [s for s in _from_left(view) if view.declared[s] == "play"]
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
            value = utility(playout(_sim_deal(view, hands, playing, table), work), me)
            totals[i] += value
            zero[i] += value >= worth
    samples = budget.discard_samples
    return ScoredMoves(tuple(candidates), tuple(totals), samples, _zero(table, zero))


def zero_worth(view: TrickView) -> float:
    """What bringing the count to zero is worth to the seat in the searches' terms: the other
    counts (:func:`.trick_search.utility`). Every other deal's value is below it (minus the
    count left, or a walkover's share, :func:`_walkover_value`), so a world's value reaches it
    exactly when the count reached zero."""
    assert view.seat is not None
    return ZERO_BONUS_SHARE * (sum(view.counts) - view.counts[view.seat])


def _zero(table: TrickTable, zero: list[int]) -> tuple[int, ...]:
    """The worlds in which each candidate brought the count to zero; none kept where the table
    values the pulka it leaves instead (:func:`.trick_search.future`)."""
    return () if table.future else tuple(zero)


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
]
