"""The computer player of Лентюрлю (RULES.md §3; levels ``easy`` and ``normal``).

``easy`` plays its longest run (stake cards first among equals), buys one card when it must
and passes otherwise. ``normal`` is Perfect-Information Monte Carlo
(:mod:`engine.players.determinized`): the unseen cards are dealt at random to the other hands
and the stock, each of a few candidate actions — the best runs by the seed's advice (seed 002:
long runs, the stake cards 7♦ K♥ J♣ A♠ Q♠, a covering king) and the buys and the pass — is
played out to the end of the deal by a fast version of ``easy`` through the engine, and the
action with the best mean of this seat's money (the engine's own settlement, §3.5) is chosen.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

from engine.actions import PASS, Buy
from engine.cards import DECK_52, RANK_VALUE, Card
from engine.lenturlu.actions import LenturluAction, Run
from engine.lenturlu.options import LenturluOptions
from engine.lenturlu.rules import KING_VALUE, LENTURLU_CARDS, STAKE_UNITS_EACH, follow_value
from engine.lenturlu.state import LenturluState, Phase
from engine.lenturlu.view import LenturluView
from engine.players.determinized import Work, WorldChance, choose, deal_unseen, step

MOVE_BUDGET: Final = 15000
"""Rollout actions per decision (the budget, never a clock), shared by candidates and worlds."""
MIN_SAMPLES: Final = 3
RUN_CANDIDATES: Final = 6
"""At most this many runs, the best by :func:`run_score`, are searched (plus buys and pass)."""
MAX_ACTIONS: Final = 2000
STAKES: Final = frozenset(LENTURLU_CARDS)
BUY_1: Final = Buy(1)


def run_score(run: Run, *, follow: bool, manner: str) -> float:
    """The seed's measure of a run: its length, its stake cards, a covering king (§3.4.2 a)."""
    cards = run.cards
    score = float(len(cards)) + 3.0 * sum(1 for c in cards if c in STAKES)
    if follow and manner == "king" and RANK_VALUE[cards[-1].rank] == KING_VALUE:
        score += 100.0  # the deal is won
    return score


def easy(view: LenturluView, rng: random.Random) -> LenturluAction:
    """The longest run (stake cards first among equals); else buy one; else pass."""
    best: Run | None = None
    best_key = (-1, -1)
    buy: LenturluAction | None = None
    for action in view.legal:
        if isinstance(action, Run):
            key = (len(action.cards), sum(1 for c in action.cards if c in STAKES))
            if key > best_key:
                best, best_key = action, key
        elif isinstance(action, Buy) and action.k == 1:
            buy = action
    if best is not None:
        return best
    return buy if buy is not None else view.legal[-1]


def _chain(hand: Sequence[Card], start: int | None) -> tuple[Card, ...]:
    """The longest run of ``hand`` starting at rank value ``start`` (anywhere if None), one
    card per rank, a stake card where the rank has one."""
    by_value: dict[int, Card] = {}
    for c in hand:
        v = RANK_VALUE[c.rank]
        if v not in by_value or c in STAKES:
            by_value[v] = c
    starts = [start] if start is not None else sorted(by_value)
    best: list[Card] = []
    for first in starts:
        chain: list[Card] = []
        v = first
        while v in by_value:
            chain.append(by_value[v])
            v += 1
        if len(chain) > len(best):
            best = chain
    return tuple(best)


def fast_pick(state: LenturluState, seat: int) -> LenturluAction:
    """The easy rule read straight off a world (no enumeration of every run): for rollouts."""
    hand = state._hands[seat]
    if state._phase == Phase.LEAD:
        return Run(_chain(hand, None))
    chain = _chain(hand, follow_value(state._pile[-1]))
    if chain:
        return Run(chain)
    if state._stock and not state._bought:
        return BUY_1
    return PASS


def world(view: LenturluView, rng: random.Random) -> LenturluState:
    """A full state consistent with ``view``: the unseen cards dealt at random (§3.1.4)."""
    me = view.seat
    n = view.players
    assert me is not None and view.to_act == me
    seen = set(view.hand) | set(view.pile) | set(view.out)
    unseen = [c for c in DECK_52 if c not in seen]
    others = [s for s in range(n) if s != me]
    piles = deal_unseen(unseen, [view.hand_sizes[s] for s in others] + [view.stock], rng)
    options = LenturluOptions(
        manner=view.manner,
        payment=view.payment,
        rate=view.rate,
        unit=view.unit,
        refill_units=view.refill_units,
    )
    state = LenturluState(view.game, n, options, 0, WorldChance(rng))
    hands: list[list[Card]] = [[] for _ in range(n)]
    hands[me] = list(view.hand)
    for s, pile in zip(others, piles, strict=False):
        hands[s] = pile
    state._hands = hands
    state._stock = piles[-1]
    state._layout = dict(view.layout)
    state._pile = list(view.pile)
    state._pile_leader = view.pile_leader
    state._set_aside = list(view.out)
    state._passes = view.passes
    state._last_runner = (me - view.passes - 1) % n if view.pile else None
    state._bought = view.bought
    staked = STAKE_UNITS_EACH * view.unit
    state._staked = [staked] * n
    state._refills = [0] * n
    state._taken = [m + staked for m in view.money]  # the money so far is all that matters
    state._dealer = view.dealer if view.dealer is not None else 0
    state._deal_no = view.deal_no
    state._phase = Phase.LEAD if view.leading else Phase.FOLLOW
    state._to_act = me
    state._awaiting = None
    return state


def rollout_value(state: LenturluState, me: int, work: Work) -> float:
    """Play ``state`` to its end with the easy rule; this seat's net (§3.5.4)."""
    for _ in range(MAX_ACTIONS):
        seat = state.to_act
        if seat is None:
            break
        step(state, seat, fast_pick(state, seat))
        work.done += 1
    result = state.result
    assert result is not None
    return float(result.net[me])


def candidates(view: LenturluView) -> list[LenturluAction]:
    """The best :data:`RUN_CANDIDATES` runs by :func:`run_score`, then every buy and the pass."""
    follow = not view.leading
    runs = [a for a in view.legal if isinstance(a, Run)]
    runs.sort(key=lambda r: -run_score(r, follow=follow, manner=view.manner))
    rest = [a for a in view.legal if not isinstance(a, Run)]
    return [*runs[:RUN_CANDIDATES], *rest]


def normal(view: LenturluView, rng: random.Random) -> LenturluAction:
    """PIMC over the pruned candidates, each played out to the end of the deal."""
    moves = candidates(view)
    me = view.seat
    assert me is not None
    work = Work()

    def evaluate(state: LenturluState, move: Any) -> float:
        step(state, me, move)
        work.done += 1
        return rollout_value(state, me, work)

    left = sum(view.hand_sizes) + view.stock
    samples = max(MIN_SAMPLES, MOVE_BUDGET // (left * len(moves)))
    chosen: LenturluAction = choose(moves, lambda r: world(view, r), evaluate, samples, rng)
    return chosen


LEVELS: Final[Mapping[str, Any]] = {"easy": easy, "normal": normal}
