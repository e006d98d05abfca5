"""The simple trick player's parameters (:func:`engine.players.trick.trick_policy`), shared
with the searches that model the other seats as that player (:mod:`.trick_normal`,
:mod:`.trick_infer`)."""

from __future__ import annotations

from typing import Final

PLAY_STRENGTH: Final = 2
"""A hand worth this much (trumps, top cards, the privileged card) is played when nobody plays
yet; each player already in asks one point more, so few share the five tricks."""

BLUFF: Final = 0.15
"""How often a weak hand is played anyway."""


def worth_table(priv: int, trump: int, top: int) -> tuple[int, ...]:
    """Per search code (suit * 16 + strength, :mod:`.trick_sample`): what a card adds to a
    hand's worth as the simple player reads it — 2 the privileged card, 1 a trump (``trump``:
    its suit number) or a card of strength ``top`` or more, else 0."""
    return tuple(
        2 if c == priv else 1 if c >> 4 == trump or (c & 15) >= top else 0 for c in range(64)
    )
