"""Typed game options (RULES.md §1.7, §2.7, §3.6, §4.5).

Each game declares a frozen dataclass whose fields carry their allowed values in ``metadata``
(made by :func:`int_option`, :func:`bool_option`, :func:`enum_option`). :func:`parse_options`
reads a mapping of names to text or values, checks every value and fills in the defaults; the
record's ``game.options`` is :func:`options_dict` of the result.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import Any, TypeVar

from engine.errors import InvalidOption

OptT = TypeVar("OptT")

OptionValue = int | bool | str

# A whole number as typed: ASCII digits only (``str.isdigit`` takes "²" and "٣", ``int`` takes
# "٣" and "1_0" but not "²"), one sign at most.
_INT = re.compile(r"[+-]?([0-9]+)")
_DIGITS = 18


def int_option(
    default: int, low: int, high: int, *, when: tuple[str, OptionValue] | None = None
) -> Any:
    """An integer option in ``low … high`` inclusive; ``when``: it matters only while another
    option has that value (Кончинка's ``stake`` only with ``payment = pot``, RULES.md §4.5)."""
    metadata = {"kind": "int", "range": (low, high), "when": when}
    return dataclasses.field(default=default, metadata=metadata)


def applies(cls: type[Any], values: Mapping[str, Any], name: str) -> bool:
    """Whether option ``name`` of the options dataclass ``cls`` matters given the table's
    ``values`` (an option without a ``when`` always does)."""
    field = next(f for f in dataclasses.fields(cls) if f.name == name)
    when = field.metadata.get("when")
    if when is None:
        return True
    other, value = when
    default = next(f.default for f in dataclasses.fields(cls) if f.name == other)
    return bool(values.get(other, default) == value)


def bool_option(default: bool) -> Any:
    """A boolean option (``true``/``false``)."""
    return dataclasses.field(default=default, metadata={"kind": "bool"})


def enum_option(default: str, *choices: str) -> Any:
    """A string option with a fixed set of values."""
    assert default in choices
    return dataclasses.field(default=default, metadata={"kind": "enum", "choices": choices})


def option_fields(cls: type[Any]) -> tuple[dataclasses.Field[Any], ...]:
    """The option fields of an options dataclass, in declaration order."""
    return dataclasses.fields(cls)


def _coerce(name: str, meta: Mapping[str, Any], raw: object) -> OptionValue:
    kind = meta["kind"]
    if kind == "bool":
        if isinstance(raw, bool):
            return raw
        if isinstance(raw, str) and raw.strip().lower() in ("true", "false"):
            return raw.strip().lower() == "true"
        raise InvalidOption("option_not_bool", option=name, value=str(raw))
    if kind == "int":
        if isinstance(raw, bool):
            raise InvalidOption("option_not_int", option=name, value=str(raw))
        low, high = meta["range"]
        if isinstance(raw, int):
            value = raw
        elif isinstance(raw, str) and (m := _INT.fullmatch(raw.strip())):
            if len(m.group(1)) > _DIGITS:  # int() of thousands of digits raises; all too big
                raise InvalidOption(
                    "option_out_of_range", option=name, value=raw.strip(), low=low, high=high
                )
            value = int(m.group(0))
        else:
            raise InvalidOption("option_not_int", option=name, value=str(raw))
        if not low <= value <= high:
            raise InvalidOption("option_out_of_range", option=name, value=value, low=low, high=high)
        return value
    choices: tuple[str, ...] = meta["choices"]
    text = str(raw).strip().lower()
    if text not in choices:
        raise InvalidOption(
            "option_not_allowed", option=name, value=str(raw), allowed=" ".join(choices)
        )
    return text


def parse_options(cls: type[OptT], given: Mapping[str, object] | None) -> OptT:
    """Build ``cls`` from ``given`` (text or typed values); unknown names are refused."""
    given = dict(given or {})
    known = {f.name: f for f in option_fields(cls)}
    for name in given:
        if name not in known:
            raise InvalidOption("unknown_option", option=name)
    values = {name: _coerce(name, known[name].metadata, raw) for name, raw in given.items()}
    return cls(**values)


def options_dict(options: object) -> dict[str, OptionValue]:
    """Every option with its value in force, for the record's ``game`` line (§R5.1)."""
    return {f.name: getattr(options, f.name) for f in option_fields(type(options))}


def parse_assignments(items: list[str]) -> dict[str, str]:
    """Read ``name=value`` strings (the CLI's ``--option``)."""
    out: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise InvalidOption("option_syntax", text=item)
        out[name.strip()] = value.strip()
    return out
