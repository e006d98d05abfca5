"""RECORD.md records: JSON Lines in and out, and replay (RECORD.md §R1, §R3, §R10).

:func:`replay` rebuilds a game from a record alone: the decks and random takes written in the
record feed a :class:`~engine.chance.StackedChance`, the ``act`` lines are applied in order, and
the caller may compare ``state.record()`` with the input line by line.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path

from engine.cards import Card
from engine.chance import StackedChance
from engine.core import EndReason, Line, State
from engine.errors import EngineError, InvalidRecord
from engine.kopilka.events import Taken
from engine.lines import LineKind, is_kind, kind_of


def dumps(line: Line) -> str:
    """One line of a record file, without the newline (compact, UTF-8 text)."""
    return json.dumps(line, ensure_ascii=False, separators=(",", ":"))


def write_jsonl(lines: Iterable[Line]) -> str:
    """Lines as JSON Lines text, each ended by a newline (§R1.1)."""
    return "".join(dumps(line) + "\n" for line in lines)


def read_jsonl(text: str) -> list[Line]:
    """Parse JSON Lines text into lines."""
    out: list[Line] = []
    for number, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            raise InvalidRecord(f"line {number} is blank")
        try:
            value = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise InvalidRecord(f"line {number} is not JSON: {exc}") from None
        if not isinstance(value, dict) or "t" not in value:
            raise InvalidRecord(f"line {number} is not a record line")
        out.append(value)
    return out


def split_records(lines: Iterable[Line]) -> Iterator[list[Line]]:
    """Split a file's lines into records, each from its ``game`` line to its ``end`` line."""
    current: list[Line] = []
    for line in lines:
        if is_kind(line, LineKind.GAME) and current:
            raise InvalidRecord("a record starts before the previous one ended")
        current.append(line)
        if is_kind(line, LineKind.END):
            yield current
            current = []
    if current:
        raise InvalidRecord("the last record has no end line")


def read_records(path: Path) -> list[list[Line]]:
    """All records of a JSON Lines file."""
    return list(split_records(read_jsonl(path.read_text(encoding="utf-8"))))


def is_chance_line(line: Line) -> bool:
    """Whether the line writes out a random outcome (§R3.2): a first-dealer draw, a deal's
    deck, a Копилка take. These lines alone give :func:`chance_of` what it replays."""
    kind = line["t"]
    return (
        (kind == LineKind.SEATS and bool(line.get("draw")))
        or kind == LineKind.DEAL
        or is_take(line)
    )


def is_take(line: Line) -> bool:
    return is_kind(line, LineKind.EVENT) and line.get("e") == Taken.KIND


def _abandoned(line: Line) -> bool:
    """Whether an ``end`` line is the abandoned one (§R5.7)."""
    return line.get("reason") == EndReason.ABANDONED


def chance_of(record: list[Line]) -> StackedChance:
    """The random outcomes a record writes out (§R3.2), ready to be replayed (``record`` may
    also be only its chance lines, :func:`is_chance_line`, in order)."""
    decks: list[list[Card]] = []
    picks: list[Card] = []
    for line in record:
        match kind_of(line):
            case LineKind.SEATS:
                decks.extend(
                    [Card.parse(c) for c in row if c is not None] for row in line.get("draw", [])
                )
            case LineKind.DEAL:
                decks.append([Card.parse(c) for c in line["deck"]])
            case LineKind.EVENT if is_take(line):
                picks.append(Card.parse(line["card"]))
            case _:
                pass
    abandoned = bool(record) and _abandoned(record[-1])
    return StackedChance.of(decks, picks, spare_picks=abandoned)


def begin(record: list[Line]) -> State:
    """The game of a record as it starts, before its first ``act`` (the first deal dealt), its
    chance the record's (:func:`chance_of`): a record cut after a ``deal_end`` deals no further.
    Raises ``InvalidRecord`` when the record does not start with a ``game`` line."""
    from engine.games import new_game  # the registry imports every game module

    if not record or not is_kind(record[0], LineKind.GAME):
        raise InvalidRecord("a record starts with its game line")
    head = record[0]
    seats = record[1] if len(record) > 1 and is_kind(record[1], LineKind.SEATS) else None
    prev = seats.get("prev_dealer") if seats is not None and seats.get("by") == "series" else None
    return new_game(
        head["game"],
        head["players"],
        head["seed"],
        head.get("options", {}),
        chance=chance_of(record),
        prev_dealer=prev,
    )


def replay(record: list[Line], *, through_end: bool = True) -> State:
    """Rebuild a game from its record; every ``act`` must be legal (§R4.4).

    With ``through_end`` an ``abandoned`` end line is applied too, where it stands (§R5.7: after
    any line — a deal that has no deck in the record is not dealt, lines the engine would write
    after that point are not). Raises ``InvalidRecord`` when the record does not start with a
    ``game`` line or an action is refused.
    """
    state = begin(record)
    for number, line in enumerate(record, 1):
        if is_kind(line, LineKind.ACT):
            try:
                state.apply(line["seat"], line["a"])
            except EngineError as exc:
                what = f"line {number}: {line['a']!r} by seat {line['seat']}"
                raise InvalidRecord(f"{what}: {exc}") from exc
        elif through_end and is_kind(line, LineKind.END) and _abandoned(line):
            state.abandon(at=number - 1)  # §R5.7: after any line
    return state
