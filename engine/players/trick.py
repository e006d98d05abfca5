"""A simple player for the trick family: plays strong hands, passes weak ones (RULES.md §1.3).

Pure random play does not end a pulka reliably: with many players nearly everyone plays, the
remises (§1.5) outrun the five tricks and the counts climb for ever (Памфил worst, whose JC earns
no bonus). Passing weak hands keeps the table small, as real players do. Trick play stays random.
Seed 000's playing advice (§1.4.9: what to exchange, keep trumps …) is advice, not a rule: it
belongs here, in the players, never in the rules.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

from engine.cards import Card, rank_index
from engine.core import View
from engine.players import trick_normal
from engine.players.basic import random_action
from engine.players.trick_model import BLUFF, PLAY_STRENGTH
from engine.trick.actions import ANNOUNCE, PASS, Announce, Exchange, Pass, TrickAction, card_mask
from engine.trick.rules import TrickPhase
from engine.trick.variant import VARIANTS
from engine.trick.view import TrickView


def trick_policy(view: View[Any, Any], rng: random.Random) -> TrickAction:
    """Pick one of ``view.legal`` for the seat of a trick-family view."""
    assert isinstance(view, TrickView)
    legal = view.legal
    if view.phase != TrickPhase.DECLARE:
        return random_action(legal, rng)
    kinds = {type(a) for a in legal}  # one pass (dozens of exchanges: ``in`` would compare each)
    if Announce in kinds:
        return ANNOUNCE
    strong = _strong_cards(view)
    worth = sum(2 if c == view.privileged else 1 for c in strong)
    weak_hand = worth < PLAY_STRENGTH + view.declared.count("play")
    if Pass in kinds and weak_hand and rng.random() >= BLUFF:
        return PASS
    exchanges = [a for a in legal if isinstance(a, Exchange) and not a.up]
    if not exchanges:
        return random_action(legal, rng)
    keep = card_mask(strong)
    fitting = [a for a in exchanges if not a.mask & keep]  # none of the strong cards
    most = max(len(a.cards) for a in fitting)
    return rng.choice([a for a in fitting if len(a.cards) == most])


_STRENGTH: Final = MappingProxyType({g: rank_index(v.order) for g, v in VARIANTS.items()})


def _strong_cards(view: TrickView) -> list[Card]:
    order = VARIANTS[view.game].order
    strength = _STRENGTH[view.game]
    top = strength[order[1]]  # the two highest ranks of the game's order
    return [
        c
        for c in view.hand
        if c == view.privileged or c.suit is view.trump or strength[c.rank] >= top
    ]


def normal_policy(view: View[Any, Any], rng: random.Random) -> TrickAction:
    """The ``normal`` level: determinized search (:mod:`engine.players.trick_normal`)."""
    assert isinstance(view, TrickView)
    return trick_normal.normal_policy(view, rng)


def hard_policy(view: View[Any, Any], rng: random.Random) -> TrickAction:
    """The ``hard`` level: the same search on inferred deals, at a larger budget."""
    assert isinstance(view, TrickView)
    return trick_normal.hard_policy(view, rng)


LEVELS: Final[Mapping[str, Any]] = {
    "easy": trick_policy,
    "normal": normal_policy,
    "hard": hard_policy,
}
"""The trick family's levels: ``easy`` the simple player above, ``normal`` determinized
search, ``hard`` the same search with inference (:mod:`engine.players.trick_infer`)."""
