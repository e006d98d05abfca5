"""Кончинка (RULES.md §4; RECORD.md §R9): capture by rank and sums, 2–4 players, 52 cards."""

from __future__ import annotations

from typing import Any

from engine.chance import Chance
from engine.core import GameSpec, Seat, State
from engine.konchinka.actions import Capture, KonchinkaAction, Sweep, Trail, parse_action
from engine.konchinka.options import KonchinkaOptions
from engine.konchinka.state import KonchinkaState, KonchinkaView

Options = KonchinkaOptions


def _start(players: int, options: Any, seed: int, chance: Chance, prev: Seat | None) -> State:
    assert isinstance(options, KonchinkaOptions)
    return KonchinkaState.start(players, options, seed, chance, prev)


SPEC = GameSpec("konchinka", "konchinka", (2, 3, 4), KonchinkaOptions, _start)

__all__ = [
    "SPEC",
    "Capture",
    "KonchinkaAction",
    "KonchinkaOptions",
    "KonchinkaState",
    "KonchinkaView",
    "Options",
    "Sweep",
    "Trail",
    "parse_action",
]
