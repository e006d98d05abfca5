"""The RULES.md clause an engine refusal code stands for."""

from __future__ import annotations

import functools
import inspect
import re
from collections.abc import Mapping
from typing import Final

from engine import errors
from engine.errors import Refusal

_CLAUSE: Final = re.compile(r'^\s*[A-Z_]+ = "(?P<code>[a-z_]+)"\s*#\s*(?P<clause>§[^#]*?)\s*$')


@functools.cache
def _clauses() -> Mapping[str, str]:
    """``code -> "§1.4.3 b"`` from the comments on ``Refusal``'s members (engine/errors.py is
    where each refusal names its clause; read, never copied)."""
    found: dict[str, str] = {}
    for line in inspect.getsource(errors).splitlines():
        if (match := _CLAUSE.match(line)) is not None:
            found[match.group("code")] = match.group("clause")
    return found


def rule_of(code: Refusal) -> str:
    """``must_follow_suit, §1.4.3 a`` — the engine's code and, where it names one, its clause."""
    clause = _clauses().get(code.value)
    return f"{code.value}, {clause}" if clause else code.value
