"""Typed record lines (RECORD.md §R1.3, §R5): one frozen, slotted dataclass per line kind, read
from a record's JSON objects and written back to exactly them.

The record lines stay the truth — ``state.record()``, replay and the files are JSON objects —
and the typed lines are a view over them: a family's :class:`RecordBook` reads a line once
(:meth:`RecordBook.parse`, :meth:`RecordBook.events`, :meth:`RecordBook.end`) into typed fields
(seats as ints, cards as :class:`~engine.cards.Card`, suits and kinds as enums, lists as
tuples), and :meth:`Typed.line` gives the line back, key for key and in the same order.

The lines every game shares are here (``game``, ``seats``, ``deal``, ``act``, the abandoned
``end`` of §R5.7, the :class:`EndReason` of every ``end``); each family declares its events,
its ``deal_end`` and its ``end`` with its game (``engine/<family>/events.py``, its ``BOOK``), and
the registry gives a game's book (:func:`engine.games.record_book`). A line of a kind its family
does not know, a key missing or unknown (§R1.7), a value of the wrong type is refused with
:class:`~engine.errors.InvalidRecord` (§R10.1).

A class declares its keys as its fields, in the order the engine writes them; a field's type
says how its value reads (:func:`_reader`); :func:`key` names a JSON key that is not a Python
name (``from``), or marks a key written only when it has a value, or a JSON object read as
pairs.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum, StrEnum
from typing import Any, ClassVar, Final, Self, TypeVar, Union, get_args, get_origin, get_type_hints

from engine.cards import Card
from engine.core import EndReason, Line, Seat
from engine.errors import EngineError, InvalidRecord
from engine.lines import LineKind, kind_of

__all__ = [
    "Abandoned",
    "Act",
    "Deal",
    "DealEnd",
    "End",
    "EndReason",
    "Event",
    "Game",
    "LineObject",
    "OptionValue",
    "RecordBook",
    "RecordLine",
    "Seats",
    "SeatsBy",
    "Typed",
    "first_of",
    "key",
    "of_type",
    "typed",
]

_Read = Callable[[object], Any]
_Write = Callable[[Any], object]


# --- how a field reads and writes ---------------------------------------------------------------


class _Bad(ValueError):
    """A value that is not what its field's type says (turned into ``InvalidRecord``)."""


def key(
    name: str | None = None, *, optional: bool = False, pairs: bool = False
) -> Mapping[str, object]:
    """A field's ``metadata``: its JSON key when it is not the field's name (``from``);
    ``optional``: written only when not None, None when absent (a ``series`` seats line's
    ``prev_dealer``; the field's default is None); ``pairs``: a JSON object read as a tuple of
    (key, value) pairs, in its order."""
    return types.MappingProxyType({"key": name, "optional": optional, "pairs": pairs})


def _list(value: object) -> list[object]:
    if not isinstance(value, list):
        raise _Bad(f"{value!r} is not a list")
    return value


def _card(value: object) -> Card:
    if not isinstance(value, str):
        raise _Bad(f"{value!r} is not a card")
    card = Card.parse(value)
    if str(card) != value:  # §R2.1: no lower case, no spaces
        raise _Bad(f"{value!r} is not a card")
    return card


def _exact(tp: type) -> _Read:
    def read(value: object) -> object:
        if type(value) is not tp:  # a bool is not an int (§R1.6)
            raise _Bad(f"{value!r} is not {tp.__name__}")
        return value

    return read


