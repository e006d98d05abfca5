"""The runtime's shape: concerns composed, never inherited; every lobby act and
every deadline kind has one handler."""

from __future__ import annotations

import ast
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast, get_args

from bot.callbacks import ACTS, EndAct, Kind, LobbyAct, SeatAct
from bot.coordination.locks import Turn
from bot.runtime.absent import TIMER_KINDS
from bot.runtime.chat_commands import BotRemoved
from bot.runtime.commands import Command, Guard
from bot.runtime.guards import GUARDS
from bot.runtime.handle import Runtime
from bot.runtime.handlers import DEADLINE_KINDS, HANDLERS, LOBBY_ACTS
from bot.runtime.lock_keys import ChatKey, ChatTablesKey, TableKey, UserTablesKey
from bot.runtime.outcome import Outcome
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
    assert ACTS[Kind.LOBBY] == frozenset(LobbyAct) == frozenset("jeaovtsckxbnwmdyu")
    assert ACTS[Kind.END] == frozenset(EndAct) == frozenset("rfg")
    assert frozenset(SeatAct) == frozenset("MROWPTH") <= ACTS[Kind.HAND]


def test_every_lobby_act_and_deadline_kind_has_a_handler() -> None:
    assert set(LOBBY_ACTS) == set(LobbyAct)
    assert set(DEADLINE_KINDS) == set(DeadlineKind)  # no default: a computer's move is named
    timers = {DeadlineKind.REMIND, DeadlineKind.QUIET, DeadlineKind.TURN, DeadlineKind.IDLE}
    assert timers == TIMER_KINDS


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


@dataclass
class _Row:
    id: int


class _Tables:
    """A repository's reads of which tables a chat has open, or a user sits at."""

    def __init__(self, chat: list[int], user: list[int]) -> None:
        self.chat, self.user = chat, user

    async def open_tables(self, chat_id: int | None = None) -> list[_Row]:
        return [_Row(i) for i in self.chat]

    async def tables_of_user(self, user_id: int) -> list[_Row]:
        return [_Row(i) for i in self.user]

    async def table(self, table_id: int) -> None:
        return None  # gone meanwhile: nothing to do under its lock


class _Taken:
    """Locks that note the order they are taken in."""

    shared = False

    def __init__(self) -> None:
        self.taken: list[int] = []

    @asynccontextmanager
    async def hold(self, table_id: int) -> AsyncIterator[Turn]:
        self.taken.append(table_id)
        yield Turn()


async def test_several_locks_are_taken_in_one_order() -> None:
    """A chat's lock before its tables', tables by id, whatever order storage lists them in:
    two commands that lock several tables never wait on each other."""
    nothing = cast(Any, None)
    locks = _Taken()
    repo = cast(Any, _Tables(chat=[7, 3, 5], user=[9, 2]))
    runtime = Runtime(repo, nothing, nothing, nothing, locks=locks)
    assert await runtime.handle(BotRemoved(-100)) == Outcome()
    assert locks.taken == [-100, 3, 5, 7]
    locks.taken.clear()
    loads, keys = await runtime._locks(UserTablesKey(1))
    assert loads is None and keys == [TableKey(2), TableKey(9)]
    loads, keys = await runtime._locks(ChatTablesKey(-100))
    assert keys == [ChatKey(-100), TableKey(3), TableKey(5), TableKey(7)]
