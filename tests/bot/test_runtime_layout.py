"""The runtime's shape (issue #31): concerns composed, never inherited; every lobby act and
every deadline kind has one handler."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, cast

from bot.callbacks import ACTS, EndAct, Kind, LobbyAct, SeatAct
from bot.runtime.absent import TIMER_KINDS
from bot.runtime.runtime import TableRuntime
from bot.storage.rows import DeadlineKind

RUNTIME = Path(__file__).resolve().parents[2] / "bot" / "runtime"


def runtime_classes() -> dict[str, list[str]]:
    """Every class of bot/runtime/ with the names of its bases."""
    out: dict[str, list[str]] = {}
    for path in RUNTIME.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef):
                out[node.name] = [ast.unparse(b) for b in node.bases]
    return out


def test_no_runtime_class_inherits_another() -> None:
    classes = runtime_classes()
    inherited = {name: bases for name, bases in classes.items() if set(bases) & set(classes)}
    assert inherited == {}


def test_the_wire_codes_are_the_enums() -> None:
    assert ACTS[Kind.LOBBY] == frozenset(LobbyAct) == frozenset("jeaovsckxbnwmdy")
    assert ACTS[Kind.END] == frozenset(EndAct) == frozenset("rfg")
    assert frozenset(SeatAct) == frozenset("MROWP") <= ACTS[Kind.HAND]


def test_every_lobby_act_and_deadline_kind_has_a_handler() -> None:
    nothing = cast(Any, None)
    runtime = TableRuntime(nothing, nothing, nothing)
    assert set(runtime.presses.lobby_acts) == set(LobbyAct)
    assert set(runtime.presses.deadline_kinds) == {
        DeadlineKind.LOBBY,
        DeadlineKind.STARTING,
        DeadlineKind.CLOSE,
        DeadlineKind.NOTIFY,
        DeadlineKind.OWED,
        *TIMER_KINDS,
    }


def test_toggle_gap_set_on_the_facade_reaches_the_seats() -> None:
    nothing = cast(Any, None)
    runtime = TableRuntime(nothing, nothing, nothing)
    runtime.toggle_gap = 0.0
    assert runtime.absent.toggle_gap == 0.0


def test_cards_gap_set_on_the_facade_reaches_the_presses() -> None:
    nothing = cast(Any, None)
    runtime = TableRuntime(nothing, nothing, nothing)
    runtime.cards_gap = 0.0
    assert runtime.presses.cards_gap == 0.0
