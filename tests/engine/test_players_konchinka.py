"""Кончинка's computer players (engine.players.konchinka): whole games end with legal moves
and records that replay; ``normal`` sees only the view and is deterministic given its generator;
its sampled worlds agree with the view."""

from __future__ import annotations

import random

import pytest

from engine import new_game
from engine.konchinka import KonchinkaView
from engine.players.konchinka import easy
from engine.players.konchinka_sim import CODE, Seen, encode
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
    assert isinstance(view, KonchinkaView)
    sampled = Seen(view).world(random.Random(3))
    assert sampled.hands[seat] == sorted(CODE[c] for c in view.hand)
    assert [len(h) for h in sampled.hands] == list(view.hand_sizes)
    assert sampled.table == [CODE[c] for c in view.table]
    assert [h & 255 for h in sampled.hauls] == list(view.captured)
    assert [h >> 8 & 255 for h in sampled.hauls] == list(view.clubs)
    assert [h >> 16 for h in sampled.hauls] == [len(k) for k in view.konchinki]
    assert (len(sampled.stock), sampled.to_act) == (view.stock, view.to_act)
    assert sampled.legal() == [encode(view.table, a) for a in view.legal]
    held = [c for h in sampled.hands for c in h] + sampled.stock + sampled.table
    taken = [CODE[c] for t in view.taken for c in t]
    assert sorted(held + taken) == list(range(52))
    hidden = {CODE[c] for s in range(players) if s != seat for c in state._hands[s]}
    assert hidden | {CODE[c] for c in state._stock} == {
        c for s in range(players) if s != seat for c in sampled.hands[s]
    } | set(sampled.stock)