def _reader(tp: Any) -> _Read:
    """How a value of type ``tp`` reads from JSON."""
    origin, args = get_origin(tp), get_args(tp)
    if origin in (Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        if len(inner) < len(args):  # X | None
            one = _reader(inner[0] if len(inner) == 1 else Union[tuple(inner)])  # noqa: UP007
            return lambda v: None if v is None else one(v)
        choices = tuple(inner)  # a union of JSON scalars (an option's value)

        def scalar(value: object) -> object:
            if type(value) not in choices:
                raise _Bad(f"{value!r} is none of {choices}")
            return value

        return scalar
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            each = _reader(args[0])
            return lambda v: tuple(each(x) for x in _list(v))
        parts = [_reader(a) for a in args]

        def fixed(value: object) -> tuple[object, ...]:
            items = _list(value)
            if len(items) != len(parts):
                raise _Bad(f"{value!r} has not {len(parts)} items")
            return tuple(read(x) for read, x in zip(parts, items, strict=True))

        return fixed
    if tp is Card:
        return _card
    if isinstance(tp, type) and issubclass(tp, Enum):
        enum: type[Enum] = tp

        def member(value: object) -> Enum:
            try:
                return enum(value)
            except ValueError:
                raise _Bad(f"{value!r} is not a {enum.__name__}") from None

        return member
    if isinstance(tp, type) and issubclass(tp, LineObject):
        row: type[LineObject] = tp

        def obj(value: object) -> LineObject:
            if not isinstance(value, dict):
                raise _Bad(f"{value!r} is not an object")
            return row.of(value)

        return obj
    if tp in (int, bool, str):
        return _exact(tp)
    raise TypeError(f"no reader for {tp!r}")


def _pairs(read: _Read) -> _Read:
    """A JSON object (or null) read as its (key, value) pairs."""

    def pairs(value: object) -> object:
        if value is not None and not isinstance(value, dict):
            raise _Bad(f"{value!r} is not an object")
        return read(None if value is None else [[a, b] for a, b in value.items()])

    return pairs


def _write(value: Any) -> object:
    """A typed value as JSON (the inverse of :func:`_reader`)."""
    if isinstance(value, tuple):
        return [_write(v) for v in value]
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, LineObject):
        return value.line()
    return value


@dataclass(frozen=True, slots=True)
class _Key:
    """One field: its JSON key, its attribute, how it reads; ``optional``, ``pairs``: see
    :func:`key`."""

    key: str
    attr: str
    read: _Read
    optional: bool
    pairs: bool


@dataclass(frozen=True, slots=True)
class _Shape:
    """A typed class's keys in writing order."""

    keys: tuple[_Key, ...]
    names: frozenset[str]


T = TypeVar("T", bound="Typed")


def typed(cls: type[T]) -> type[T]:
    """Give a typed dataclass its keys (apply above ``@dataclass``)."""
    hints = get_type_hints(cls)
    keys = []
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]  # cls is a dataclass
        meta = f.metadata
        pairs = bool(meta.get("pairs"))
        read = _reader(hints[f.name])
        name = meta.get("key") or f.name
        optional = bool(meta.get("optional"))
        keys.append(_Key(name, f.name, _pairs(read) if pairs else read, optional, pairs))
    cls._shape = _Shape(tuple(keys), frozenset(k.key for k in keys))
    return cls


class Typed:
    """A typed JSON object: a record line or an object inside one (:class:`LineObject`)."""

    __slots__ = ()
    _shape: ClassVar[_Shape]

    def _head(self) -> Line:
        """The keys that say what the object is (a line's ``t``, an event's ``e``)."""
        return {}

    @classmethod
    def _describe(cls) -> str:
        return cls.__name__

    @classmethod
    def _check_head(cls, obj: Mapping[str, object]) -> None:
        """Refuse an object of another kind."""

    def line(self) -> Line:
        """The JSON object this was read from, key for key and in its order."""
        out = self._head()
        for k in self._shape.keys:
            value = getattr(self, k.attr)
            if value is None and k.optional:
                continue
            if k.pairs:
                out[k.key] = {str(_write(a)): _write(b) for a, b in value}
            else:
                out[k.key] = _write(value)
        return out

    @classmethod
    def of(cls, obj: Mapping[str, object]) -> Self:
        """Read the object; every key known and present, every value of its type."""
        cls._check_head(obj)
        shape = cls._shape
        extra = obj.keys() - shape.names - cls._head_keys()
        if extra:
            raise InvalidRecord(f"{cls._describe()}: unknown keys {sorted(extra)}")
        values: dict[str, object] = {}
        for k in shape.keys:
            if k.key not in obj:
                if not k.optional:
                    raise InvalidRecord(f"{cls._describe()}: no key {k.key!r}")
                continue
            try:
                values[k.attr] = k.read(obj[k.key])
            except (_Bad, EngineError) as exc:
                raise InvalidRecord(f"{cls._describe()}: key {k.key!r}: {exc}") from None
        return cls(**values)

    @classmethod
    def _head_keys(cls) -> frozenset[str]:
        return frozenset()


