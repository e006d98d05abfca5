"""A pure, deterministic rules engine for the Мушка family (RULES.md), exporting RECORD.md.

>>> from engine import new_game
>>> state = new_game("mushka", 3, seed=7)
>>> state.to_act is not None
True
"""

from engine.cards import Card, Rank, Suit
from engine.chance import Chance, SeededChance, StackedChance
from engine.core import Line, Result, Seat, State, View
from engine.errors import (
    EngineError,
    IllegalAction,
    InvalidNotation,
    InvalidOption,
    InvalidRecord,
    Refusal,
)
from engine.games import GAMES, new_game
from engine.lines import LineKind
from engine.record import read_records, replay, write_jsonl
from engine.spec import GameSpec

__all__ = [
    "GAMES",
    "Card",
    "Chance",
    "EngineError",
    "GameSpec",
    "IllegalAction",
    "InvalidNotation",
    "InvalidOption",
    "InvalidRecord",
    "Line",
    "LineKind",
    "Rank",
    "Refusal",
    "Result",
    "Seat",
    "SeededChance",
    "StackedChance",
    "State",
    "Suit",
    "View",
    "new_game",
    "read_records",
    "replay",
    "write_jsonl",
]
