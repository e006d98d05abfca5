"""Computer players: policies that pick a legal action from what a seat may know.

A policy sees only ``state.view(seat)`` and draws from its own generator, never the game's
(STYLE.md §6), so replaying a log reproduces the deals whether or not the players are re-run.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine.core import View
from engine.players.basic import random_action
from engine.players.trick import trick_policy

Policy = Callable[[View[Any], random.Random], Any]
"""``policy(view, rng) -> action`` for the seat of ``view`` (one of ``view.legal``)."""


def policy_for(family: str) -> Policy:
    """The simulator's player for a game family: sensible where random play never ends."""
    if family == "trick":
        return trick_policy
    return lambda view, rng: random_action(view.legal, rng)


__all__ = ["Policy", "policy_for", "random_action", "trick_policy"]
