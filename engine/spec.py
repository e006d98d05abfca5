"""The static description of one game (OpenSpiel's ``Game``): its name, family, seat counts,
options, the state type that plays it and its family's typed record lines. Apart from
:mod:`engine.core` so that the core imports neither the skeleton nor the record lines."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.chance import Chance
from engine.core import Seat
from engine.events import RecordBook
from engine.skeleton import StateBase


@dataclass(frozen=True, slots=True)
class GameSpec:
    """The static description of one game (OpenSpiel's ``Game``)."""

    name: str
    family: str  # "trick", "kopilka", "lenturlu", "konchinka"
    seat_counts: tuple[int, ...]
    options_type: type[Any]
    state_type: type[StateBase[Any, Any, Any, Any]]
    book: RecordBook  # the family's typed record lines (engine/<family>/events.py)

    def start(
        self, players: int, options: Any, seed: int, chance: Chance, prev_dealer: Seat | None
    ) -> StateBase[Any, Any, Any, Any]:
        """The one way to start a game (after :func:`engine.new_game` checked the set-up)."""
        return self.state_type.start(self.name, players, options, seed, chance, prev_dealer)
