"""What a press on a hand message means, whatever the family: an engine action
(:class:`Apply`), a change of the hand's unsent marks or mode (:class:`SetUI`, :class:`HandUI`),
or a refusal before the engine sees it (:class:`Deny`); and what every family reads alike (a
card code as written, an unknown button)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final

from bot.refused import BotRefusal, Reason
from engine.cards import Card
from engine.errors import InvalidNotation


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
class Apply:
    """The press means this typed engine action (what ``State.apply`` takes)."""

    action: object


@dataclass(frozen=True, slots=True)
class SetUI:
    """The press only changes the hand message's marks or mode."""

    ui: HandUI


@dataclass(frozen=True, slots=True)
class Deny:
    """The press is refused before the engine sees it: why (the bot's reason, or the engine's
    rule) and the parameters its words take (:mod:`bot.render.refusals`)."""

    reason: Reason
    params: dict[str, Any] = field(default_factory=dict)


Interpretation = Apply | SetUI | Deny

UNKNOWN = Deny(BotRefusal.UNKNOWN_BUTTON)
"""A press no hand of the family offers (a forged or mangled button)."""


def card_of(code: str) -> Card | None:
    """The card of a RECORD.md code exactly as written (``AS``, ``10H``); None if it is none."""
    try:
        card = Card.parse(code)
    except InvalidNotation:
        return None
    return card if str(card) == code else None
