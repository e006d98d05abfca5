"""A simple player for the trick family: plays strong hands, passes weak ones (RULES.md §1.3).

Pure random play does not end a pulka reliably: with many players nearly everyone plays, the
remises (§1.5) outrun the five tricks and the counts climb for ever (Памфил worst, whose JC earns
no bonus). Passing weak hands keeps the table small, as real players do. Trick play stays random.
"""

from __future__ import annotations

import random
from typing import Any

from engine.cards import Card, rank_index
from engine.core import View
from engine.players.basic import random_action
from engine.trick.actions import Announce, Exchange, Pass, TrickAction
from engine.trick.variant import VARIANTS
from engine.trick.view import TrickView

PLAY_STRENGTH = 2
"""A hand worth this much (trumps, top cards, the privileged card) is played when nobody plays
yet; each player already in asks one point more, so few share the five tricks."""

BLUFF = 0.15
"""How often a weak hand is played anyway."""


def trick_policy(view: View[Any], rng: random.Random) -> TrickAction:
    """Pick one of ``view.legal`` for the seat of a trick-family view."""
    assert isinstance(view, TrickView)
    legal = view.legal
    if view.phase != "declare":
        return random_action(legal, rng)
    if Announce() in legal:
        return Announce()
    strong = _strong_cards(view)
    worth = sum(2 if c == view.privileged else 1 for c in strong)
    weak_hand = worth < PLAY_STRENGTH + view.declared.count("play")
    if Pass() in legal and weak_hand and rng.random() >= BLUFF:
        return Pass()
    exchanges = [a for a in legal if isinstance(a, Exchange) and not a.up]
    if not exchanges:
        return random_action(legal, rng)
    keep = set(strong)
    fitting = [a for a in exchanges if keep.isdisjoint(a.cards)]
    most = max(len(a.cards) for a in fitting)
    return rng.choice([a for a in fitting if len(a.cards) == most])


def _strong_cards(view: TrickView) -> list[Card]:
    order = VARIANTS[view.game].order
    strength = rank_index(order)
    top = strength[order[1]]  # the two highest ranks of the game's order
    return [
        c
        for c in view.hand
        if c == view.privileged or c.suit is view.trump or strength[c.rank] >= top
    ]
