"""Perfect-Information Monte Carlo for the computer players of Копилка, Лентюрлю, Кончинка.

A *world* is a full game state consistent with what one seat knows: the unseen cards are dealt
at random to the other hands and the stock (each family's module builds it from the view). Every
candidate action is applied to the same worlds (common samples reduce the variance of the
comparison) and the game is played on by a fast rollout policy through the engine itself;
the candidate with the best mean value for the seat wins, ties to the earlier candidate.

The budget is a count of rollouts (never a clock): the same view and generator give the same
choice on any machine.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from engine.cards import Card

W = TypeVar("W")
A = TypeVar("A")


@dataclass(slots=True)
class Work:
    """Actions simulated so far by one decision's searches and rollouts: its iteration count
    (what ``bench/engine_cost.py`` divides the decision's time by). Every family's ``normal``
    makes one through its module's name ``Work``, so that the bench can count."""

    done: int = 0


@dataclass(frozen=True, slots=True)
class ScoredMoves(Generic[A]):
    """One decision's search: its candidates, in the search's order, each with its value summed
    over the ``samples`` worlds every candidate met (the seat's own terms). ``best`` is the
    choice a level makes: the best sum, ties to the earlier candidate; a lone candidate is
    returned unsearched (``samples`` 0). The hints read the same figures (:mod:`.advice`).
    ``won`` and ``lost``, where a search keeps them: per candidate, the worlds in which the seat
    won (another seat won) what the search prices apart from the deal's own figures — the trick
    family's pulka, its count brought to zero (no ``lost``: another's zero is only a count
    left); Кончинка's game (:data:`.konchinka.WIN_BONUS` either way)."""

    actions: tuple[A, ...]
    totals: tuple[float, ...]
    samples: int
    won: tuple[int, ...] = ()
    lost: tuple[int, ...] = ()

    @staticmethod
    def only(action: A) -> ScoredMoves[A]:
        """A decision with one candidate: nothing searched."""
        return ScoredMoves((action,), (0.0,), 0)

    def best(self) -> A:
        totals = self.totals
        return self.actions[max(range(len(totals)), key=lambda i: (totals[i], -i))]

    def means(self) -> tuple[float, ...]:
        """Each candidate's mean value over the worlds (0 where nothing was searched)."""
        n = self.samples or 1
        return tuple(t / n for t in self.totals)


@dataclass(slots=True)
class WorldChance:
    """A world's chance: random picks (Копилка's takes) from the player's generator, and no
    next deal, so that a rollout ends with the deal (the future deals are not searched)."""

    rng: random.Random = field(default_factory=random.Random)

    def shuffled(self, cards: Sequence[Card]) -> list[Card]:
        raise AssertionError("a world deals no further deal")

    def choice(self, options: Sequence[Card]) -> Card:
        return self.rng.choice(options)

    def ready(self) -> bool:
        return False


def step(state: Any, seat: int, action: object) -> None:
    """Apply a legal ``action`` as ``apply`` does, without its checks and record copies.

    Only for rollouts on a world (the action comes from the world's own legal actions):
    the engine's ``_perform`` and chance steps run unchanged.
    """
    state._version += 1
    state._perform(seat, action)
    state._run_chance()


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
    evaluate: Callable[[W, Any], float],
    samples: int,
    rng: random.Random,
) -> Any:
    """The candidate with the best mean ``evaluate(world, candidate)`` over ``samples`` worlds.

    Every candidate meets the same worlds: ``sample`` is called once per candidate with a
    generator seeded alike (a fresh world is cheaper to build than a state to clone), so the
    deals and the later random events agree. One candidate is returned without a search.
    """
    if len(candidates) == 1:
        return candidates[0]
    totals = [0.0] * len(candidates)
    for _ in range(samples):
        seed = rng.getrandbits(64)
        for i, action in enumerate(candidates):
            totals[i] += evaluate(sample(random.Random(seed)), action)
    best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
    return candidates[best]
