"""``hard``'s rollout rule in Лентюрлю (engine.players.lenturlu_rollout, RULES.md §3): every
action it picks is legal, its play-outs end as the engine ends the same actions, and it does
what its docstring says — covers with the king, buys two while it cannot, keeps the king out of
its leads; ``hard`` decides alike given the same generator."""

from __future__ import annotations

import random

import pytest

from engine.cards import Card
from engine.lenturlu import LenturluView
from engine.players import lenturlu_rollout as rollout
from engine.players import lenturlu_sim as sim
from engine.players.determinized import Work, step
from engine.players.lenturlu import HARD, hard
from tests.engine.players_common import midgame
from tests.engine.test_lenturlu_sim import engine_facts, engine_world, positions, sim_facts

GAME = "lenturlu"


def _table(hand: str, top: int, stock: list[int], *, bought: bool = False) -> sim.LenturluSim:
    """Seat 0 of a 3-seat table in Manner A, holding ``hand``, the pile's top at ``top``."""
    g = sim.LenturluSim(3, "king", "points", 1, 1)
    g.add(0, [sim.KIND[Card.parse(c)] for c in hand.split()])
    g.add(1, [sim.KIND[Card.parse("2C")]])
    g.add(2, [sim.KIND[Card.parse("3C")]])
    g.stock = stock
    g.top = top
    g.bought = bought
    return g


@pytest.mark.parametrize("part", range(3))
def test_rollout_plays_legal_actions_that_end_as_on_the_engine(part: int) -> None:
    """From random positions of every table, each picked action is among the legal ones, and
    the same actions played through the engine give the same hands, money, winner and nets."""
    for i, (view, _) in enumerate(positions(60, 20_000 + 1000 * part)):
        ref = engine_world(view, random.Random(i))
        g = sim.world(view, random.Random(i))
        while g.winner is None:
            seat = g.to_act
            assert seat is not None and seat == ref.to_act
            action = rollout.pick(g)
            assert action in sim.legal(g)
            mapped = sim.to_action(action, ref._hands[seat])
            assert mapped in ref.legal_actions(seat)
            step(ref, seat, mapped)
            sim.apply(g, action)
        assert ref.to_act is None and sim_facts(g) == engine_facts(ref)
        result = ref.result
        assert result is not None and g.winner == result.winner
        assert [g.net(s) for s in range(g.n)] == list(result.net)


def test_playout_counts_every_action_and_ends_the_deal() -> None:
    view = positions(1, 7)[0][0]
    g = sim.world(view, random.Random(1))
    copy = g.copy()
    work = Work()
    rollout.playout(g, work)
    actions = 0
    while copy.winner is None:
        sim.apply(copy, rollout.pick(copy))
        actions += 1
    assert g.winner is not None and work.done == actions >= 1
    assert [g.net(s) for s in range(g.n)] == [copy.net(s) for s in range(copy.n)]


def test_a_follower_who_reaches_the_king_covers_with_it() -> None:
    g = _table("JH QD KC 2S", 10, [5, 6])
    assert rollout.pick(g) == (11, 3, 0)


def test_a_follower_short_of_the_king_buys_two_while_he_may() -> None:
    assert rollout.pick(_table("JH 2S", 10, [5, 6])) == (0, 2, 0)
    assert rollout.pick(_table("JH 2S", 10, [5])) == (0, 1, 0)  # one card left


def test_after_buying_an_able_follower_runs_and_an_unable_one_passes() -> None:
    assert rollout.pick(_table("JH QS 2S", 10, [5], bought=True)) == (11, 2, 1 << 12)
    assert rollout.pick(_table("2S", 10, [5], bought=True)) == sim.PASS_ACTION


def test_a_lead_keeps_the_king_back() -> None:
    g = _table("10H JH QD KC 2S 3S", 0, [])
    assert rollout.pick(g) == (10, 3, 0)  # not the four up to the king
    assert rollout.pick(_table("KC", 0, [])) == (13, 1, 0)  # nothing else to lead


def test_hard_decides_alike_given_the_same_generator() -> None:
    assert HARD.style is rollout.HARD_STYLE
    for players, seed in ((4, 3), (6, 8)):
        state = midgame(GAME, players, seed, 2)
        seat = state.to_act
        view = state.view(seat)
        assert isinstance(view, LenturluView)
        first = hard(view, random.Random(11))
        assert first in view.legal
        assert hard(view, random.Random(11)) == first


def test_each_switch_of_the_style_changes_what_it_names() -> None:
    able = _table("JH QS 2S", 10, [5, 6])
    assert rollout.pick(able, rollout.Style(buy_able=False)) == (11, 2, 1 << 12)
    assert rollout.pick(able, rollout.Style(buy_two=False)) == (0, 1, 0)
    assert rollout.pick(_table("2S", 10, [5, 6]), rollout.Style(buy_able=False)) == (0, 2, 0)
    lead = _table("10H JH QD KC 2S 3S", 0, [])
    assert rollout.pick(lead, rollout.Style(keep_king=False)) == (10, 4, 0)
    bought = _table("JH QS 2S", 10, [5], bought=True)
    assert rollout.pick(bought, rollout.Style(shortest=True)) == (11, 1, 0)
