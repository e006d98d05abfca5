"""Options of the trick family (RULES.md §1.7)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.options import bool_option, int_option


@dataclass(frozen=True, slots=True)
class MushkaOptions:
    """Classic Мушка (and the base of the other three)."""

    target: int = int_option(25, 5, 100)
    pulka_fee: int = int_option(0, 0, 1_000_000)
    point_value: int = int_option(1, 0, 1_000_000)
    must_trump: bool = bool_option(False)


@dataclass(frozen=True, slots=True)
class ShutikhaOptions(MushkaOptions):
    """Шутиха has exactly the options of classic Мушка."""


@dataclass(frozen=True, slots=True)
class PamfilOptions(MushkaOptions):
    """Памфил adds the announcement payment (§1.3.7)."""

    pamfil_bonus: int = int_option(5, 0, 1_000_000)


@dataclass(frozen=True, slots=True)
class MistigriOptions(MushkaOptions):
    """Мистигри adds the flush bonus (§1.3.10)."""

    flush_bonus: int = int_option(5, 0, 1_000_000)


TrickOptions = MushkaOptions
"""The type every trick-family options value is an instance of."""
