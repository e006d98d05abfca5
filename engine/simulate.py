"""Random legal playouts (the simulator of ``python -m engine simulate``)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import TypeVar

from engine.core import Line, State
from engine.games import new_game

MAX_ACTIONS = 200_000
"""A bound on any one game's length; random play ends every game of RULES.md far sooner."""

A = TypeVar("A")


def random_action(legal: Sequence[A], pick: random.Random) -> A:
    """A random legal action: first a kind of action (its verb), then one of that kind.

    Uniform over all actions would almost never pass in the trick family (one ``pass`` against
    up to 32 exchanges), and with 7 players and 5 tricks the remises then outrun the tricks and
    the pulka never ends. Choosing the verb first plays like a person deciding what to do, then
    how.
    """
    kinds: dict[str, list[A]] = {}
    for action in legal:
        kinds.setdefault(str(action).split(" ", 1)[0], []).append(action)
    return pick.choice(pick.choice(list(kinds.values())))


def playout(state: State, pick: random.Random) -> State:
    """Play ``state`` to its end with uniformly random legal actions."""
    for _ in range(MAX_ACTIONS):
        seat = state.to_act
        if seat is None:
            return state
        state.apply(seat, random_action(state.legal_actions(seat), pick))
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