class LineObject(Typed):
    """An object inside a line (a ``deal_end``'s per-seat figures)."""

    __slots__ = ()


class RecordLine(Typed):
    """One record line of kind :attr:`T` (§R1.3)."""

    __slots__ = ()
    T: ClassVar[LineKind]

    def _head(self) -> Line:
        return {"t": self.T.value}

    @classmethod
    def _head_keys(cls) -> frozenset[str]:
        return frozenset({"t"})

    @classmethod
    def _check_head(cls, obj: Mapping[str, object]) -> None:
        if obj.get("t") != cls.T:
            raise InvalidRecord(f"{cls._describe()}: not a {cls.T.value!r} line: {obj.get('t')!r}")


class Event(RecordLine):
    """An ``event`` line (§R5.5) named :attr:`KIND`; each family's events derive from it."""

    __slots__ = ()
    T: ClassVar[LineKind] = LineKind.EVENT
    KIND: ClassVar[str]

    def _head(self) -> Line:
        return {"t": LineKind.EVENT.value, "e": self.KIND}

    @classmethod
    def _head_keys(cls) -> frozenset[str]:
        return frozenset({"t", "e"})

    @classmethod
    def _describe(cls) -> str:
        return f"event {cls.KIND!r}"

    @classmethod
    def _check_head(cls, obj: Mapping[str, object]) -> None:
        super()._check_head(obj)
        if obj.get("e") != cls.KIND:
            raise InvalidRecord(f"{cls._describe()}: not a {obj.get('e')!r} event")


class DealEnd(RecordLine):
    """A ``deal_end`` line (§R5.6); each family's derives from it."""

    __slots__ = ()
    T: ClassVar[LineKind] = LineKind.DEAL_END
    no: int


class End(RecordLine):
    """An ``end`` line (§R5.6, §R5.7): why the record ended and each seat's net; each family's
    settled end derives from it, beside the :class:`Abandoned` one every game shares."""

    __slots__ = ()
    T: ClassVar[LineKind] = LineKind.END
    REASONS: ClassVar[tuple[EndReason, ...]]
    """The reasons this kind of ``end`` line is written for."""
    reason: EndReason
    net: tuple[int, ...]

    @classmethod
    def _check_head(cls, obj: Mapping[str, object]) -> None:
        super()._check_head(obj)
        if obj.get("reason") not in cls.REASONS:
            raise InvalidRecord(f"{cls._describe()}: reason {obj.get('reason')!r}")


# --- the lines every game shares (§R5) -----------------------------------------------------------

OptionValue = int | bool | str
"""A game option's value in the ``game`` line (§R5.1)."""


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class Game(RecordLine):
    """§R5.1: the format version, the game, its players and seed, every option in force."""

    T: ClassVar[LineKind] = LineKind.GAME
    v: int
    game: str
    players: int
    seed: int
    options: tuple[tuple[str, OptionValue], ...] = field(metadata=key(pairs=True))


class SeatsBy(StrEnum):
    """How the first dealer was chosen (§R5.2)."""

    DRAW = "draw"  # §0.5
    SERIES = "series"  # §0.8


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class Seats(RecordLine):
    """§R5.2: the first dealer, drawn (every round's cards, None: not drawing) or continuing a
    series after ``prev_dealer``."""

    T: ClassVar[LineKind] = LineKind.SEATS
    players: int
    by: SeatsBy
    draw: tuple[tuple[Card | None, ...], ...]
    prev_dealer: Seat | None = field(default=None, metadata=key(optional=True))
    first_dealer: Seat


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class Deal(RecordLine):
    """§R5.3: a deal's number, dealer and deck; Лентюрлю's layout (§R8.2). ``deck`` None: a
    copy of the line without its deck (the bot's screens never get one)."""

    T: ClassVar[LineKind] = LineKind.DEAL
    no: int
    dealer: Seat
    layout: tuple[tuple[Card, int], ...] | None = field(
        default=None, metadata=key(optional=True, pairs=True)
    )
    deck: tuple[Card, ...] | None = field(default=None, metadata=key(optional=True))


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class Act(RecordLine):
    """§R4.1: one action by one seat, in RECORD.md notation (``State.parse_action`` types it)."""

    T: ClassVar[LineKind] = LineKind.ACT
    seat: Seat
    a: str


