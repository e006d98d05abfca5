"""Лентюрлю's computer players (engine.players.lenturlu): whole games end with legal moves
and records that replay; ``normal`` sees only the view and is deterministic given its generator;
its sampled worlds agree with the view."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine import new_game
from engine.cards import DECK_52
from engine.lenturlu import LenturluView
from engine.lenturlu.actions import Run
from engine.players import lenturlu_sim as sim
from engine.players.lenturlu import RUN_CANDIDATES, candidates, easy
from tests.engine.players_common import midgame

GAME = "lenturlu"


def test_easy_plays_its_longest_run() -> None:
    state = new_game(GAME, 3, 3)
    view = state.view(state.to_act)
    assert isinstance(view, LenturluView)
    action = easy(view, random.Random(0))
    assert isinstance(action, Run)
    assert len(action.cards) == max(len(a.cards) for a in view.legal if isinstance(a, Run))


def test_normal_prunes_a_big_hand_to_a_few_candidates() -> None:
    state = new_game(GAME, 3, 4)  # 15 cards: many runs to lead
    view = state.view(state.to_act)
    assert isinstance(view, LenturluView)
    base, _ = sim.known(view)
    moves = candidates(base, view.manner)
    assert len(moves) <= RUN_CANDIDATES + 3 < len(view.legal)
    assert len(set(moves)) == len(moves)  # one run per kind
    assert all(sim.to_action(m, view.hand) in view.legal for m in moves)


@pytest.mark.parametrize("players", [3, 5, 8])
def test_a_world_agrees_with_the_view(players: int) -> None:
    state = midgame(GAME, players, 20 + players, players + 2)
    seat = state.to_act
    assert seat is not None
    view = state.view(seat)
    assert isinstance(view, LenturluView)
    g = sim.world(view, random.Random(3))
    assert (g.to_act, g.size, g.money, g.passes, g.bought) == (
        seat,
        list(view.hand_sizes),
        list(view.money),
        view.passes,
        view.bought,
    )
    assert len(g.stock) - g.sp == view.stock
    assert {sim.of_action(a) for a in view.legal} == set(sim.legal(g))
    kinds: Counter[int] = Counter(g.stock)
    for s in range(players):
        for v in range(1, 14):
            plain = g.cnt[s][v] - (g.stk[s] >> v & 1)
            kinds[v] += plain
            kinds[v | sim.STAKE] += g.stk[s] >> v & 1
    kinds.update(sim.KIND[c] for c in (*view.pile, *view.out))
    assert kinds == Counter(sim.KIND[c] for c in DECK_52)  # every card in one place
    hidden = Counter(sim.KIND[c] for s in range(players) if s != seat for c in state._hands[s])
    hidden.update(sim.KIND[c] for c in state._stock)
    _, unseen = sim.known(view)
    assert Counter(unseen) == hidden
