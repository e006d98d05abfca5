"""What a game family's bot module offers the core flow (no game is special-cased there).

A family's module is generic over its engine view type (``ViewT``) and hands the runtime typed
engine actions (:class:`Apply`), never text. Screens are pure functions of a
:class:`~bot.render.context.TableContext`, one view and a translator: no screen receives the
record, and a seat's hand reaches only that seat's screen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from bot.callbacks import PressCodec
from bot.i18n import Translator
from bot.render.common import Rendered
from bot.render.context import HandUI, Standing, TableContext
from engine.core import Line, View
from engine.errors import Refusal

ViewT = TypeVar("ViewT", bound=View[Any], contravariant=True)


@dataclass(frozen=True, slots=True)
class Apply:
    """The press means this typed engine action (what ``State.apply`` takes)."""

    action: object


@dataclass(frozen=True, slots=True)
class SetUI:
    """The press only changes the hand message's marks or mode."""

    ui: HandUI


@dataclass(frozen=True, slots=True)
class Deny:
    """The press is refused before the engine sees it (a msgid and its parameters)."""

    msgid: str
    params: dict[str, Any] = field(default_factory=dict)
    engine: Refusal | None = None


Interpretation = Apply | SetUI | Deny


class GameUI(Protocol[ViewT]):
    """One family's screens and press reading. ``events`` are the public record lines the last
    action wrote (a deal line's deck is never among them)."""

    def table(self, ctx: TableContext, view: ViewT, tr: Translator) -> Rendered:
        """The group's live table message (public view)."""
        ...

    def ended_table(
        self, ctx: TableContext, before: ViewT, events: Sequence[Line], tr: Translator
    ) -> Rendered:
        """The table message's last state once its deal ended (no buttons): ``before`` is the
        public view before the deal's last action, ``events`` what that action wrote."""
        ...

    def hand(
        self, ctx: TableContext, view: ViewT, ui: HandUI, tr: Translator, codec: PressCodec
    ) -> Rendered:
        """One seat's private hand message (that seat's view)."""
        ...

    def interpret(self, view: ViewT, act: str, arg: str | None, ui: HandUI) -> Interpretation:
        """What a press on the seat's hand message means (the seat's view)."""
        ...

    def stale(self, last: object | None, act: str, arg: str | None) -> Deny | None:
        """A press drawn before the presser's own last action (``last``, typed), if it repeats
        that action ("Already played: Q♠"); None: an ordinary out-of-date press."""
        ...

    def deal_result(
        self, ctx: TableContext, events: Sequence[Line], view: ViewT, tr: Translator
    ) -> str:
        """The group's result of the deal that just ended ("" if none); ``view``: public, now."""
        ...

    def match_result(
        self,
        ctx: TableContext,
        end: Line,
        standings: Sequence[Standing],
        generation: int,
        tr: Translator,
        codec: PressCodec,
    ) -> Rendered:
        """The group's result of one game of the family (a pulka), with its end buttons."""
        ...

    def counts(self, view: ViewT) -> tuple[int, ...] | None:
        """Each seat's standing figure now (for /score), if the family has one."""
        ...

    def rules_summary(self, game: str, tr: Translator) -> str: ...

    def option_label(self, name: str, tr: Translator) -> str: ...

    def option_steps(self, name: str) -> tuple[int, ...] | None:
        """The values an integer option's lobby button steps through (None: the range)."""
        ...

    def match_word(self, tr: Translator) -> str:
        """The family's word for one game of a table, as in "Another pulka" (lowercase)."""
        ...
