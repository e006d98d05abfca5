"""RULES.md: placeholder until issue #4 lands."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.chance import Chance
from engine.core import GameSpec, Seat, State


@dataclass(frozen=True, slots=True)
class Options:
    pass


def _start(players: int, options: Any, seed: int, chance: Chance, prev: Seat | None) -> State:
    raise NotImplementedError("kopilka is being written (issue #4)")


SPEC = GameSpec("kopilka", "kopilka", (4,), Options, _start)
