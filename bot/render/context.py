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
class Standing:
    """One player's all-time line in a chat for one game (for results and /score)."""

    user_id: int
    name: str
    balance: int
    played: int
    won: int


@dataclass(frozen=True, slots=True)
class Rated:
    """One seat's rating in the chat after the game just ended, and its change (#35);
    ``computer``: the computer made most of its person's decisions — the seat was rated as the
    computer, not as him (#47)."""

    name: str
    rating: int
    change: int
    computer: bool = False


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of a game's leaderboard (#35): a person (``name``) or a computer ``level``; the
    rating (None: no game rated yet — played before ratings), games (``people``: of the rated
    ones, those where another person made his own decisions, #47), money and the game's own
    points."""

    user_id: int
    name: str
    level: str
    rating: int | None
    games: int
    people: int
    money: int
    points: int = 0


@dataclass(frozen=True, slots=True)
class Board:
    """A game's leaderboard in a chat (or a person's lines across chats): best first."""

    game: str
    entries: tuple[Entry, ...]

    def rank(self, user_id: int) -> int | None:
        """The person's place among the rated (1 best; None: not rated here)."""
        rated = [e for e in self.entries if e.rating is not None]
        for i, e in enumerate(rated, start=1):
            if e.user_id == user_id and not e.level:
                return i
        return None


@dataclass(frozen=True, slots=True)
class Standings:
    """What a game's result says beyond the game: the chat's all-time money of the people
    seated, and each seat's rating change (none for a game before ratings, or abandoned)."""

    ledger: tuple[Standing, ...] = ()
    rated: tuple[Rated, ...] = ()


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
    # 🂠's press where the table's hands are in the group (#32); None: a deep link to private
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
