"""How often a trick-family computer plays its hand, as the searches model the seats yet to
declare (:meth:`.trick_declare.Round.plays`): per game, a logistic model of what the seat sees
at its declaration, fitted to ``normal``'s own declarations in pulkas of ``normal`` seats.

The features (:func:`features`): the hand's worth as the simple player reads it (trumps, the
two top ranks, the privileged card counted twice; :func:`.trick_model.worth_table`, capped at
:data:`WORTH_CAP`), the seats already in (capped at :data:`PLAYS_CAP`), the seats declaring
after it, its count near zero (at most :data:`NEAR`) or far (above :data:`FAR`), and the seat
count. Forced declarations (the bound privileged card, the defending dealer, §1.3.3) are not
modelled: the search plays them.

Made by ``python bench/fit_declare.py --deals 12 --seeds 1 2 3 --write`` in three rounds
(2026-12-08, an AMD EPYC of 2 shared cores), since the model changes ``normal``'s own play:
round 1 from a soft simple-player threshold (bias -4.5, worth 3, seats in -3), round 2 with
``--damp 0.3``, round 3 with ``--damp 0.5``; the play rates settled by round 3
(docs/computers.md, "Pulkas end"). Fitted: round 3: --deals 12 --seeds 1 2 3 --damp 0.5
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Final

WORTH_CAP: Final = 6
PLAYS_CAP: Final = 3
NEAR: Final = 5
FAR: Final = 10

FEATURES: Final = ("bias", "worth", "plays", "later", "near", "far", "seats")
"""The coefficients' order (:func:`features`)."""

COEFFICIENTS: Final[Mapping[str, tuple[float, ...]]] = {
    "mushka": (1.424, 1.195, -0.223, -0.811, -1.122, -0.055, -0.047),
    "pamfil": (0.580, 1.537, -0.608, -1.401, 0.365, 0.102, 0.217),
    "shutikha": (0.735, 0.808, -0.046, -0.509, -0.536, 0.619, -0.048),
    "mistigri": (1.451, 1.219, -0.113, -0.861, -0.706, 0.011, -0.087),
}


def features(worth: int, plays: int, later: int, count: int, players: int) -> tuple[float, ...]:
    """A declaration as the model reads it (:data:`FEATURES`)."""
    return (
        1.0,
        float(min(worth, WORTH_CAP)),
        float(min(plays, PLAYS_CAP)),
        float(later),
        float(count <= NEAR),
        float(count > FAR),
        float(players - 3),
    )


def play_chance(game: str, x: tuple[float, ...]) -> float:
    """The chance a seat of ``game`` that sees ``x`` (:func:`features`) plays."""
    z = sum(c * v for c, v in zip(COEFFICIENTS[game], x, strict=True))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def chances(game: str, later: int, count: int, players: int) -> tuple[tuple[float, ...], ...]:
    """A seat's chance to play per hand's worth (0 … :data:`WORTH_CAP`) and seats already in
    (0 … :data:`PLAYS_CAP`): ``[worth][plays]``."""
    return tuple(
        tuple(
            play_chance(game, features(w, p, later, count, players)) for p in range(PLAYS_CAP + 1)
        )
        for w in range(WORTH_CAP + 1)
    )


__all__ = ["COEFFICIENTS", "FEATURES", "chances", "features", "play_chance"]
