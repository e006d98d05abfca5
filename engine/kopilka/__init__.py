"""Мушка-Копилка (RULES.md §2; RECORD.md §R7): exactly 4 players, 32 cards, the bank."""

from __future__ import annotations

from engine.core import GameSpec
from engine.kopilka.actions import Buy, KCard, KopilkaAction, KPass, Options, parse_action
from engine.kopilka.state import KopilkaState, KopilkaView, start

SPEC = GameSpec("kopilka", "kopilka", (4,), Options, start)

__all__ = [
    "SPEC",
    "Buy",
    "KCard",
    "KPass",
    "KopilkaAction",
    "KopilkaState",
    "KopilkaView",
    "Options",
    "parse_action",
]
