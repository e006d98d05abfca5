"""What a game family's bot module offers the core flow (no game is special-cased there).

A family's module is generic over its engine view type (``ViewT``); what a press on its hand
means is :mod:`bot.presses`' (:data:`bot.presses.families.FAMILY_PRESSES`). Screens are pure
functions of a
:class:`~bot.render.table_context.TableContext`, one view and a translator: no screen receives the
record, and a seat's hand reaches only that seat's screen.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from bot.callbacks import PressCodec
from bot.i18n import Translator
from bot.presses.meaning import HandUI
from bot.render.chart import Plot
from bot.render.table_context import TableContext
from bot.rendered import Rendered
from bot.runtime.scoreboard import Standings
from engine.core import Line, Seat, View

ViewT = TypeVar("ViewT", bound=View[Any, Any])


@dataclass(frozen=True)  # no slots: a slotted generic dataclass breaks ``GameUI[V](...)``
class GameUI(Generic[ViewT]):
    """One family's screens: its module's functions, gathered once. ``events``
    are the public record lines the last action wrote (a deal line's deck is never among them).

    * ``table(ctx, view, tr)``: the group's live table message (public view).
    * ``ended_table(ctx, before, events, tr)``: the table message's last state once its deal
      ended (no buttons); ``before`` is the public view before the deal's last action.
    * ``hand(ctx, view, ui, tr, codec)``: one seat's private hand message (that seat's view).
    * ``deal_result(ctx, events, view, tr)``: the group's result of the deal that just ended
      ("" if none); ``view``: public, now.
    * ``match_result(ctx, end, winner, standings, generation, tr, codec)``: the group's result
      of one game of the family (a pulka, a partia …), with its end buttons; ``winner``: the
      engine's ``Result.winner`` (None: stopped), which Копилка's ``end`` line does not name
      (RULES.md §2.6.7).
    * ``option_value(name, value, tr)``: an enum option's value in words (None: as it is).
    * ``points_label(n, tr)``: /score's words for the game's own points summed over the games
      played (engine ``Result.points``), for a family that scores points beside money.
    * ``chart(record, tr)``: what the game's chart draws of its finished record (each
      seat's figure deal by deal); None: the family has no chart (a game of one deal).
    * ``rules_summary(game, tr)``, ``option_label(name, tr)``; ``option_steps(name)``: the values
      an integer option's lobby button steps through (None: the range); ``match_word(tr)``: the
      family's word for one game of a table, as in "Another pulka" (lowercase).
    """

    table: Callable[[TableContext, ViewT, Translator], Rendered]
    ended_table: Callable[[TableContext, ViewT, Sequence[Line], Translator], Rendered]
    hand: Callable[[TableContext, ViewT, HandUI, Translator, PressCodec], Rendered]
    deal_result: Callable[[TableContext, Sequence[Line], ViewT, Translator], str]
    match_result: Callable[
        [TableContext, Line, Seat | None, Standings, int, Translator, PressCodec],
        Rendered,
    ]
    rules_summary: Callable[[str, Translator], str]
    option_label: Callable[[str, Translator], str]
    option_steps: Callable[[str], tuple[int, ...] | None]
    match_word: Callable[[Translator], str]
    points_label: Callable[[int, Translator], str] | None = None
    option_value: Callable[[str, str, Translator], str | None] | None = None
    events: Callable[[TableContext, Sequence[Line], Translator], list[str]] | None = None
    """An action's public events no move line shows, in words (a flush shown, a pamfil
    announced, cards dealt out of the stock), one line each."""
    chart: Callable[[Sequence[Line], Translator], Plot | None] | None = None
