"""Лентюрлю's inner simulator (engine.players.lenturlu_sim) against the engine (RULES.md §3).

From random mid-game positions (every seat count 3–8, both manners, every payment, refills on and
off) one world is built both ways from the same view and the same generator: an engine state
(the reference, :func:`engine_world`) and a simulator state. Then:

* **step by step**: random legal actions are played on both; before every step the full set of
  legal actions is equal (the engine's read by kind: suits matter only for the Lenturlu cards,
  §3.1.1), every simulator action maps to an engine legal action, and the seat to act, the hands,
  the stock, the layout, the money, the pile's top, the passes and the buy flag are equal; at the
  end the winner and every seat's net are equal;
* **rollouts**: the simulator's inlined policy (:func:`lenturlu_sim.playout`) and the same policy
  read off the engine state (:func:`engine_pick`, through the engine's ``_perform``) play to the
  end: the number of actions, the final hands and money, the winner and every net are equal.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from engine.actions import PASS, Buy
from engine.cards import DECK_52, RANK_VALUE, Card
from engine.games import new_game
from engine.lenturlu import LenturluState, LenturluView, Run
from engine.lenturlu.options import LenturluOptions
from engine.lenturlu.rules import LENTURLU_CARDS, STAKE_UNITS_EACH, LenturluPhase, follow_value
from engine.players import lenturlu_sim as sim
from engine.players import random_player
from engine.players.determinized import Work, WorldChance, step

GAME = "lenturlu"
OPTIONS: list[dict[str, Any]] = [
    {},
    {"manner": "out"},
    {"payment": "fixed", "rate": 7, "unit": 3},
    {"payment": "cards", "rate": 2, "manner": "out", "refill_units": 0},
    {"payment": "points", "rate": 3, "unit": 2, "refill_units": 4},
]
STAKES = frozenset(LENTURLU_CARDS)


def engine_world(view: LenturluView, rng: random.Random) -> LenturluState:
    """The reference world: an engine state consistent with ``view``, the unseen cards in
    the simulator's shuffle from ``rng``, cut as it cuts them (others by seat, then the stock)."""
    me = view.seat
    n = view.players
    assert me is not None
    seen = set(view.hand) | set(view.pile) | set(view.out)
    unseen = [c for c in DECK_52 if c not in seen]
    others = [s for s in range(n) if s != me]
    cards = sim.shuffled(unseen, rng)
    piles = []
    for s in others:
        piles.append(cards[: view.hand_sizes[s]])
        del cards[: view.hand_sizes[s]]
    piles.append(cards)
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
    state._taken = [m + staked for m in view.money]
    state._dealer = view.dealer if view.dealer is not None else 0
    state._deal_no = view.deal_no
    state._phase = LenturluPhase.LEAD if view.leading else LenturluPhase.FOLLOW
    state._to_act = me
    state._awaiting = None
    return state


def _chain(hand: Sequence[Card], start: int | None) -> tuple[Card, ...]:
    """The longest run from ``start`` (anywhere if None; the lowest of equals), one card per
    value, the Lenturlu card where the value has one in hand."""
    by_value: dict[int, Card] = {}
    for c in hand:
        v = RANK_VALUE[c.rank]
        if v not in by_value or c in STAKES:
            by_value[v] = c
    best: list[Card] = []
    for first in [start] if start is not None else sorted(by_value):
        chain: list[Card] = []
        v = first
        while v in by_value:
            chain.append(by_value[v])
            v += 1
        if len(chain) > len(best):
            best = chain
    return tuple(best)


def engine_pick(state: LenturluState, seat: int) -> Any:
    """The rollout policy read off an engine state (the reference of ``sim.playout``)."""
    hand = state._hands[seat]
    if state._phase == LenturluPhase.LEAD:
        return Run(_chain(hand, None))
    chain = _chain(hand, follow_value(state._pile[-1]))
    if chain:
        return Run(chain)
    if state._stock and not state._bought:
        return Buy(1)
    return PASS


def _hand(cards: Sequence[Card]) -> tuple[tuple[int, ...], int]:
    counts = [0] * 14
    stakes = 0
    for c in cards:
        kind = sim.KIND[c]
        counts[kind & 15] += 1
        if kind & sim.STAKE:
            stakes |= 1 << (kind & 15)
    return tuple(counts), stakes


def engine_facts(state: LenturluState) -> dict[str, Any]:
    """What the simulator keeps, read off an engine state."""
    money = [t - s - r for t, s, r in zip(state._taken, state._staked, state._refills, strict=True)]
    layout = [0] * 14
    for c, amount in state._layout.items():
        layout[RANK_VALUE[c.rank]] = amount
    follow = state.to_act is not None and state._phase == LenturluPhase.FOLLOW
    return {
        "to_act": state.to_act,
        "hands": [_hand(h) for h in state._hands],
        "stock": [sim.KIND[c] for c in state._stock],
        "money": money,
        "layout": layout if state.result is None else None,
        "top": RANK_VALUE[state._pile[-1].rank] if follow else 0,
        "passes": state._passes if state.result is None else None,
        "bought": state._bought if state.result is None else None,
        "last": state._last_runner if follow else None,
    }