@typed
@dataclass(frozen=True, slots=True, kw_only=True)
class Abandoned(End):
    """§R5.7: the short end line of a game stopped unsettled (every net 0)."""

    REASONS: ClassVar[tuple[EndReason, ...]] = (EndReason.ABANDONED,)
    reason: EndReason
    net: tuple[int, ...]


# --- one family's book ---------------------------------------------------------------------------

L = TypeVar("L", bound=RecordLine)

_SHARED: Final[Mapping[LineKind, type[RecordLine]]] = types.MappingProxyType(
    {LineKind.GAME: Game, LineKind.SEATS: Seats, LineKind.DEAL: Deal, LineKind.ACT: Act}
)


@dataclass(frozen=True, slots=True)
class RecordBook:
    """Every line kind of one family's records: the shared lines, its events by name, its
    ``deal_end`` and its ``end`` lines by reason. The one parser of record lines."""

    family: str
    kinds: Mapping[str, type[Event]]
    deal_end: type[DealEnd]
    ends: Mapping[EndReason, type[End]]

    @classmethod
    def of(
        cls,
        family: str,
        events: Iterable[type[Event]],
        deal_end: type[DealEnd],
        end: type[End],
    ) -> RecordBook:
        kinds = {e.KIND: e for e in events}
        ends = {r: t for t in (end, Abandoned) for r in t.REASONS}
        return cls(family, types.MappingProxyType(kinds), deal_end, types.MappingProxyType(ends))

    def parse(self, line: Line) -> RecordLine:
        """One line, typed; refused (``InvalidRecord``) if it is not one of this family's."""
        kind = kind_of(line)
        if kind is LineKind.EVENT:
            return self.event(line)
        if kind is LineKind.DEAL_END:
            return self.deal_end.of(line)
        if kind is LineKind.END:
            return self.end(line)
        if kind is None:
            raise InvalidRecord(f"a line of no known type: {line.get('t')!r}")
        return _SHARED[kind].of(line)

    def read(self, lines: Iterable[Line]) -> tuple[RecordLine, ...]:
        """Every line, typed, in order."""
        return tuple(self.parse(line) for line in lines)

    def event(self, line: Line) -> Event:
        """An ``event`` line, typed; an event this family does not write is refused."""
        kind = self.kinds.get(line.get("e"))  # type: ignore[arg-type]
        if kind is None:
            raise InvalidRecord(f"no {self.family} event is called {line.get('e')!r}")
        return kind.of(line)

    def events(self, lines: Iterable[Line]) -> tuple[Event, ...]:
        """The ``event`` lines among ``lines``, typed, in order (the other lines skipped)."""
        return tuple(self.event(line) for line in lines if kind_of(line) is LineKind.EVENT)

    def end(self, line: Line) -> End:
        """An ``end`` line, typed by its reason."""
        reason = line.get("reason")
        kind = next((t for r, t in self.ends.items() if r == reason), None)
        if kind is None:
            raise InvalidRecord(f"no {self.family} record ends for {reason!r}")
        return kind.of(line)


def of_type(lines: Iterable[RecordLine], kind: type[L]) -> tuple[L, ...]:
    """The typed lines of one class, in order."""
    return tuple(line for line in lines if isinstance(line, kind))


def first_of(lines: Iterable[RecordLine], kind: type[L]) -> L | None:
    """The first typed line of one class (None: there is none)."""
    return next((line for line in lines if isinstance(line, kind)), None)
