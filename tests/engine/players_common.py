"""What the computer-player tests of every family share: playing a game to its end with legal
moves only, a game some random actions in, the same game with the hidden cards dealt anew, and
a trick game's first view."""

from __future__ import annotations

import random
from typing import Any

from engine import new_game
from engine.players import random_player
from engine.trick.view import TrickView


def play_to_end(state: Any, policies: list[Any], rng: random.Random, limit: int = 5000) -> int:
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


def midgame(game: str, players: int, seed: int, moves: int, policy: Any = random_player) -> Any:
    """A game ``moves`` actions of ``policy`` in (the first seed from ``seed`` whose game lasts)."""
    for tried in range(seed, seed + 50):
        state = new_game(game, players, tried)
        rng = random.Random(tried)
        for _ in range(moves):
            seat = state.to_act
            if seat is None:
                break
            state.apply(seat, policy(state.view(seat), rng))
        if state.to_act is not None:
            return state
    raise AssertionError("every game ended")


def permute_hidden(state: Any, seat: int, rng: random.Random) -> Any:
    """The same game with the cards ``seat`` cannot see (the others' hands and the stock) dealt
    differently, every hand keeping its size."""
    other = state.clone()
    others = [s for s in range(state.players) if s != seat]
    hidden = [c for s in others for c in other._hands[s]] + other._stock
    rng.shuffle(hidden)
    for s in others:
        size = len(other._hands[s])
        other._hands[s], hidden = hidden[:size], hidden[size:]
    other._stock = hidden
    return other


def first_trick_view(game: str, players: int, seed: int) -> TrickView:
    """The view of the seat to act first in a new trick-family game."""
    state = new_game(game, players, seed)
    seat = state.to_act
    assert seat is not None
    view = state.view(seat)
    assert isinstance(view, TrickView)
    return view
