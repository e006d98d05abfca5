"""Кончинка's computer players (engine.players.konchinka): whole games end with legal moves
and records that replay; ``normal`` sees only the view and is deterministic given its generator;
its sampled worlds agree with the view."""

from __future__ import annotations

import random

import pytest

from engine import new_game
from engine.konchinka import KonchinkaView
from engine.players.konchinka import easy, world
from tests.engine.players_common import midgame

GAME = "konchinka"


def test_easy_beats_random_by_the_capture_rule() -> None:
    state = new_game(GAME, 2, 3)
    view = state.view(state.to_act)
    assert isinstance(view, KonchinkaView)
    action = easy(view, random.Random(0))
    best = max(len(getattr(a, "taken", ())) for a in view.legal)
    assert len(getattr(action, "taken", ())) == best


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_world_agrees_with_the_view(players: int) -> None:
    state = midgame(GAME, players, 20 + players, 3 * players, easy)
    seat = state.to_act
    assert seat is not None
    view = state.view(seat)
    sampled = world(view, random.Random(3))
    seen = sampled.view(seat)
    for name in ("hand", "hand_sizes", "table", "captured", "clubs", "konchinki", "totals"):
        assert getattr(seen, name) == getattr(view, name), name
    assert (seen.stock, seen.legal, seen.to_act) == (view.stock, view.legal, view.to_act)
    cards = [c for cards in sampled.places().values() for c in cards]
    assert sorted(map(str, cards)) == sorted(map(str, set(cards))) and len(cards) == 52
    hidden = {c for s in range(players) if s != seat for c in state._hands[s]}
    assert hidden | set(state._stock) == {
        c for s in range(players) if s != seat for c in sampled._hands[s]
    } | set(sampled._stock)
