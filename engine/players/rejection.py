"""Rejection sampling, the one way every ``*_infer`` module weighs its samples.

A sample drawn consistently with what is certain is kept with the model's probability of what
the seats did (``odds`` in 0 … 1); after ``tries`` draws the likeliest drawn is kept, so a
sample is always found. The kept samples follow the model's posterior. Counts only, never a
clock: the same generator gives the same samples.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TypeVar

S = TypeVar("S")


def keep_likely(
    draw: Callable[[], S],
    odds: Callable[[S], float],
    rng: random.Random,
    tries: int,
    *,
    roll_certain: bool = False,
) -> S:
    """A sample from ``draw`` kept with probability ``odds(sample)``; the likeliest of
    ``tries`` if none is. ``roll_certain``: draw the deciding number even for odds of 1 (the
    trick family's sampler does, and its measured strength was taken so)."""
    best: S | None = None
    best_odds = -1.0
    for _ in range(tries):
        sample = draw()
        p = odds(sample)
        if (p >= 1.0 and not roll_certain) or rng.random() < p:
            return sample
        if p > best_odds:
            best, best_odds = sample, p
    assert best is not None
    return best


__all__ = ["keep_likely"]
