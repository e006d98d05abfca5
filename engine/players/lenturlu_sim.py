"""Лентюрлю's inner simulator: the rest of one deal for the search's rollouts (RULES.md §3).

Suits matter only for the five Lenturlu cards (§3.1.1), so a card is a *kind*: its rank value
1–13, plus :data:`STAKE` for a Lenturlu card. Any two plain cards of one value are alike for every
rule and for the settlement (§3.5.3), so a hand is counts per value, a mask of the values held and
a mask of the Lenturlu cards held (bit v = value v). An action is a triple of ints: a run is
``(start, length, stakes)`` — the values ``start … start+length−1``, one card each, the Lenturlu
card at the values whose bit is in ``stakes`` — ``buy k`` is ``(0, k, 0)`` and ``pass`` is
``(0, 0, 0)``.

:func:`apply` plays any legal action, :func:`legal` lists them all (the engine's set of legal
actions read by kind, for the check in ``tests/engine/test_lenturlu_sim.py``) and
:func:`playout` plays the deal to its end by the rollout policy inlined (the ``easy`` rule: the
longest run, Lenturlu cards first; else buy one; else pass). The engine
(:mod:`engine.lenturlu.state`) is the reference: the test plays both side by side.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final, TypeVar

from engine.actions import BUYS, PASS, Buy, Pass
from engine.cards import DECK_52, RANK_VALUE, SUIT_ORDER, Card
from engine.lenturlu.actions import LenturluAction, Run
from engine.lenturlu.rules import ACE_OF_SPADES, LENTURLU_CARDS
from engine.lenturlu.view import LenturluView

from .determinized import Work

T = TypeVar("T")
Action = tuple[int, int, int]
"""``(start, length, stakes)`` for a run, ``(0, k, 0)`` for ``buy k``, ``(0, 0, 0)`` for pass."""
PASS_ACTION: Final[Action] = (0, 0, 0)

STAKE: Final = 16
"""The kind's flag of a Lenturlu card (§3.1.2); ``kind & 15`` is the rank value."""
KING: Final = 13  # §3.1.1: the highest value; a run ending on it closes the pile (§3.2.2)
KIND: Final[dict[Card, int]] = {
    c: RANK_VALUE[c.rank] | (STAKE if c in LENTURLU_CARDS else 0) for c in DECK_52
}
STAKE_CARD: Final[dict[int, Card]] = {RANK_VALUE[c.rank]: c for c in LENTURLU_CARDS}
"""The Lenturlu card of each value that has one (7D, KH, JC, AS, QS: one value each)."""
STAKE_VALUES: Final[tuple[int, ...]] = tuple(STAKE_CARD)
ALL_STAKES: Final = sum(1 << v for v in STAKE_VALUES)
"""The stakes' bits: every Lenturlu card's stake can be taken (Manner B, §3.4.4; the first lead
of Manner A)."""
LATER_STAKES: Final = ALL_STAKES & ~(1 << RANK_VALUE[ACE_OF_SPADES.rank])
"""§3.4.6: after the deal's first lead in Manner A the AS takes nothing."""
POINTS: Final[tuple[int, ...]] = tuple(min(v, 10) for v in range(14))
"""§3.5.3: A 1, 2–10 face value, J Q K 10 (index = value; a Lenturlu card counts twice)."""
FIXED, CARDS, HAND_POINTS = 0, 1, 2  # §3.5.2 ``payment``
PAYMENTS: Final[dict[str, int]] = {"fixed": FIXED, "cards": CARDS, "points": HAND_POINTS}
_SORT: Final[dict[Card, int]] = {
    c: 4 * RANK_VALUE[c.rank] + SUIT_ORDER.index(c.suit) for c in DECK_52
}


