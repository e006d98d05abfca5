"""Classic Мушка: the AS privileged, a turn-up for trump (RULES.md §1; seed 000 rules 1–5)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.cards import A_HIGH, Card, Suit
from engine.core import Seat

from .options import MushkaOptions
from .rules import AS, Points, Privilege, Trick, Variant
from .scoring import tally


def score_held_bonus(
    tricks: Sequence[Trick], holder: Seat | None, trump: Suit, privileged: Card, players: int
) -> Points:
    """§1.5.3: t, or t+5 for the holder (2t+8 when its suit is trump); remise 5, holder 10.

    Мистигри scores the same with its KC (§1.5.4)."""
    won, last = tally(tricks, players)
    written = [0] * players
    remise = [0] * players
    for seat in range(players):
        t = won[seat]
        held = seat == holder
        if t == 0:
            remise[seat] = 10 if held else 5
        elif held and privileged.suit is trump:
            written[seat] = 2 * t + 8
        elif held:
            written[seat] = t + 5
        else:
            written[seat] = t
    return won, written, remise, last


MUSHKA: Final = Variant(
    "mushka",
    A_HIGH,  # §1.1.3
    AS,  # §1.1.4
    MushkaOptions,
    trump=None,  # §1.2.1: the turn-up
    privilege=Privilege.UNLED,  # §1.4.4–§1.4.6
    score=score_held_bonus,  # §1.5.3
)
"""Classic Мушка (RULES.md §1)."""
