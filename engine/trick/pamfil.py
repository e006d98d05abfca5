"""Мушка-Памфил: the JC, a wild trump; re-trump and announcement (RULES.md §1; seed 001)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.cards import A_HIGH, Card, Suit
from engine.core import Seat

from .options import MushkaOptions, PamfilOptions
from .rules import JC, Points, Privilege, Trick, Variant
from .scoring import tally


def score_plain(
    tricks: Sequence[Trick], holder: Seat | None, trump: Suit, privileged: Card, players: int
) -> Points:
    """§1.5.4 ``pamfil``: W = t, R = 5; the JC carries no trick bonus."""
    won, last = tally(tricks, players)
    remise = [5 if t == 0 else 0 for t in won]
    return won, list(won), remise, last


def announce_bonus(options: MushkaOptions) -> int:
    """§1.3.7: what each other seat pays the player who announces the JC."""
    assert isinstance(options, PamfilOptions)
    return options.pamfil_bonus


PAMFIL: Final = Variant(
    "pamfil",
    A_HIGH,  # §1.1.3
    JC,  # §1.1.4
    PamfilOptions,
    trump=None,  # §1.2.1: the turn-up
    privilege=Privilege.WILD,  # §1.4.2–§1.4.5 a
    score=score_plain,  # §1.5.4
    retrump=True,  # §1.2.4
    announce_bonus=announce_bonus,  # §1.3.7
)
"""Мушка-Памфил (RULES.md §1)."""
