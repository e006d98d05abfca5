"""Лентюрлю's computer players (engine.players.lenturlu): whole games end with legal moves
and records that replay; ``normal`` sees only the view and is deterministic given its generator;
its sampled worlds agree with the view."""

from __future__ import annotations

import random

import pytest

from engine import new_game
from engine.lenturlu import LenturluView
from engine.lenturlu.actions import Run
from engine.players.lenturlu import RUN_CANDIDATES, candidates, easy, world
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
    moves = candidates(view)
    assert len(moves) <= RUN_CANDIDATES + 3 < len(view.legal)
    assert all(m in view.legal for m in moves)


@pytest.mark.parametrize("players", [3, 5, 8])
def test_a_world_agrees_with_the_view(players: int) -> None:
    state = midgame(GAME, players, 20 + players, players + 2)
    seat = state.to_act
    assert seat is not None
    view = state.view(seat)
    sampled = world(view, random.Random(3))
    seen = sampled.view(seat)
    for name in ("hand", "hand_sizes", "pile", "top", "layout", "money", "passes", "out"):
        assert getattr(seen, name) == getattr(view, name), name
    assert (seen.stock, seen.legal, seen.to_act) == (view.stock, view.legal, view.to_act)
    cards = [c for cards in sampled.places().values() for c in cards]
    assert sorted(map(str, cards)) == sorted(map(str, set(cards))) and len(cards) == 52
    hidden = {c for s in range(players) if s != seat for c in state._hands[s]}
    assert hidden | set(state._stock) == {
        c for s in range(players) if s != seat for c in sampled._hands[s]
    } | set(sampled._stock)
