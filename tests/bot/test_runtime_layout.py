"""The runtime's shape (issue #31): concerns composed, never inherited; every lobby act and
every deadline kind has one handler."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import get_args

from bot.callbacks import ACTS, EndAct, Kind, LobbyAct, SeatAct
from bot.runtime.absent import TIMER_KINDS
from bot.runtime.commands import Command, Guard
from bot.runtime.guards import GUARDS
from bot.runtime.handlers import DEADLINE_KINDS, HANDLERS, LOBBY_ACTS
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
    assert set(LOBBY_ACTS) == set(LobbyAct)
    assert set(DEADLINE_KINDS) == set(DeadlineKind)  # no default: a computer's move is named
    assert {DeadlineKind.REMIND, DeadlineKind.TURN, DeadlineKind.IDLE} == TIMER_KINDS


def test_every_command_has_one_handler_and_every_guard_a_check() -> None:
    assert set(HANDLERS) == set(get_args(Command))
    assert set(GUARDS) == set(Guard)


def test_only_handle_takes_a_lock() -> None:
    """The lock is ``handle``'s: no handler or concern of bot/runtime/ takes one (tables.py
    holds the lock's implementation, ``Context.hold``)."""
    holding = sorted(p.name for p in RUNTIME.glob("*.py") if ".hold(" in p.read_text())
    assert holding == ["handle.py", "tables.py"]


def test_the_front_ends_reach_the_runtime_by_handle_alone() -> None:
    """No facade: a router (or the composition root) changes a table through ``handle`` only;
    what changes nothing it reads from ``queries``."""
    fronts = [*(RUNTIME.parent / "routers").glob("*.py"), RUNTIME.parent / "app.py"]
    reached = set()
    for path in fronts:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and ast.unparse(node.value).endswith("runtime"):
                reached.add(node.attr)
    assert reached <= {"handle", "queries", "ctx"}
    assert "handle" in reached
    assert not (RUNTIME / "runtime.py").exists()
