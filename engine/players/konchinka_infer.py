"""Кончинка's worlds as the trails make them (RULES.md §4.3.5; ``KonchinkaView.trailed``).

A player may trail only when no card of his hand can capture: after his trail onto a table T,
every card he still holds from then captures nothing on T — only the cards he has drawn since
may. A world from :meth:`~engine.players.konchinka_sim.Seen.world` that gives a seat more cards
able to capture on its T than it has drawn since breaks a certain fact: it is kept with
probability :data:`CERTAIN` per card too many (next to none, never zero, so that a sample is
always found); after :data:`TRIES` draws the likeliest is kept. Counts only, never a clock.
"""

from __future__ import annotations

import random
from typing import Final

from engine.cards import DECK_52, Rank
from engine.konchinka import rules
from engine.konchinka.view import KonchinkaView

from .konchinka_sim import CODE, KonchinkaSim, Seen
from .rejection import keep_likely

CERTAIN: Final = 0.02
TRIES: Final = 12

Fact = tuple[int, frozenset[int], int]
"""A seat, the codes of the unseen cards that could capture on its trail's table, the cards it
has drawn since."""


def facts(view: KonchinkaView, unseen: frozenset[int]) -> tuple[Fact, ...]:
    """What the other seats' trails tell, among the ``unseen`` codes."""
    court = view.court_values
    out: list[Fact] = []
    for seat, (table, since) in enumerate(view.trailed):
        if seat == view.seat or not table:
            continue
        able = frozenset(
            CODE[c]
            for c in DECK_52
            if CODE[c] in unseen
            and (
                (c.rank is Rank.JACK and not court)  # §4.3.4: a J sweeps a non-empty table
                or bool(rules.captures(c, table, court))
            )
        )
        if able:
            out.append((seat, able, since))
    return tuple(out)


def broken(world: KonchinkaSim, known: tuple[Fact, ...]) -> int:
    """Cards of the world's hands that could have captured on their seat's trail, beyond the
    cards drawn since."""
    return sum(
        max(0, sum(1 for c in world.hands[seat] if c in able) - since)
        for seat, able, since in known
    )


def likely_world(seen: Seen, known: tuple[Fact, ...], rng: random.Random) -> KonchinkaSim:
    """A world that keeps the trails' facts (as nearly as :data:`TRIES` draws find)."""
    if not known:
        return seen.world(rng)
    return keep_likely(
        lambda: seen.world(rng), lambda world: CERTAIN ** broken(world, known), rng, TRIES
    )


__all__ = ["CERTAIN", "TRIES", "Fact", "broken", "facts", "likely_world"]
