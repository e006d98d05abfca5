"""Each game family's press reading, by the engine's ``GameSpec.family``: what the runtime asks
of a family (its screens are :data:`bot.render.games.FAMILIES`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Generic, TypeVar

from bot.presses import konchinka, kopilka, lenturlu, trick
from bot.presses.meaning import Deny, HandUI, Interpretation
from engine.core import View
from engine.games import GAMES
from engine.konchinka.view import KonchinkaView
from engine.kopilka.view import KopilkaView
from engine.lenturlu.view import LenturluView
from engine.trick.view import TrickView

ViewT = TypeVar("ViewT", bound=View[Any, Any])


@dataclass(frozen=True)  # no slots: a slotted generic dataclass breaks ``FamilyPresses[V](...)``
class FamilyPresses(Generic[ViewT]):
    """One family's reading of its hands, gathered once.

    * ``interpret(view, act, arg, ui)``: what a press on the seat's hand message means.
    * ``stale(last, act, arg)``: a press drawn before the presser's own last action (``last``,
      typed), if it repeats that action ("Already played: Q♠"); None: an ordinary stale press.
    * ``counts(view)``: each seat's standing figure now (for /score), if the family has one.
    * ``still_waiting``: see the field.
    """

    interpret: Callable[[ViewT, str, str | None, HandUI], Interpretation]
    stale: Callable[[object | None, str, str | None], Deny | None]
    counts: Callable[[ViewT], tuple[int, ...] | None]
    still_waiting: bool = False
    """The hand of a seat not to act shows nothing that changes with the others' moves: the
    presenter draws its buttons at :data:`~bot.callbacks.STILL`, so it is edited only when
    something of its own changes (PRODUCT.md §8: a card played edits the actor's and the next
    player's hands, not every hand), and a press on such a button is no stale press."""


FAMILY_PRESSES: Final[dict[str, FamilyPresses[Any]]] = {
    "trick": FamilyPresses[TrickView](
        interpret=trick.interpret,
        stale=trick.stale,
        counts=lambda view: view.counts,
        still_waiting=True,
    ),
    "kopilka": FamilyPresses[KopilkaView](
        interpret=kopilka.interpret,
        stale=kopilka.stale,
        counts=lambda view: view.partia_points,  # completed deals plus this deal's tricks
    ),
    "lenturlu": FamilyPresses[LenturluView](
        interpret=lenturlu.interpret,
        stale=lenturlu.stale,
        counts=lambda view: view.money or None,
    ),
    "konchinka": FamilyPresses[KonchinkaView](
        interpret=konchinka.interpret,
        stale=konchinka.stale,
        counts=lambda view: view.totals,
    ),
}
"""Families the bot can seat; a new family adds its press module here and its screens to
:data:`bot.render.games.FAMILIES`."""


def family_presses(game: str) -> FamilyPresses[Any] | None:
    """The press reading of ``game``'s family (None: a game the bot cannot seat yet)."""
    spec = GAMES.get(game)
    return FAMILY_PRESSES.get(spec.family) if spec else None
