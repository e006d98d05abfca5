"""Typed access to record lines (RECORD.md §R1.3).

The record stays what RECORD.md says, a list of JSON objects; consumers read a line's type through
:class:`LineKind` and the helpers here instead of comparing a dict's ``"t"`` with a string.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import StrEnum

from engine.core import EndReason, Line
from engine.errors import InvalidRecord


class LineKind(StrEnum):
    """A line's ``t`` value (§R1.3), in the order the lines may appear."""

    GAME = "game"
    SEATS = "seats"
    EVENT = "event"
    DEAL = "deal"
    ACT = "act"
    DEAL_END = "deal_end"
    END = "end"


_KINDS = {kind.value: kind for kind in LineKind}
_REASONS = {reason.value: reason for reason in EndReason}


def kind_of(line: Line) -> LineKind | None:
    """The line's type, ``None`` when it has no known ``t``."""
    return _KINDS.get(line.get("t"))  # type: ignore[arg-type]


def is_kind(line: Line, kind: LineKind) -> bool:
    """Whether the line is of that type."""
    return line.get("t") == kind


def has(lines: Iterable[Line], kind: LineKind) -> bool:
    """Whether any of the lines is of that type."""
    return any(is_kind(line, kind) for line in lines)


def first(lines: Iterable[Line], kind: LineKind) -> Line | None:
    """The first line of that type, ``None`` when there is none."""
    return next((line for line in lines if is_kind(line, kind)), None)


def last(lines: Sequence[Line], kind: LineKind) -> Line | None:
    """The last line of that type, ``None`` when there is none."""
    return first(reversed(lines), kind)


def end_reason(line: Line) -> EndReason:
    """An ``end`` line's reason (§R5.6, §R5.7), read alone: a reader of the end that shows only
    some of its keys need not read the whole line (its family's ``RecordBook.end`` does). Not an
    ``end`` line, or a reason RECORD.md does not name: ``InvalidRecord``."""
    if not is_kind(line, LineKind.END):
        raise InvalidRecord(f"not an end line: {line.get('t')!r}")
    reason = line.get("reason")
    if not isinstance(reason, str) or reason not in _REASONS:
        raise InvalidRecord(f"no record ends for {reason!r}")
    return _REASONS[reason]
