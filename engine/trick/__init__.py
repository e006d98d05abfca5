"""The trick family: classic Мушка, Памфил, Шутиха, Мистигри (RULES.md §1). Placeholder."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.chance import Chance
from engine.core import GameSpec, Seat, State
from engine.options import bool_option, int_option


@dataclass(frozen=True, slots=True)
class MushkaOptions:
    target: int = int_option(25, 5, 100)
    pulka_fee: int = int_option(0, 0, 1_000_000)
    point_value: int = int_option(1, 0, 1_000_000)
    must_trump: bool = bool_option(False)


def _start(players: int, options: Any, seed: int, chance: Chance, prev: Seat | None) -> State:
    raise NotImplementedError("the trick family is being written (issue #2)")


TRICK_SPECS = (GameSpec("mushka", "trick", (3, 4, 5, 6, 7), MushkaOptions, _start),)
