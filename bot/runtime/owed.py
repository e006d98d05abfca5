"""What an action owes a chat (the durable outbox): written in the action's own unit
of work, so that a kill can lose no deal's result, no match's result and no notice the group was
to see, however long it waited behind Telegram's limits.

An entry is the screen as data, not as text: a deal's result and a match's result are named by
the table, the match and the move, and drawn again from the action log when a restart finds them
still owed (:meth:`bot.runtime.redraw.Redraw.owed`); a notice keeps its message id and plain
parameters. The entry's ``ref`` is its own name (unique), its ``key`` the message key it shows
under (None: a one-off post).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from bot.keys import MessageKey, OutboxKey
from bot.runtime.outcome import Note, keys
from bot.storage.protocol import Writes
from bot.storage.rows import OwedRef, TableRow
from engine.core import Line
from engine.lines import LineKind, has


class OwedKind(StrEnum):
    DEAL = "deal"  # a deal's result: {"table", "match", "moves"}
    RESULT = "result"  # a match's result: {"table", "match"}
    NOTE = "note"  # a notice to the group: {"table", "msgid", "params", "locale", "thread"}


@dataclass(frozen=True, slots=True)
class Owing:
    """One entry an action owes, as its unit of work writes it."""

    ref: str
    chat_id: int
    key: OutboxKey | None
    what: dict[str, Any]

    @property
    def owed(self) -> OwedRef:
        return OwedRef(self.ref)

    async def write(self, tx: Writes) -> OwedRef:
        await tx.owe(self.ref, self.chat_id, self.key, json.dumps(self.what, ensure_ascii=False))
        return self.owed


def deal(row: TableRow, match_no: int, moves: int) -> Owing:
    """The result of the deal that ended at move ``moves`` of match ``match_no``."""
    key = MessageKey.deal(row.id, match_no, moves)
    what = {"kind": OwedKind.DEAL, "table": row.id, "match": match_no, "moves": moves}
    return Owing(str(key), row.chat_id, key, what)  # its ref: the key's text


def result(row: TableRow, match_no: int) -> Owing:
    """The result of match ``match_no`` (its message is the table's result key)."""
    what = {"kind": OwedKind.RESULT, "table": row.id, "match": match_no}
    return Owing(f"result:{row.id}:{match_no}", row.chat_id, keys(row.id).result, what)


def note(row: TableRow, tag: str, screen: Note) -> tuple[Note, Owing]:
    """A notice to the group of table ``row``, and the entry that owes it (``tag``: what makes
    it one of its kind, e.g. the deal and seat of a hand-over: a notice told once)."""
    what = {
        "kind": OwedKind.NOTE,
        "table": row.id,
        "msgid": screen.msgid,
        "params": screen.params,
        "locale": screen.locale,
        "thread": screen.thread,
        "link": screen.link,
        "button": screen.button,
    }
    owing = Owing(f"note:{row.id}:{tag}", screen.chat_id, None, what)
    return dataclasses.replace(screen, owed=owing.owed), owing


def screen_of_note(chat_id: int, data: dict[str, Any], owed: OwedRef) -> Note:
    """A notice's entry drawn again (a restart found it still owed)."""
    return Note(
        chat_id,
        str(data["locale"]),
        str(data["msgid"]),
        dict(data.get("params") or {}),
        link=data.get("link"),
        button=str(data.get("button") or ""),
        thread=data.get("thread"),
        owed=owed,
    )


def owings(
    row: TableRow, match_no: int, moves: int, lines: Sequence[Line]
) -> dict[OwedKind, Owing]:
    """What an action owes the group, written in its unit of work: the result of a deal it
    ended, and of the match it ended (``moves``: the table's moves after it)."""
    owing: dict[OwedKind, Owing] = {}
    if has(lines, LineKind.DEAL_END):
        owing[OwedKind.DEAL] = deal(row, match_no, moves)
    if has(lines, LineKind.END):
        owing[OwedKind.RESULT] = result(row, match_no)
    return owing


def table_of(data: dict[str, Any] | None) -> int:
    """The table an entry's data names (0: none, an entry this bot can't read)."""
    return int(data["table"]) if data is not None else 0


def parse(what: str) -> dict[str, Any] | None:
    """An entry's data as written (None: not an entry of a kind this bot knows)."""
    try:
        data = json.loads(what)
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("kind") not in set(OwedKind):
        return None
    return data
