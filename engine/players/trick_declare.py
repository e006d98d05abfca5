"""The trick family's declaration and exchange search (§1.3), for ``normal`` and ``hard``
(:mod:`.trick_normal`).

``pass`` against ``play`` with the k weakest cards exchanged (k = 0 … 5; the privileged card and
trumps kept longest, seed 000's advice), and the dealer's variants taking the turn-up; each is
played out on every sample: the seats yet to declare play with the chance the computers really
do (:meth:`Round.chance_of`: a table fitted to ``normal``'s own declarations,
:mod:`.trick_declare_table`; one draw per seat and sample, shared by the candidates),
Шутиха's deal-out is dealt (§1.3.12), then the five tricks are played by the fast playout
policy (a walkover if no one else plays, §1.3.5).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.cards import Card, Suit, rank_index
from engine.core import Seat
from engine.trick.actions import PASS, Exchange, TrickAction
from engine.trick.rules import HAND_SIZE
from engine.trick.variant import VARIANTS
from engine.trick.view import TrickView

from .determinized import ScoredMoves, Work
from .trick_budget import MIN_SAMPLES, NORMAL, Budget
from .trick_declare_table import PLAYS_CAP, WORTH_CAP, chances
from .trick_model import worth_table
from .trick_reading import from_left, sampler, sim_deal, table_of, zero_counts, zero_worth
from .trick_sample import CODE, knowledge
from .trick_search import TrickTable, playout, utility
from .trick_tables import ZERO_BONUS_SHARE


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
class Round:
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
    chance: tuple[tuple[tuple[float, ...], ...], ...]  # per seat: [worth][seats in] (the table)

    @staticmethod
    def of(view: TrickView, budget: Budget = NORMAL) -> Round:
        assert view.seat is not None
        me = view.seat
        eager = budget.eager
        table = table_of(view, budget)
        order = VARIANTS[view.game].order
        top = rank_index(order)[order[1]]
        trump, priv = table.trump, table.priv
        worth = worth_table(priv, trump, top)
        drop = tuple((100 if c == priv else 0) + table.policy_key[c] for c in range(64))
        seats = from_left(view)
        later = tuple(seats[seats.index(me) + 1 :])
        bound = -1 if VARIANTS[view.game].holder_may_pass else priv
        n = view.players
        after = {s: n - 1 - i for i, s in enumerate(seats)}
        chance = tuple(chances(view.game, after[s], view.counts[s], n) for s in range(n))
        return Round(view, me, table, CODE[view.game], worth, later, drop, bound, eager, chance)

    def chance_of(self, seat: Seat, hand: list[int], plays: int) -> float:
        """The chance a seat yet to declare is modelled to play ``hand`` (codes), ``plays``
        seats being in: 1 for the bound privileged card and the defending dealer (§1.3.3), and
        with :attr:`eager` a count far from zero; else what the computers do
        (:mod:`.trick_declare_table`, fitted to ``normal``'s own declarations)."""
        view = self.view
        if self.bound in hand or (seat == view.dealer and plays == 1):  # §1.3.3 a, b
            return 1.0
        if self.eager is not None and view.counts[seat] > self.eager:
            return 1.0
        worth = self.worth
        strength = min(sum(worth[c] for c in hand), WORTH_CAP)
        return self.chance[seat][strength][min(plays, PLAYS_CAP)]

    def plays(self, seat: Seat, hand: list[int], plays: int, draw: float) -> bool:
        """Whether the seat is modelled to play, ``draw`` (uniform in [0, 1), shared by the
        candidates of one sample) below its chance (:meth:`chance_of`)."""
        return draw < self.chance_of(seat, hand, plays)


def declare(
    view: TrickView, rng: random.Random, budget: Budget, extra: TrickAction | None
) -> ScoredMoves[TrickAction]:
    assert view.seat is not None
    me = view.seat
    trump = view.trump or Suit.SPADES
    candidates = _with(_candidates(view, trump), extra)
    if len(candidates) == 1:
        return ScoredMoves.only(candidates[0])
    draw = sampler(view, knowledge(view), budget)
    ctx = Round.of(view, budget)
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
        draws = [rng.random() for _ in ctx.later]  # the later seats' declarations
        for i, plan in enumerate(plans):
            if plan is None and not ctx.table.future:  # pass: the count stands (§1.5.2)
                totals[i] += -float(view.counts[me])
                continue
            value = _exchange_value(ctx, others, stock, plan, work, draws)
            totals[i] += value
            zero[i] += value >= worth
    return ScoredMoves(tuple(candidates), tuple(totals), samples, zero_counts(ctx.table, zero))


def _exchange_value(
    ctx: Round,
    others: list[list[int]],
    stock: list[int],
    plan: tuple[list[int], int, int | None] | None,
    work: Work,
    draws: list[float],
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
    for seat, u in zip(ctx.later, draws, strict=True):
        hand = hands[seat]
        if ctx.plays(seat, hand, plays, u):
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
    playing = [s for s in from_left(view) if declared[s]]
    if not any(s != view.dealer for s in playing):  # §1.3.5: the dealer's walkover
        return walkover_value(ctx)
    if VARIANTS[view.game].deal_out is not None:
        work.done += _deal_out(ctx, hands, stock[top:], playing)
    deal = sim_deal(view, hands, playing, table)
    return utility(playout(deal, work), me)


def walkover_value(ctx: Round) -> float:
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


def dealt(priv: int, stock: list[int], playing: list[Seat]) -> list[tuple[Seat, int]]:
    """§1.3.12: if the QS is in the stock, its cards from the top one at a time to the playing
    seats in turn (from the dealer's left) until the QS is dealt."""
    if priv not in stock:
        return []
    return [(playing[k % len(playing)], c) for k, c in enumerate(stock[: stock.index(priv) + 1])]


def _deal_out(ctx: Round, hands: list[list[int]], stock: list[int], playing: list[Seat]) -> int:
    """§1.3.12 on a sample: the deal-out, then each receiver drops its weakest cards back to
    five. The discards made (actions simulated)."""
    cards = dealt(ctx.table.priv, stock, playing)
    for seat, card in cards:
        hands[seat].append(card)
    receivers = {seat for seat, _ in cards}
    for seat in receivers:
        hand = hands[seat]
        hand.sort(key=ctx.drop.__getitem__)
        del hand[: len(hand) - HAND_SIZE]
    return len(receivers)