class LenturluSim:
    """One deal from some point on, every hand known: kinds, counts and masks, no records."""

    __slots__ = (
        "bought",
        "cnt",
        "each",
        "king_wins",
        "last",
        "layout",
        "money",
        "msk",
        "n",
        "passes",
        "payment",
        "rate",
        "size",
        "sp",
        "stk",
        "stock",
        "takes",
        "to_act",
        "top",
        "winner",
    )

    def __init__(self, n: int, manner: str, payment: str, rate: int, each: int) -> None:
        self.n = n
        self.king_wins = manner == "king"  # §3.4.2 a (Manner A) or b
        self.payment = PAYMENTS[payment]
        self.rate = rate
        self.each = each  # §3.4.5: refill_units × unit, paid by each other player
        self.cnt: list[list[int]] = [[0] * 14 for _ in range(n)]  # cards per value, per seat
        self.msk = [0] * n  # bit v: the seat holds a card of value v
        self.stk = [0] * n  # bit v: the seat holds the Lenturlu card of value v
        self.size = [0] * n  # cards in hand
        self.stock: list[int] = []  # kinds, top first; shared by copies (never written)
        self.sp = 0  # cards already drawn from the stock
        self.layout = [0] * 14  # money on the Lenturlu card of value v (§3.1.3)
        self.money = [0] * n  # stakes taken − staked − refills so far (§3.5.4)
        self.to_act: int | None = 0
        self.top = 0  # the pile's top value; 0 when a lead is due (§3.2.3)
        self.passes = 0  # in a row since the last run (§3.4.1)
        self.last = 0  # the seat of the last run (leads after a stop)
        self.bought = False  # the seat to act has bought this turn (§3.3.2)
        self.takes = ALL_STAKES  # the stakes a run can take now (§3.4.4, §3.4.6)
        self.winner: int | None = None

    def copy(self) -> LenturluSim:
        new = object.__new__(LenturluSim)
        new.n, new.king_wins, new.payment = self.n, self.king_wins, self.payment
        new.rate, new.each, new.stock, new.sp = self.rate, self.each, self.stock, self.sp
        new.cnt = [c[:] for c in self.cnt]
        new.msk, new.stk, new.size = self.msk[:], self.stk[:], self.size[:]
        new.layout, new.money = self.layout[:], self.money[:]
        new.to_act, new.top, new.passes = self.to_act, self.top, self.passes
        new.last, new.bought, new.winner = self.last, self.bought, self.winner
        new.takes = self.takes
        return new

    def add(self, seat: int, kinds: Sequence[int]) -> None:
        """Put cards into a hand (the deal of a world, a buy §3.3.3)."""
        c = self.cnt[seat]
        m = self.msk[seat]
        for kind in kinds:
            v = kind & 15
            c[v] += 1
            m |= 1 << v
            if kind & STAKE:
                self.stk[seat] |= 1 << v
        self.msk[seat] = m
        self.size[seat] += len(kinds)

    def pays(self, seat: int) -> int:
        """§3.5.2: what a loser pays the winner (points by §3.5.3)."""
        if self.payment == FIXED:
            return self.rate
        if self.payment == CARDS:
            return self.rate * self.size[seat]  # every card counts 1 (§3.5.3)
        k = self.stk[seat]  # the Lenturlu cards count twice: AS 1, 7D 7, JC QS KH 10 more
        twice = (k >> 1 & 1) + 7 * (k >> 7 & 1) + 10 * ((k >> 11 & 1) + (k >> 12 & 1) + (k >> 13))
        return self.rate * (sum(map(int.__mul__, self.cnt[seat], POINTS)) + twice)

    def net(self, seat: int) -> int:
        """§3.5.4: the seat's net once the deal is over (the winner takes the layout, §3.5.1)."""
        w = self.winner
        assert w is not None
        if seat != w:
            return self.money[seat] - self.pays(seat)
        paid = sum(self.pays(s) for s in range(self.n) if s != w)
        return self.money[w] + sum(self.layout) + paid


# --- worlds ----------------------------------------------------------------------------------


def known(view: LenturluView) -> tuple[LenturluSim, list[int]]:
    """The public part of ``view`` as a :class:`LenturluSim` (the others' hands and the stock still
    empty; their sizes in ``size``) and the kinds unseen, in deck order."""
    me = view.seat
    n = view.players
    assert me is not None and view.to_act == me
    g = LenturluSim(n, view.manner, view.payment, view.rate, view.refill_units * view.unit)
    seen = set(view.hand) | set(view.pile) | set(view.out)
    unseen = [KIND[c] for c in DECK_52 if c not in seen]
    g.add(me, [KIND[c] for c in view.hand])
    for s in range(n):
        if s != me:
            g.size[s] = view.hand_sizes[s]
    for c, amount in view.layout:
        g.layout[RANK_VALUE[c.rank]] = amount
    g.money = list(view.money)
    g.to_act = me
    g.top = 0 if view.leading else RANK_VALUE[view.pile[-1].rank]
    g.passes = view.passes
    g.last = (me - view.passes - 1) % n  # the runner, then one pass after another
    g.bought = view.bought
    if not view.as_stake_open:
        g.takes = LATER_STAKES  # §3.4.6: Manner A after the first lead
    g.stock = [0] * view.stock  # its size only (for :func:`legal`) until :func:`deal`
    return g, unseen


def shuffled(items: Sequence[T], rng: random.Random) -> list[T]:
    """A uniform shuffle of ``items`` (Fisher–Yates on ``rng.random()``: cheaper than
    ``rng.shuffle``); the test's engine worlds are cut from the same order."""
    out = list(items)
    rand = rng.random
    for i in range(len(out) - 1, 0, -1):
        j = int(rand() * (i + 1))
        out[i], out[j] = out[j], out[i]
    return out


