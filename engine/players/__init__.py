"""Computer players: policies that pick a legal action from what a seat may know.

A policy sees only ``state.view(seat)`` and draws from its own generator, never the game's
(STYLE.md §6), so replaying a log reproduces the deals whether or not the players are re-run.

:func:`computer` is the one entry point the bot and the duel script use: every game has the
levels of :data:`LEVELS`, each family's module (:mod:`engine.players.trick`,
:mod:`engine.players.kopilka`, :mod:`engine.players.lenturlu`, :mod:`engine.players.konchinka`)
offers them as its ``LEVELS`` mapping.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, Final

from engine.core import View
from engine.errors import InvalidOption
from engine.games import GAMES
from engine.players import konchinka, kopilka, lenturlu, trick
from engine.players.basic import random_action
from engine.players.trick import trick_policy

Policy = Callable[[View[Any, Any], random.Random], Any]
"""``policy(view, rng) -> action`` for the seat of ``view`` (one of ``view.legal``)."""

LEVELS: Final = ("easy", "normal", "hard")
"""The computer's levels, weakest first."""

_FAMILIES: Final[Mapping[str, Mapping[str, Policy]]] = {
    "trick": trick.LEVELS,
    "kopilka": kopilka.LEVELS,
    "lenturlu": lenturlu.LEVELS,
    "konchinka": konchinka.LEVELS,
}


def random_player(view: View[Any, Any], rng: random.Random) -> Any:
    """The baseline of the duel: a kind of action first, then one of that kind."""
    return random_action(view.legal, rng)


def computer(game: str, level: str = "normal") -> Policy:
    """The computer player of ``game`` at ``level`` (one of :data:`LEVELS`).

    Raises ``InvalidOption`` for an unknown game or level.
    """
    spec = GAMES.get(game)
    if spec is None:
        raise InvalidOption("unknown_game", game=game)
    levels = _FAMILIES[spec.family]
    if level not in levels:
        raise InvalidOption("computer_level", level=level)
    return levels[level]


def policy_for(family: str) -> Policy:
    """The simulator's player for a game family: sensible where random play never ends."""
    if family == "trick":
        return trick_policy
    return random_player


__all__ = [
    "LEVELS",
    "Policy",
    "computer",
    "policy_for",
    "random_action",
    "random_player",
    "trick_policy",
]
