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
