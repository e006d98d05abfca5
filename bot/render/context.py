"""The table facts every render function needs besides the engine's view."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Final

from bot.callbacks import b36
from bot.render.common import Button
from engine.cards import Card

if TYPE_CHECKING:
    from bot.i18n import Translator

GAME_NAMES: Final = {
    "mushka": ("Мушка", "Mushka"),
    "pamfil": ("Памфил", "Pamfil"),
    "shutikha": ("Шутиха", "Shutikha"),
    "mistigri": ("Мистигри", "Mistigri"),
    "kopilka": ("Копилка", "Kopilka"),
    "lenturlu": ("Лентюрлю", "Lenturlu"),
    "konchinka": ("Кончинка", "Konchinka"),
}
"""PRODUCT.md §11: ru names; en transliterations."""

ALIASES: Final = {ru.lower(): code for code, (ru, _) in GAME_NAMES.items()}


def game_name(game: str, locale: str) -> str:
    ru, en = GAME_NAMES.get(game, (game, game))
    return ru if locale == "ru" else en


def game_code(text: str) -> str | None:
    """A game's code from its code or ru alias, case-insensitive."""
    word = text.strip().lower()
    if word in GAME_NAMES:
        return word
    return ALIASES.get(word)


class ModeKind(StrEnum):
    """What a hand message is in the middle of (PRODUCT.md §6.3); the value is the letter the
    ``hands`` table stores."""

    PLAIN = ""  # nothing under way
    EXCHANGE = "x"  # the trick family: marking the cards to exchange (RULES.md §1.3.4)
    DISCARD = "q"  # Шутиха: marking the discards after the Q♠ was dealt out (§1.3.12)
    RETRUMP = "t"  # Памфил's turned-up J♣: a discard chosen, trump to name (§1.2) — with its card
    RUN_FIRST = "r"  # Лентюрлю: a run's first card tapped (§3.2.1)
    RUN = "m"  # Лентюрлю: a run's first and last cards marked, and its middle choices
    CHOOSE = "c"  # Кончинка: a card with several captures, one to choose (§4.3) — with its card


_WITH_CARD: Final = frozenset({ModeKind.RETRUMP, ModeKind.CHOOSE})


@dataclass(frozen=True, slots=True)
class HandMode:
    """A hand message's mode: its kind, and the card of a re-trump or of a capture to choose.
    Stored as text (``""``, ``x``, ``t:QS``, ``c:7D`` …): :meth:`parse` reads it once, ``str``
    writes it back the same."""

    kind: ModeKind = ModeKind.PLAIN
    card: Card | None = None

    def __post_init__(self) -> None:
        if (self.card is not None) != (self.kind in _WITH_CARD):
            raise ValueError(f"a {self.kind.name} hand mode with card {self.card}")

    @classmethod
    def parse(cls, text: str) -> HandMode:
        """The mode as the ``hands`` table stores it; ValueError if no hand writes it."""
        letter, colon, code = text.partition(":")
        kind = ModeKind(letter)
        if not colon:
            return cls(kind)
        card = Card.parse(code)
        if str(card) != code:
            raise ValueError(f"a hand mode's card: {code!r}")
        return cls(kind, card)

    def card_of(self, kind: ModeKind) -> Card | None:
        """The mode's card if the mode is of ``kind`` (None: another mode)."""
        return self.card if self.kind is kind else None

    def __str__(self) -> str:
        return self.kind.value if self.card is None else f"{self.kind.value}:{self.card}"


PLAIN: Final = HandMode()
"""No mode: the plain hand."""


@dataclass(frozen=True, slots=True, init=False)
class HandUI:
    """A seat's unsent choices on its hand message: marked cards (their codes) and a mode
    (§6.3). The mode may be given as its stored text, read at once (:meth:`HandMode.parse`)."""

    marks: tuple[str, ...]
    mode: HandMode

    def __init__(self, marks: tuple[str, ...] = (), mode: HandMode | str = PLAIN) -> None:
        object.__setattr__(self, "marks", marks)
        object.__setattr__(self, "mode", HandMode.parse(mode) if isinstance(mode, str) else mode)

    @classmethod
    def stored(cls, marks: str, mode: str) -> HandUI:
        """As the ``hands`` table has it: the marks' codes comma-separated, the mode's text."""
        return cls(tuple(m for m in marks.split(",") if m), HandMode.parse(mode))

    def columns(self) -> tuple[str, str]:
        """The ``hands`` table's ``marks`` and ``mode`` (what :meth:`stored` reads back)."""
        return ",".join(self.marks), str(self.mode)


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