def sim_facts(g: sim.LenturluSim) -> dict[str, Any]:
    over = g.winner is not None
    for s in range(g.n):  # the derived masks and sizes agree with the counts
        assert g.msk[s] == sum(1 << v for v in range(14) if g.cnt[s][v])
        assert g.size[s] == sum(g.cnt[s])
        assert all(g.cnt[s][v] for v in range(14) if g.stk[s] >> v & 1)
    return {
        "to_act": g.to_act,
        "hands": [(tuple(g.cnt[s]), g.stk[s]) for s in range(g.n)],
        "stock": g.stock[g.sp :],
        "money": g.money,
        "layout": None if over else g.layout,
        "top": 0 if over else g.top,
        "passes": None if over else g.passes,
        "bought": None if over else g.bought,
        "last": g.last if not over and g.top else None,
    }


def positions(count: int, base_seed: int) -> list[tuple[LenturluView, dict[str, Any]]]:
    """``count`` views of the seat to act, random games some random actions in."""
    out: list[tuple[LenturluView, dict[str, Any]]] = []
    seed = base_seed
    while len(out) < count:
        players = 3 + seed % 6
        options = OPTIONS[seed // 6 % len(OPTIONS)]
        state = new_game(GAME, players, seed, options or None)
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, 40)):
            if state.to_act is None:
                break
            state.apply(state.to_act, random_player(state.view(state.to_act), rng))
        seed += 1
        if state.to_act is None:
            continue
        view = state.view(state.to_act)
        assert isinstance(view, LenturluView)
        out.append((view, options))
    return out


def _check_step_by_step(view: LenturluView, seed: int) -> None:
    ref = engine_world(view, random.Random(seed))
    g = sim.world(view, random.Random(seed))
    pick = random.Random(seed + 1)
    for _ in range(2000):
        assert sim_facts(g) == engine_facts(ref)
        seat = ref.to_act
        if seat is None:
            break
        engine_legal = ref.legal_actions(seat)
        by_kind = {sim.of_action(a) for a in engine_legal}
        mine = sim.legal(g)
        assert len(set(mine)) == len(mine)
        assert set(mine) == by_kind
        action = pick.choice(mine)
        mapped = sim.to_action(action, ref._hands[seat])
        assert mapped in engine_legal and sim.of_action(mapped) == action
        ref.apply(seat, mapped)
        sim.apply(g, action)
    else:
        raise AssertionError("no end")
    result = ref.result
    assert result is not None and g.winner == result.winner
    assert [g.net(s) for s in range(g.n)] == list(result.net)


def _check_rollout(view: LenturluView, seed: int) -> None:
    ref = engine_world(view, random.Random(seed))
    g = sim.world(view, random.Random(seed))
    actions = 0
    while (seat := ref.to_act) is not None:
        action = engine_pick(ref, seat)
        assert action in ref.legal_actions(seat)
        step(ref, seat, action)
        actions += 1
    work = Work()
    sim.playout(g, work)
    assert work.done == actions
    assert sim_facts(g) == engine_facts(ref)
    result = ref.result
    assert result is not None and g.winner == result.winner
    assert [g.net(s) for s in range(g.n)] == list(result.net)


@pytest.mark.parametrize("part", range(4))
def test_3_2_to_3_5_step_by_step_as_the_engine(part: int) -> None:
    """§3.2–§3.5: legal sets, state and nets equal to the engine's along random play."""
    for i, (view, _) in enumerate(positions(60, 1000 * part)):
        _check_step_by_step(view, 7 * i + part)


@pytest.mark.parametrize("part", range(4))
def test_rollout_policy_plays_as_on_the_engine(part: int) -> None:
    """The inlined rollout gives the engine's outcome under the same policy."""
    for i, (view, _) in enumerate(positions(80, 5000 + 1000 * part)):
        _check_rollout(view, 3 * i + part)


def test_positions_cover_every_table() -> None:
    """Every seat count (§3.1.1) meets every option set in the first 120 positions."""
    seen = {(v.players, tuple(sorted(o.items()))) for v, o in positions(120, 0)}
    assert len(seen) == 6 * len(OPTIONS)


@pytest.mark.slow
@pytest.mark.parametrize("part", range(8))
def test_many_positions_as_the_engine(part: int) -> None:
    for i, (view, _) in enumerate(positions(300, 100_000 + 10_000 * part)):
        _check_step_by_step(view, i)
        _check_rollout(view, i + 1)
