"""Random legal playouts (the simulator of ``python -m engine simulate``)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping

from engine.core import Line, State
from engine.games import GAMES, new_game
from engine.players import policy_for, random_action

MAX_ACTIONS = 200_000
"""A bound on any one game's length; simulated play ends every game far sooner."""


def playout(state: State, pick: random.Random) -> State:
    """Play ``state`` to its end with the family's simulated player (:mod:`engine.players`)."""
    policy = policy_for(GAMES[state.game].family)
    for _ in range(MAX_ACTIONS):
        seat = state.to_act
        if seat is None:
            return state
        state.apply(seat, policy(state.view(seat), pick))
    raise AssertionError(f"{state.game}: no end after {MAX_ACTIONS} actions")


def simulate(
    game: str, players: int, games: int, seed: int, options: Mapping[str, object] | None = None
) -> Iterator[list[Line]]:
    """Records of ``games`` random games; game i uses seed ``seed + i``.

    The players' choices come from their own generator (STYLE.md §6), never the game's.
    """
    for i in range(games):
        state = new_game(game, players, seed + i, options)
        yield playout(state, random.Random(f"{seed + i}:players")).record()


__all__ = ["MAX_ACTIONS", "playout", "random_action", "simulate"]
