"""Кончинка's computer players (engine.players.konchinka): whole games end with legal moves
and records that replay; ``normal`` sees only the view and is deterministic given its generator;
its sampled worlds agree with the view."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import new_game, replay
from engine.konchinka import KonchinkaState, KonchinkaView
from engine.players import computer
from engine.players.konchinka import easy, normal, world

GAME = "konchinka"


def _play(state: Any, policies: list[Any], rng: random.Random, limit: int = 5000) -> int:
    """Play to the end; every action must be among the seat's legal actions. Actions taken."""
    for count in range(limit):
        seat = state.to_act
        if seat is None:
            return count
        view = state.view(seat)
        action = policies[seat](view, rng)
        assert action in view.legal
        state.apply(seat, action)
    raise AssertionError("no end")


def _midgame(players: int, seed: int, moves: int) -> KonchinkaState:
    state = new_game(GAME, players, seed)
    assert isinstance(state, KonchinkaState)
    rng = random.Random(seed)
    for _ in range(moves):
        seat = state.to_act
        assert seat is not None
        state.apply(seat, easy(state.view(seat), rng))
    return state


def _permute_hidden(state: KonchinkaState, seat: int, rng: random.Random) -> KonchinkaState:
    """The same game with the cards ``seat`` cannot see dealt differently (same sizes)."""
    other = state.clone()
    others = [s for s in range(state.players) if s != seat]
    hidden = [c for s in others for c in other._hands[s]] + other._stock
    rng.shuffle(hidden)
    for s in others:
        size = len(other._hands[s])
        other._hands[s], hidden = hidden[:size], hidden[size:]
    other._stock = hidden
    return other


@pytest.mark.parametrize("players", [2, 3, 4])
def test_easy_games_end_legal_and_replay(players: int) -> None:
    for seed in range(3):
        state = new_game(GAME, players, 100 + seed)
        _play(state, [easy] * players, random.Random(seed))
        assert state.result is not None and sum(state.result.net) == 0
        record = state.record()
        assert replay(record).record() == record


@pytest.mark.parametrize("players", [2, 4])
def test_normal_plays_a_short_game_to_the_end(players: int) -> None:
    state = new_game(GAME, players, 7, {"target": 5})
    policies: list[Any] = [computer(GAME, "normal")] + [easy] * (players - 1)
    _play(state, policies, random.Random(1))
    record = state.record()
    assert replay(record).record() == record


def test_easy_beats_random_by_the_capture_rule() -> None:
    state = new_game(GAME, 2, 3)
    view = state.view(state.to_act)
    assert isinstance(view, KonchinkaView)
    action = easy(view, random.Random(0))
    best = max(len(getattr(a, "taken", ())) for a in view.legal)
    assert len(getattr(action, "taken", ())) == best


@pytest.mark.parametrize(("players", "moves"), [(2, 5), (3, 9), (4, 14)])
def test_normal_sees_only_the_view(players: int, moves: int) -> None:
    state = _midgame(players, 11 + players, moves)
    seat = state.to_act
    assert seat is not None
    twin = _permute_hidden(state, seat, random.Random(5))
    assert twin._hands != state._hands or twin._stock != state._stock
    view, twin_view = state.view(seat), twin.view(seat)
    assert view == twin_view
    action = normal(view, random.Random(9))
    assert action in view.legal
    assert normal(twin_view, random.Random(9)) == action
    assert normal(view, random.Random(9)) == action  # deterministic given the generator


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_world_agrees_with_the_view(players: int) -> None:
    state = _midgame(players, 20 + players, 3 * players)
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


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_soak_easy_games(players: int) -> None:
    for seed in range(40):
        state = new_game(GAME, players, 1000 + seed)
        _play(state, [easy] * players, random.Random(seed))
        record = state.record()
        assert replay(record).record() == record
