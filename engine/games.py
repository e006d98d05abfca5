"""The registry of games and :func:`new_game` (RULES.md table of §0)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from engine import konchinka, kopilka, lenturlu
from engine.chance import Chance, SeededChance
from engine.core import Seat, State
from engine.errors import InvalidOption
from engine.events import RecordBook
from engine.options import parse_options
from engine.spec import GameSpec
from engine.trick import TRICK_SPECS

GAMES: Final[Mapping[str, GameSpec]] = MappingProxyType(
    {
        **{spec.name: spec for spec in TRICK_SPECS},
        kopilka.SPEC.name: kopilka.SPEC,
        lenturlu.SPEC.name: lenturlu.SPEC,
        konchinka.SPEC.name: konchinka.SPEC,
    }
)
"""Every game by its engine name, in RULES.md order."""


def record_book(game: str) -> RecordBook:
    """The typed lines of ``game``'s records (its family's :class:`RecordBook`): the one parser
    of its lines, events and ``end`` (raises ``InvalidOption`` for an unknown game)."""
    spec = GAMES.get(game)
    if spec is None:
        raise InvalidOption("unknown_game", game=game)
    return spec.book


def new_game(
    game: str,
    players: int,
    seed: int,
    options: Mapping[str, object] | None = None,
    *,
    chance: Chance | None = None,
    prev_dealer: Seat | None = None,
) -> State:
    """Start a game: draw the first dealer (or continue a series after ``prev_dealer``), deal.

    Raises ``InvalidOption`` for an unknown game, a seat count the game does not allow, or an
    unknown or out-of-range option.
    """
    spec = GAMES.get(game)
    if spec is None:
        raise InvalidOption("unknown_game", game=game)
    if players not in spec.seat_counts:
        raise InvalidOption("seat_count", game=game, players=players)
    if prev_dealer is not None and not 0 <= prev_dealer < players:
        raise InvalidOption("prev_dealer", prev_dealer=prev_dealer)
    typed = parse_options(spec.options_type, options)
    return spec.start(players, typed, seed, chance or SeededChance.from_seed(seed), prev_dealer)