def deal(base: LenturluSim, unseen: Sequence[int], rng: random.Random) -> LenturluSim:
    """A world: ``unseen`` shuffled and cut into the other hands (ascending seats) and the
    stock, in the cut of :func:`engine.players.determinized.deal_unseen`."""
    g = base.copy()
    cards = shuffled(unseen, rng)
    at = 0
    for s in range(g.n):
        if s == g.to_act:
            continue
        c = g.cnt[s]
        m = stakes = 0
        nxt = at + g.size[s]
        for kind in cards[at:nxt]:
            v = kind & 15
            c[v] += 1
            m |= 1 << v
            if kind & STAKE:
                stakes |= 1 << v
        g.msk[s], g.stk[s] = m, stakes
        at = nxt
    g.stock = cards[at:]
    g.sp = 0
    return g


def world(view: LenturluView, rng: random.Random) -> LenturluSim:
    """A world consistent with ``view`` (the unseen cards dealt at random)."""
    base, unseen = known(view)
    return deal(base, unseen, rng)


# --- the rules, one action at a time ---------------------------------------------------------


def legal(g: LenturluSim) -> list[Action]:
    """Every legal action of the seat to act by kind (§3.3.2): runs by start, length, then
    Lenturlu cards; then ``buy 1``, ``buy 2``, ``pass``."""
    seat = g.to_act
    assert seat is not None
    c = g.cnt[seat]
    stk = g.stk[seat]
    if g.top == 0:  # §3.2.3: the leader must lead, any rank (an ace only first: the lowest)
        starts = [v for v in range(1, 14) if c[v]]
    else:  # §3.2.4, §3.3.1: a follow starts at r + 1
        starts = [g.top + 1] if c[g.top + 1] else []
    out: list[Action] = []
    for s in starts:  # §3.2.1: consecutive values, suits free
        masks = [0]
        v = s
        while v <= KING and c[v]:
            bit = 1 << v
            held = 1 if stk & bit else 0
            masks = [m | b for m in masks for b in ((0,) if c[v] > held else ()) + ((bit,) * held)]
            out.extend((s, v - s + 1, m) for m in masks)
            v += 1
    if g.top:
        can = bool(starts)
        stock = len(g.stock) - g.sp
        if stock and not g.bought:
            out.extend((0, k, 0) for k in (1, 2) if k <= stock)  # §3.3.2: k ≤ stock size
            if can:
                out.append(PASS_ACTION)
        elif not can or stock:
            out.append(PASS_ACTION)  # §3.3.2: able with an empty stock may only run
    return out


def apply(g: LenturluSim, action: Action) -> None:
    """Play one legal action of the seat to act (unchecked)."""
    seat = g.to_act
    assert seat is not None
    start, length, stakes = action
    n = g.n
    if not start:
        if length:  # §3.3.3: buy k, draw the top k; he acts again
            g.add(seat, g.stock[g.sp : g.sp + length])
            g.sp += length
            g.bought = True
            return
        g.passes += 1  # pass
        g.bought = False
        if g.passes == n - 1:  # §3.4.1: a stop; the last runner leads
            g.passes = 0
            g.to_act = g.last
            g.top = 0
        else:
            g.to_act = (seat + 1) % n
        return
    lead = g.top == 0
    c = g.cnt[seat]
    hi = start + length
    for v in range(start, hi):  # §3.4.7: the cards are placed in order
        c[v] -= 1
        if not c[v]:
            g.msk[seat] &= ~(1 << v)
    g.size[seat] -= length
    g.stk[seat] &= ~stakes
    stakes &= g.takes  # §3.4.6: in Manner A the AS only on the first lead
    if g.king_wins:
        g.takes = LATER_STAKES
    for v in STAKE_VALUES:  # §3.4.4: each Lenturlu card takes its stake at once
        if stakes >> v & 1:
            g.money[seat] += g.layout[v]
            g.layout[v] = 0
    king = hi - 1 == KING
    if (king and not lead and g.king_wins) or not g.size[seat]:  # §3.4.2 a, §3.4.3
        g.winner = seat
        g.to_act = None
        return
    _refill(g, seat, stakes)
    g.passes = 0
    g.last = seat
    g.bought = False
    if king:  # §3.2.2, §3.4.2: the pile is closed, the same player leads
        g.top = 0
    else:
        g.top = hi - 1
        g.to_act = (seat + 1) % n


def _refill(g: LenturluSim, seat: int, stakes: int) -> None:
    """§3.4.5: every other player pays ``each`` onto every emptied card (the deal goes on)."""
    emptied = stakes.bit_count()
    if not emptied:
        return
    for v in STAKE_VALUES:
        if stakes >> v & 1:
            g.layout[v] += g.each * (g.n - 1)
    for o in range(g.n):
        if o != seat:
            g.money[o] -= g.each * emptied


