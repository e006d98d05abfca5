"""Inference for Копилка's ``hard`` player: worlds sampled as the follows make them likely, not
only as the rules make them possible (RULES.md §2.4).

The model of the other seats: a follower who can take the trick takes it (the simple player
follows with its highest card of the suit; a searching one takes a trick worth taking). So a
seat that followed *below* the card winning the trick (``KopilkaView.ducked``,
:mod:`engine.kopilka.knowledge`) most likely holds no card of that suit above it — until it
receives a card of the suit or draws. Each world from
:meth:`~engine.players.kopilka_sim.KopilkaTable.consistent` is kept with probability
:data:`MISS` to the power of the cards that contradict this (rejection sampling: the kept worlds
follow the model's posterior); after :data:`TRIES` draws the likeliest drawn is kept. Counts
only, never a clock: the same view and generator give the same worlds.
"""

from __future__ import annotations

import random
from typing import Final

from engine.kopilka.view import KopilkaView

from .kopilka_sim import CODE, KopilkaSim, KopilkaTable
from .rejection import keep_likely

MISS: Final = 0.3
"""The chance the model gives a seat holding a card above one it followed below."""

TRIES: Final = 12
"""Worlds drawn for one sample at most before the likeliest of them is kept."""


def caps(view: KopilkaView) -> tuple[tuple[int, ...], ...]:
    """Per seat: the codes of the winning cards it followed below (one per suit)."""
    ducked = view.ducked or tuple(() for _ in view.hand_sizes)
    return tuple(tuple(CODE[c] for c in cards) for cards in ducked)


def contradictions(world: KopilkaSim, under: tuple[tuple[int, ...], ...], me: int) -> int:
    """Cards of the world's other hands above a winning card their seat followed below."""
    count = 0
    for seat, tops in enumerate(under):
        if seat == me or not tops:
            continue
        for c in world.hands[seat]:
            for top in tops:
                if c >> 3 == top >> 3 and c > top:
                    count += 1
    return count


def likely_world(
    table: KopilkaTable, under: tuple[tuple[int, ...], ...], rng: random.Random
) -> KopilkaSim:
    """A consistent world kept as likely as the follows make it."""
    if not any(under[s] for s in range(len(under)) if s != table.me):
        return table.consistent(rng)
    return keep_likely(
        lambda: table.consistent(rng),
        lambda world: MISS ** contradictions(world, under, table.me),
        rng,
        TRIES,
    )


__all__ = ["MISS", "TRIES", "caps", "contradictions", "likely_world"]
