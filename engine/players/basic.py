"""The plain random player."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

A = TypeVar("A")


def random_action(legal: Sequence[A], rng: random.Random) -> A:
    """A random legal action: first a kind of action (its verb), then one of that kind.

    Uniform over all actions would almost never pass in the trick family (one ``pass`` against
    up to 32 exchanges); choosing the verb first plays like a person deciding what to do, then
    how.
    """
    kinds: dict[str, list[A]] = {}
    for action in legal:
        kinds.setdefault(str(action).split(" ", 1)[0], []).append(action)
    return rng.choice(rng.choice(list(kinds.values())))
