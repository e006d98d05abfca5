"""What a game family's UI module offers the core flow (no game is special-cased there)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.callbacks import PressCodec
from bot.i18n import Translator
from bot.render.common import Rendered
from bot.render.context import HandUI, TableContext
from engine.core import Line, View
from engine.errors import Refusal


@dataclass(frozen=True, slots=True)
class Apply:
    """The press means this engine action (RECORD.md text)."""

    action: str


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


class GameUI(Protocol):
    """One family's screens: the group table, the hand, results; and what a hand press means."""

    def table(self, ctx: TableContext, view: View[Any], tr: Translator) -> Rendered: ...

    def ended_table(
        self, ctx: TableContext, before: View[Any], lines: Sequence[Line], tr: Translator
    ) -> Rendered:
        """The table message's last state once its deal ended (no buttons): ``before`` is the
        public view before the deal's last action, ``lines`` what that action wrote."""
        ...

    def hand(
        self, ctx: TableContext, view: View[Any], ui: HandUI, tr: Translator, codec: PressCodec
    ) -> Rendered: ...

    def interpret(
        self, view: View[Any], act: str, arg: str | None, ui: HandUI
    ) -> Interpretation: ...

    def deal_result(
        self, ctx: TableContext, lines: Sequence[Line], view: View[Any], tr: Translator
    ) -> str: ...

    def counts(self, view: View[Any]) -> tuple[int, ...] | None: ...
