"""Perfect-Information Monte Carlo for the computer players of Копилка, Лентюрлю, Кончинка.

A *world* is a full game state consistent with what one seat knows: the unseen cards are dealt
at random to the other hands and the stock (each family's module builds it from the view). Every
candidate action is applied to a clone of the same worlds (common samples reduce the variance
of the comparison) and the game is played on by a fast rollout policy through the engine itself;
the candidate with the best mean value for the seat wins, ties to the earlier candidate.

The budget is a count of rollouts (never a clock): the same view and generator give the same
choice on any machine.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from engine.cards import Card
from engine.chance import StackedChance

W = TypeVar("W", bound="World")


class World(Protocol):
    """What PIMC needs of a state: a cheap clone and the engine's own ``apply``."""

    @property
    def to_act(self) -> int | None: ...

    def apply(self, seat: int, action: object) -> tuple[Any, ...]: ...

    def clone(self) -> Any: ...


def step(state: Any, seat: int, action: object) -> None:
    """Apply a legal ``action`` as ``apply`` does, without its checks and record copies.

    Only for rollouts on a world (the action comes from the world's own legal actions):
    the engine's ``_perform`` and chance steps run unchanged.
    """
    state._version += 1
    state._perform(seat, action)
    state._run_chance()


def no_more_deals() -> StackedChance:
    """A chance with no decks: a world's deal ends its rollout (no next deal is dealt)."""
    return StackedChance()


def deal_unseen(
    unseen: Sequence[Card], sizes: Sequence[int], rng: random.Random
) -> list[list[Card]]:
    """Shuffle ``unseen`` and cut it into piles of ``sizes`` (their sum is ``len(unseen)``)."""
    cards = list(unseen)
    rng.shuffle(cards)
    piles: list[list[Card]] = []
    at = 0
    for size in sizes:
        piles.append(cards[at : at + size])
        at += size
    assert at == len(cards), (at, len(cards))
    return piles


def choose(
    candidates: Sequence[Any],
    sample: Callable[[random.Random], W],
    evaluate: Callable[[W, Any, random.Random], float],
    samples: int,
    rng: random.Random,
) -> Any:
    """The candidate with the best mean ``evaluate(clone of world, candidate, rng)``.

    ``samples`` worlds are drawn; each candidate is evaluated on a clone of every world (one
    candidate is returned without a search).
    """
    if len(candidates) == 1:
        return candidates[0]
    totals = [0.0] * len(candidates)
    for _ in range(samples):
        world = sample(rng)
        seed = rng.getrandbits(32)
        for i, action in enumerate(candidates):
            totals[i] += evaluate(world.clone(), action, random.Random(seed))
    best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
    return candidates[best]
