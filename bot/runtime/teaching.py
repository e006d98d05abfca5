"""A teaching table (:attr:`~bot.storage.rows.TableKind.TEACHING`): a group's table its creator
made for learning — never rated, nothing booked, 💡 for every person at it. Made so in the
lobby (🎓 in its options, :meth:`bot.runtime.lobby.Lobby.set_teaching`) or by /newgame's
``teaching=true``, written as the game's options are."""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Final

from engine.errors import InvalidOption

OPTION: Final = "teaching"  # /newgame mushka teaching=true


def wanted(given: MutableMapping[str, str]) -> bool:
    """Whether /newgame's typed options ask for a teaching table; ``teaching=…`` is taken out
    of them (it is no option of the game's). A value other than true or false raises the
    :class:`~engine.errors.InvalidOption` a game's yes-or-no option would."""
    raw = given.pop(OPTION, None)
    if raw is None:
        return False
    value = raw.strip().lower()
    if value not in ("true", "false"):
        raise InvalidOption("option_not_bool", option=OPTION, value=raw)
    return value == "true"


__all__ = ["OPTION", "wanted"]