# --- the rollout ---------------------------------------------------------------------------


def longest_stretch(m: int) -> tuple[int, int]:
    """(start, length) of the longest stretch of set bits in ``m`` (the lowest of equals): the
    longest run of held values (§3.2.1)."""
    y = m
    x = length = 0
    while y:
        x = y
        y &= y >> 1
        length += 1
    return (x & -x).bit_length() - 1, length


def playout(g: LenturluSim, work: Work) -> None:
    """Play to the end of the deal by the rollout policy, the rules of :func:`apply` inlined:
    lead the longest run (the lowest of equals), follow with the longest run from r + 1,
    Lenturlu cards wherever held; unable, buy one card while allowed, else pass. Every action
    is counted in ``work``."""
    n = g.n
    cnt, msk, stk, size = g.cnt, g.msk, g.stk, g.size
    layout, money, stock = g.layout, g.money, g.stock
    sp, end = g.sp, len(g.stock)
    seat = g.to_act
    assert seat is not None
    top, passes, last, bought = g.top, g.passes, g.last, g.bought
    king_wins, each, takes = g.king_wins, g.each, g.takes
    done = 0
    while True:
        done += 1
        m = msk[seat]
        if top:
            t = m >> (top + 1)
            if not t & 1:  # unable (§3.3.1)
                if sp < end and not bought:  # §3.3.2: he must buy; one card
                    kind = stock[sp]
                    sp += 1
                    v = kind & 15
                    cnt[seat][v] += 1
                    msk[seat] = m | 1 << v
                    if kind & STAKE:
                        stk[seat] |= 1 << v
                    size[seat] += 1
                    bought = True
                    continue
                passes += 1  # §3.3.2: pass
                bought = False
                if passes == n - 1:  # §3.4.1: a stop
                    passes = 0
                    seat = last
                    top = 0
                else:
                    seat = seat + 1 if seat + 1 < n else 0
                continue
            start = top + 1  # §3.2.4
            length = (t ^ (t + 1)).bit_length() - 1
            lead = False
        else:  # §3.2.3: the longest stretch of held values
            start, length = longest_stretch(m)
            lead = True
        hi = start + length
        c = cnt[seat]
        for v in range(start, hi):
            k = c[v] - 1
            c[v] = k
            if not k:
                m ^= 1 << v
        msk[seat] = m
        sz = size[seat] - length
        size[seat] = sz
        taken = stk[seat] & ((1 << hi) - (1 << start))
        if taken:  # §3.4.4
            stk[seat] ^= taken
            taken &= takes  # §3.4.6
            for v in STAKE_VALUES:
                if taken >> v & 1:
                    money[seat] += layout[v]
                    layout[v] = 0
        king = hi > KING
        if (king and not lead and king_wins) or not sz:  # §3.4.2 a, §3.4.3, before refills
            break
        if taken and each:  # §3.4.5
            emptied = taken.bit_count()
            for v in STAKE_VALUES:
                if taken >> v & 1:
                    layout[v] += each * (n - 1)
            for o in range(n):
                if o != seat:
                    money[o] -= each * emptied
        if king_wins:
            takes = LATER_STAKES  # §3.4.6: the first lead is made
        passes = 0
        last = seat
        bought = False
        if king:  # §3.4.2: closed; he leads again
            top = 0
        else:
            top = hi - 1
            seat = seat + 1 if seat + 1 < n else 0
    work.done += done
    g.sp, g.top, g.passes, g.last, g.bought, g.takes = sp, top, passes, last, bought, takes
    g.winner = seat
    g.to_act = None


# --- between the engine and the simulator ----------------------------------------------------


def of_action(action: LenturluAction) -> Action:
    """An engine action by kind."""
    match action:
        case Run(cards):
            stakes = 0
            for c in cards:
                if KIND[c] & STAKE:
                    stakes |= 1 << (KIND[c] & 15)
            return (KIND[cards[0]] & 15, len(cards), stakes)
        case Buy(k):
            return (0, k, 0)
        case Pass():
            return PASS_ACTION
    raise AssertionError(action)


def to_action(action: Action, hand: Sequence[Card]) -> LenturluAction:
    """The engine action of ``hand`` for ``action``: the Lenturlu card where its bit is set,
    else the first plain card of the value in suit order S C D H."""
    start, length, stakes = action
    if not start:
        return BUYS[length - 1] if length else PASS
    cards = []
    for v in range(start, start + length):
        if stakes >> v & 1:
            cards.append(STAKE_CARD[v])
        else:
            cards.append(min((c for c in hand if KIND[c] == v), key=_SORT.__getitem__))
    return Run(tuple(cards))
