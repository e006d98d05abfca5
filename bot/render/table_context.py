"""The table facts every render function needs besides the engine's view."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bot.callbacks import b36
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

    def link(self, payload: str) -> str:
        return f"https://t.me/{self.bot_username}?start={payload}"


def my_cards_button(ctx: TableContext, tr: Translator) -> Button:
    """The table message's 🂠 My cards: where hands are in the group, a press that shows the
    presser's hand in place of the table for him alone; else a link to the private chat."""
    if ctx.my_cards is not None:
        return Button(text=tr("🂠 My cards"), callback_data=ctx.my_cards)
    return Button(text=tr("🂠 My cards"), url=ctx.link(f"h_{b36(ctx.table_id)}"))
