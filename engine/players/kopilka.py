"""The computer player of Kopilka (levels ``easy`` and ``normal``)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Final

from engine.core import View
from engine.players.basic import random_action


def easy(view: View[Any], rng: random.Random) -> Any:
    """A random legal action (kind first); the strong player replaces ``normal``."""
    return random_action(view.legal, rng)


LEVELS: Final[Mapping[str, Any]] = {"easy": easy, "normal": easy}
