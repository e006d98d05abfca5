"""The table facts every render function needs besides the engine's view."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from bot.callbacks import b36
from bot.markup import esc
from bot.rendered import Button

if TYPE_CHECKING:
    from bot.i18n import Translator


@dataclass(frozen=True, slots=True)
class TableContext:
    table_id: int
    game: str
    chat_title: str
    names: tuple[str, ...]
    match_no: int
    moves: int
    bot_username: str
    options: Mapping[str, object] = field(default_factory=dict)
    away: tuple[bool, ...] = ()  # seats the computer plays for now (PRODUCT.md §13)
    # 🂠's press where the table's hands are in the group; None: a deep link to private
    # (and, drawing a hand, None unless that hand is shown in the group)
    my_cards: str | None = None
    turn_left: int | None = None  # seconds the person to act has left (None: no timer shown)
    reminded: bool = False  # he was reminded (⅓ of his time left)
    practice: bool = False  # a practice table (/practice): never rated, and its results say so
    teaching: bool = False  # a teaching table (its creator's 🎓): never rated, and so said

    def link(self, payload: str) -> str:
        return f"https://t.me/{self.bot_username}?start={payload}"


def my_cards_button(ctx: TableContext, tr: Translator) -> Button:
    """The table message's 🂠 My cards: where hands are in the group, a press that shows the
    presser's hand in place of the table for him alone; else a link to the private chat."""
    if ctx.my_cards is not None:
        return Button(text=tr("🂠 My cards"), callback_data=ctx.my_cards)
    return Button(text=tr("🂠 My cards"), url=ctx.link(f"h_{b36(ctx.table_id)}"))


TIMER_STEP_S: Final = 15  # PRODUCT.md §9: the countdown is shown in steps of 15 s


def turn_timer(ctx: TableContext, tr: Translator) -> str | None:
    """``⏳ 0:45`` (``⏳ 0:30 — reminded`` once reminded; ``⏳ 11:59:45`` at a long turn): the
    time the person to act has left as the table was last drawn, rounded up to 15 s — never
    ticking by itself (it is drawn again with a real change, or the reminder); None while no
    turn timer runs."""
    if ctx.turn_left is None:
        return None
    left = math.ceil(ctx.turn_left / TIMER_STEP_S) * TIMER_STEP_S
    hours, rest = divmod(left, 3600)
    minutes, seconds = divmod(rest, 60)
    shown = f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"
    if ctx.reminded:
        return tr("⏳ {time} — reminded", time=shown)
    return f"⏳ {shown}"


def to_play_line(ctx: TableContext, seat: int, tr: Translator, *also: str) -> str:
    """``To play: <b>Vera</b> · … · ⏳ 0:45``: whom every family's table waits for, what it
    adds (``also``), and the turn's timer while one runs."""
    parts = [tr("To play: <b>{name}</b>", name=esc(ctx.names[seat])), *also]
    timer = turn_timer(ctx, tr)
    if timer is not None:
        parts.append(timer)
    return " · ".join(parts)
